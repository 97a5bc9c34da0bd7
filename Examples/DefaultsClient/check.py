#!/usr/bin/env python3
"""Types a random password into each way defaults-client asks (a form, a
prompt, a pinentry session, a source), on a pseudo-terminal of its own, and
counts the copies of it in the client's memory, read from outside through
/proc/PID/maps and /proc/PID/mem as root reads them. Each runs twice: with
the library's defaults (0 copies expected) and with --sodium, the control (the
same scan must find the password). Needs root.

Usage: sudo python3 check.py PATH/TO/defaults-client
"""
import os
import random
import select
import string
import subprocess
import sys
import time


def scan(pid, needle):
    """Copies of `needle` in every readable mapping of `pid`."""
    copies = 0
    with open("/proc/%d/maps" % pid) as maps, open("/proc/%d/mem" % pid, "rb", 0) as mem:
        for line in maps:
            low, high = (int(x, 16) for x in line.split()[0].split("-"))
            try:
                mem.seek(low)
                data = mem.read(high - low)
            except (OSError, ValueError, OverflowError):
                continue  # secret memory (EIO), [vvar]
            copies += data.count(needle)
    return copies


class Terminal:
    def __init__(self):
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self.screen = b""

    def read_until(self, text, deadline=30):
        end = time.monotonic() + deadline
        while text not in self.screen:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no %r on the terminal: %r" % (text, self.screen[-300:]))
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                self.screen += os.read(self.master, 65536)

    def wait_masks(self, count, since, deadline=30):
        """Until `count` mask glyphs were drawn after offset `since`."""
        end = time.monotonic() + deadline
        while self.screen[since:].count("\u2022".encode()) < count:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("fewer than %d masks drawn" % count)
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                self.screen += os.read(self.master, 65536)

    def type(self, text):
        for byte in text:
            os.write(self.master, bytes([byte]))
            time.sleep(0.01)


def wait_line(stream, prefix, deadline=30):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        line = stream.readline()
        if not line:
            break
        if line.startswith(prefix):
            return line
    raise TimeoutError("no line starting %r" % prefix)


def run(client, mode, control):
    password = "".join(random.choice(string.ascii_letters + string.digits) for _ in range(24))
    user = "user-" + "".join(random.choice(string.ascii_lowercase) for _ in range(16))
    needle = password.encode()
    terminal = Terminal()
    arguments = [client, mode] + (["--sodium"] if control else [])
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")

    def on_terminal():
        os.setsid()
        import fcntl, termios
        fcntl.ioctl(terminal.slave, termios.TIOCSCTTY, 0)

    if mode == "pinentry":
        child = subprocess.Popen(
            arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=env, preexec_fn=os.setsid, text=True, bufsize=1)
        wait_line(child.stdout, "OK")
        for request in ["OPTION ttyname=" + terminal.path, "OPTION ttytype=xterm-256color",
                        "OPTION lc-ctype=C.UTF-8", "SETPROMPT Password:", "GETPIN"]:
            child.stdin.write(request + "\n")
            if request != "GETPIN":
                wait_line(child.stdout, "OK")
        terminal.read_until(b"Password:")
        since = len(terminal.screen)
        terminal.type(needle)
        terminal.wait_masks(len(needle), since)
        typed = scan(child.pid, needle)
        terminal.type(b"\r")
        wait_line(child.stdout, "D ")
        wait_line(child.stdout, "OK")
        after = scan(child.pid, needle)
        child.stdin.write("BYE\n")
        child.stdin.close()
        child.wait(timeout=10)
        return typed, after, None
    child = subprocess.Popen(
        arguments, stdin=terminal.slave, stdout=terminal.slave, stderr=subprocess.PIPE,
        env=env, preexec_fn=on_terminal, text=True)
    if mode == "form":
        terminal.read_until(b"User:")
        terminal.type(user.encode() + b"\t")
    terminal.read_until(b"Password:")
    since = len(terminal.screen)
    terminal.type(needle)
    terminal.wait_masks(len(needle), since)
    typed = scan(child.pid, needle)
    terminal.type(b"\r")
    wait_line(child.stderr, "HELD")
    held = scan(child.pid, needle)
    user_copies = scan(child.pid, user.encode()) if mode == "form" else None
    child.kill()
    child.wait()
    return typed, held, user_copies


def main():
    if len(sys.argv) != 2 or os.geteuid() != 0:
        sys.exit(__doc__)
    client = os.path.abspath(sys.argv[1])
    failed = False
    for mode in ["form", "prompt", "pinentry", "source"]:
        typed, held, user = run(client, mode, control=False)
        control_typed, control_held, _ = run(client, mode, control=True)
        ok = typed == 0 and held == 0 and control_typed >= 1 and (user is None or user >= 1)
        failed = failed or not ok
        extra = "" if user is None else "; the user name typed beside it: %d" % user
        after = "held after Enter" if mode != "pinentry" else "after the D line"
        print("%-9s defaults: typed %d, %s %d%s | control (--sodium): typed %d, %s %d  %s"
              % (mode, typed, after, held, extra, control_typed, after, control_held,
                 "ok" if ok else "FAILED"))
    sys.exit(1 if failed else 0)


main()
