#!/usr/bin/env python3
"""Every signal, 1 to SIGRTMAX but KILL and STOP, sent to each release tool
while its prompt is up on a pty.

A signal whose default action ends the process must end it by that signal
with the termios and every private mode put back, nothing on stderr and no
core file (the tool runs with `ulimit -c unlimited` in a private directory,
and the machine's `core_pattern` is not touched: a relative pattern lands
there, and the wait status says whether the kernel dumped one). Any other
signal must leave the prompt working: Enter then gives back what was typed.

Usage: signals.py [TOOL...]
"""

import os
import signal
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from session import describe, BACKTRACE  # noqa: E402
import tools  # noqa: E402

IGNORED = {signal.SIGCHLD, signal.SIGURG, signal.SIGWINCH, signal.SIGCONT}
STOPS = {signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU}
# glibc's own (cancellation, setxid): the tools ignore them, as glibc's
# handlers ignore a kill from outside.
INTERNAL = set(range(32, signal.SIGRTMIN))
# The pinentry ignores SIGPIPE and job control, as pinentry-curses does.
PINENTRY_IGNORED = {signal.SIGPIPE, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGCONT}


def check(name, number):
    directory = tempfile.mkdtemp(prefix="sf-signal-")
    # The fault hook's variable too: a release build must not have the hook.
    session = tools.start(name, env={"SECRETFIELD_TEST_FAULT": "null-dereference"}, cwd=directory,
                          core_dumps=True)
    findings = []
    try:
        if session is None:
            return ["no prompt"]
        session.type(b"ab")
        session.settle(0.1)
        if not session.is_raw():
            return ["control failed: not raw while prompting"]
        os.kill(session.pid, number)
        if number in IGNORED or number in STOPS or number in INTERNAL or \
                (name == "pinentry" and number in PINENTRY_IGNORED):
            # A stop restores the terminal and enters raw mode again, flushing
            # what was typed meanwhile: let it finish before typing on.
            session.settle(0.5)
            if session.poll_status() is not None:
                findings.append("ended by %s" % describe(session.status))
            elif not tools.submitted(name, session, b"ab"):
                findings.append("prompt broken after it: output %r" % session.output[-80:])
        else:
            status = session.wait_exit(30)
            if status is None:
                findings.append("did not end")
            elif not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == number):
                findings.append("ended by %s" % describe(status))
            elif os.WCOREDUMP(status):
                findings.append("core dumped")
            if not session.restored():
                findings.append("terminal left raw or a mode left on: %s" % session.modes)
            if session.error:
                findings.append("stderr %r" % session.error[:200])
            if BACKTRACE.search(session.error):
                findings.append("a backtrace")
        if os.listdir(directory):
            findings.append("files left: %s" % os.listdir(directory))
    finally:
        if session is not None:
            session.close()
        shutil.rmtree(directory, ignore_errors=True)
    return findings


def main():
    names = sys.argv[1:] or tools.NAMES
    cases = found = 0
    for name in names:
        for number in range(1, signal.SIGRTMAX + 1):
            if number in (signal.SIGKILL, signal.SIGSTOP):
                continue
            cases += 1
            findings = check(name, number)
            if findings:
                found += 1
                print("%s, signal %d: %s" % (name, number, "; ".join(findings)), flush=True)
    print("signals: %d cases (%s x signals 1..%d but KILL, STOP), %d with findings"
          % (cases, "/".join(names), signal.SIGRTMAX, found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
