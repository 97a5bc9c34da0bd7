#!/usr/bin/env python3
"""Memory scans, as root, of each live release tool for the password typed.

For each tool: a fresh random password is typed at the prompt; while the
prompt is up, and (for `secretfield prompt` and the askpass, stopped by
`SECRETFIELD_TEST_STOP_BEFORE_EXIT`) after it printed the password, every
mapping of /proc/PID/maps is read through /proc/PID/mem and searched for the
password. After printing, the tool has wiped it: nothing may be found in
either memory. While prompting, the tools keep it in secret memory (`memfd_secret`), which not even
root can read, so nothing may be found. The control: the same with
`SECRETFIELD_TEST_SODIUM_MEMORY=1` (ordinary locked memory) must find it, so
a scan that finds nothing is not a scan that cannot find.

Usage: scan.py [ROUNDS]
"""

import os
import random
import signal
import string
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import tools  # noqa: E402


def scan(pid, needle):
    """How many copies of `needle` the readable memory of `pid` holds."""
    found = 0
    with open("/proc/%d/maps" % pid) as maps, open("/proc/%d/mem" % pid, "rb", 0) as memory:
        for line in maps:
            fields = line.split()
            start, end = (int(value, 16) for value in fields[0].split("-"))
            if len(fields) > 5 and fields[5] == "[vvar]":
                continue
            try:
                memory.seek(start)
                data = memory.read(end - start)
            except (OSError, ValueError, OverflowError):
                continue
            found += data.count(needle)
    return found


def round_(name, control, rng):
    password = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(24)).encode()
    env = {"SECRETFIELD_TEST_STOP_BEFORE_EXIT": "1"} if name != "pinentry" else {}
    if control:
        env["SECRETFIELD_TEST_SODIUM_MEMORY"] = "1"
    session = tools.start(name, env=env)
    results = []
    try:
        if session is None:
            return None
        for index in range(0, len(password), 3):
            session.type(password[index:index + 3])
            session.pump(0.01)
        # The field holds it once the masks are drawn.
        deadline = time.monotonic() + 10
        while session.screen.count("•".encode()) < len(password) and time.monotonic() < deadline:
            session.pump(0.02)
        results.append(("prompting", scan(session.pid, password)))
        if name != "pinentry":
            session.type(b"\r")
            stopped = session.wait_stopped(30)
            if stopped == signal.SIGSTOP:
                results.append(("after printing", scan(session.pid, password)))
                os.kill(session.pid, signal.SIGCONT)
            session.wait_exit(30)
            if session.output != password + b"\n":
                results.append(("output wrong", -1))
    finally:
        if session is not None:
            session.close()
    return results


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    if os.geteuid() != 0:
        print("scan.py: run as root")
        return 2
    rng = random.Random(17)
    scans = found = control_misses = 0
    for name in tools.NAMES:
        for control in (False, True):
            for _ in range(rounds):
                results = round_(name, control, rng)
                if results is None:
                    print("%s: no prompt" % name)
                    found += 1
                    continue
                for moment, copies in results:
                    scans += 1
                    if control and moment == "after printing":
                        # Once printed the tool wipes it in either memory:
                        # nothing may be found here either.
                        if copies != 0:
                            found += 1
                            print("%s control, after printing: %d copies" % (name, copies))
                    elif control and copies <= 0:
                        control_misses += 1
                        print("%s control, %s: found %d: the scan cannot see" % (name, moment, copies))
                    elif not control and copies != 0:
                        found += 1
                        print("%s, %s: %d copies of the password" % (name, moment, copies))
    print("scan: %d scans (%d rounds each, tools x secret/sodium memory), %d with copies in secret memory, "
          "%d controls that found nothing" % (scans, rounds, found, control_misses))
    return 1 if found or control_misses else 0


if __name__ == "__main__":
    sys.exit(main())
