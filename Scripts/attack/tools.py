"""The three release tools, each started with its prompt up on a fresh pty."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from session import Session, tool  # noqa: E402

NAMES = ["prompt", "askpass", "pinentry"]


def start(name, env=None, cwd=None, core_dumps=False):
    """The tool `name` with its prompt on the screen, or None when it did not come."""
    if name == "prompt":
        session = Session([tool("secretfield"), "prompt"], env=env, cwd=cwd, core_dumps=core_dumps)
        prompt = b"Password:"
    elif name == "askpass":
        session = Session([tool("secretfield-askpass"), "Passphrase:"], env=env, cwd=cwd, core_dumps=core_dumps)
        prompt = b"Passphrase:"
    else:
        session = Session([tool("pinentry-secretfield")], env=env, cwd=cwd, core_dumps=core_dumps, stdin_pipe=True)
        os.write(session.stdin, b"OPTION ttyname=%s\nOPTION ttytype=xterm-256color\nSETPROMPT PIN:\nGETPIN\n"
                 % session.slave_path.encode())
        prompt = b"PIN:"
    if not session.wait_for(prompt):
        session.close()
        return None
    return session


def submitted(name, session, typed):
    """True when the tool, after Enter, gave back exactly `typed`."""
    session.type(b"\r")
    if name == "pinentry":
        import time
        deadline = time.monotonic() + 30
        while b"OK\n" not in session.output.split(b"D ", 1)[-1] and time.monotonic() < deadline:
            session.pump(0.02)
        os.write(session.stdin, b"BYE\n")
        session.wait_exit(30)
        return (b"D " + typed + b"\nOK") in session.output
    status = session.wait_exit(30)
    return status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 \
        and session.output == typed + b"\n"
