#!/usr/bin/env python3
"""Many thousands of Assuan lines against `pinentry-secretfield` (release).

Lines: random bytes, mutations of valid commands (flipped, inserted and
deleted bytes, NUL and CR, valid and broken %-escapes), unknown commands,
over-long lines and huge OPTION values. The pinentry runs in a session of its
own with no controlling terminal, and every ttyname a line names is made a
path that does not exist, so no prompt can reach a real terminal. Checks:
every reply line is a valid Assuan line (at most 1,000 bytes with its line
feed, no raw CR or NUL, a known verb); the process never dies by a signal;
`GETINFO pid` is answered with its pid after every batch.

Usage: assuan.py [BATCHES] [LINES_PER_BATCH] [SEED]
"""

import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from session import tool  # noqa: E402

COMMANDS = [
    b"GETPIN", b"CONFIRM", b"CONFIRM --one-button", b"MESSAGE", b"SETDESC Enter your passphrase",
    b"SETPROMPT PIN:", b"SETTITLE t", b"SETOK OK", b"SETCANCEL No", b"SETNOTOK Not",
    b"SETERROR Bad%0Apass", b"SETREPEAT", b"SETREPEATERROR no match", b"SETREPEATOK ok",
    b"SETQUALITYBAR", b"SETQUALITYBAR_TT tip", b"SETKEYINFO n/ABCDEF", b"SETTIMEOUT 5",
    b"CLEARPASSPHRASE n/ABCDEF", b"GETINFO pid", b"GETINFO version", b"GETINFO flavor",
    b"GETINFO ttyinfo", b"OPTION ttyname=/dev/pts/0", b"OPTION ttytype=xterm", b"OPTION lc-ctype=C.UTF-8",
    b"OPTION lc-messages=C", b"OPTION allow-external-password-cache", b"OPTION default-ok=O%25K",
    b"OPTION default-cancel=C", b"OPTION constraints-enforce", b"OPTION formatted-passphrase",
    b"OPTION invisible-char=*", b"OPTION owner=1234/host", b"OPTION touch-file=/nonexistent/x",
    b"NOP", b"RESET", b"HELP", b"CANCEL", b"END", b"D abc", b"# comment", b"OPTION", b"GETINFO",
]
VERB = re.compile(rb"^(OK|ERR|D|S|#|INQUIRE)( |$)")


def safe(line):
    """No line may point the pinentry at a real terminal or file."""
    line = re.sub(rb"(?i)(ttyname\s*=?\s*)", rb"\1/nonexistent", line)
    line = re.sub(rb"(?i)(touch-file\s*=?\s*)", rb"\1/nonexistent/", line)
    if line.strip().upper() == b"BYE" or line.upper().startswith(b"BYE"):
        line = b"X" + line
    return line


def mutate(rng, line):
    line = bytearray(line)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(7)
        at = rng.randint(0, len(line))
        if op == 0 and line:
            line[min(at, len(line) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            line[at:at] = bytes([rng.randint(0, 255)])
        elif op == 2 and line:
            del line[min(at, len(line) - 1)]
        elif op == 3:
            line[at:at] = rng.choice([b"\x00", b"\r", b"%00", b"%0D", b"%0A", b"%25", b"%", b"%4", b"%ZZ", b"%0a"])
        elif op == 4:
            line[at:at] = bytes(rng.randint(0x20, 0x7E) for _ in range(rng.randint(1, 40)))
        elif op == 5:
            line[at:at] = b" " * rng.randint(1, 5)
        else:
            line += rng.choice(COMMANDS)
    return bytes(line).replace(b"\n", b"")


def random_line(rng):
    kind = rng.randrange(8)
    if kind == 0:
        return bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 300))).replace(b"\n", b"")
    if kind in (1, 2, 3):
        return mutate(rng, rng.choice(COMMANDS))
    if kind == 4:
        return b"".join(bytes([rng.randint(0x41, 0x5A)]) for _ in range(rng.randint(1, 20))) + b" arg"
    if kind == 5:
        return b"OPTION " + bytes(rng.randint(0x61, 0x7A) for _ in range(8)) + b"=" + b"v" * rng.randint(1000, 200000)
    if kind == 6:
        return rng.choice([b"SETDESC ", b"SETPROMPT ", b"SETERROR ", b"OPTION ttyname="]) + \
            bytes(rng.choice(b"a%0A\r\x00 ") for _ in range(rng.randint(900, 5000)))
    return rng.choice(COMMANDS) + b" " + b"%" * rng.randint(1, 3000)


def main():
    batches = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    per_batch = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 17)
    lines = replies = problems = 0
    longest = 0
    for batch in range(batches):
        sent = [safe(random_line(rng)) for _ in range(per_batch)]
        data = b"\n".join(sent) + b"\nGETINFO pid\nBYE\n"
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        process = subprocess.Popen([tool("pinentry-secretfield")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=env, start_new_session=True)
        try:
            out, err = process.communicate(data, timeout=300)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
            print("batch %d: hung" % batch)
            problems += 1
        lines += len(sent) + 2
        got = out.split(b"\n")
        if got and got[-1] == b"":
            got.pop()
        for reply in got:
            replies += 1
            longest = max(longest, len(reply) + 1)
            bad = []
            if len(reply) + 1 > 1000:
                bad.append("%d bytes" % (len(reply) + 1))
            if b"\r" in reply or b"\x00" in reply:
                bad.append("raw CR or NUL")
            if not VERB.match(reply):
                bad.append("no Assuan verb")
            if bad:
                problems += 1
                if problems < 30:
                    print("batch %d: %s: %r" % (batch, ", ".join(bad), reply[:160]))
        if process.returncode < 0:
            problems += 1
            print("batch %d: died by signal %d; stderr %r" % (batch, -process.returncode, err[-300:]))
        if (b"D %d" % process.pid) not in got:
            problems += 1
            print("batch %d: GETINFO pid not answered at the end (exit %d)" % (batch, process.returncode))
    print("assuan: %d lines in %d sessions, %d reply lines (longest %d bytes), %d problems"
          % (lines, batches, replies, longest, problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
