"""A tool under attack in a pseudo-terminal, run as a shell runs a job.

The script is the terminal (it holds the master and answers the device
attributes query as a terminal does) and the session leader; the tool runs in
its own process group, the terminal's foreground group, with standard output
and error on pipes. Private modes the tool turns on and off are tracked from
its output, so that what it leaves behind can be checked after it ends.
"""

import fcntl
import os
import pty
import re
import resource
import select
import signal
import struct
import termios
import time

RELEASE = os.path.join(os.path.dirname(__file__), "..", "..", ".build", "release")


def tool(name):
    return os.path.abspath(os.path.join(RELEASE, name))


MODE = re.compile(rb"\x1b\[\?(\d+(?:;\d+)*)([hl])|\x1b\[([<>=])(\d*)u")
DEVICE_ATTRIBUTES = re.compile(rb"\x1b\[0?c")


class Session:
    """One run of `argv` on a fresh pty."""

    def __init__(self, argv, env=None, cwd=None, core_dumps=False, stdin_pipe=False):
        self.master, self.slave = pty.openpty()
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.initial = termios.tcgetattr(self.slave)
        self.slave_path = os.ttyname(self.slave)
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        in_r, in_w = os.pipe() if stdin_pipe else (None, None)
        environment = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"}
        environment.update(env or {})
        self.pid = os.fork()
        if self.pid == 0:
            try:
                os.setsid()
                fcntl.ioctl(self.slave, termios.TIOCSCTTY, 0)
                for number in signal.valid_signals():
                    if number not in (signal.SIGKILL, signal.SIGSTOP):
                        try:
                            signal.signal(number, signal.SIG_DFL)
                        except (OSError, ValueError):
                            pass
                signal.pthread_sigmask(signal.SIG_SETMASK, [])
                if cwd:
                    os.chdir(cwd)
                if core_dumps:
                    hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
                    resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))
                os.dup2(in_r if stdin_pipe else self.slave, 0)
                os.dup2(out_w, 1)
                os.dup2(err_w, 2)
                os.closerange(3, 4096)
                os.execve(argv[0], argv, environment)
            finally:
                os._exit(127)
        os.close(out_w)
        os.close(err_w)
        if stdin_pipe:
            os.close(in_r)
            self.stdin = in_w
        self.out, self.err = out_r, err_r
        for fd in (self.master, out_r, err_r):
            os.set_blocking(fd, False)
        self.screen = b""
        self.output = b""
        self.error = b""
        self.modes = {}
        self.keyboard = []
        self.status = None
        self.answered = 0

    # -- reading ------------------------------------------------------------

    def pump(self, timeout=0.05):
        """Takes in what the tool wrote; answers device attribute queries."""
        fds = [self.master, self.out, self.err]
        ready, _, _ = select.select(fds, [], [], timeout)
        for fd in ready:
            try:
                data = os.read(fd, 65536)
            except (BlockingIOError, OSError):
                continue
            if fd == self.master:
                self.screen += data
                for match in MODE.finditer(data):
                    if match.group(1):
                        for number in match.group(1).split(b";"):
                            self.modes[int(number)] = match.group(2) == b"h"
                    elif match.group(3) == b">":
                        self.keyboard.append(int(match.group(4) or 0))
                    elif match.group(3) == b"<" and self.keyboard:
                        self.keyboard.pop()
                for _ in DEVICE_ATTRIBUTES.finditer(data):
                    os.write(self.master, b"\x1b[?62;22c")
                    self.answered += 1
            elif fd == self.out:
                self.output += data
            else:
                self.error += data

    def settle(self, seconds):
        """Takes in output for `seconds`, however much of it comes."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.pump(max(0, deadline - time.monotonic()))

    def wait_for(self, text, timeout=30):
        deadline = time.monotonic() + timeout
        while text not in self.screen:
            if time.monotonic() > deadline or self.poll_status() is not None:
                return False
            self.pump()
        return True

    def poll_status(self):
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG | os.WUNTRACED)
            if pid:
                if os.WIFSTOPPED(status):
                    return ("stopped", os.WSTOPSIG(status))
                self.status = status
        return self.status

    def wait_exit(self, timeout=30):
        deadline = time.monotonic() + timeout
        while self.poll_status() is None:
            if time.monotonic() > deadline:
                return None
            self.pump(0.02)
        # Drain what is left.
        for _ in range(20):
            self.pump(0.01)
        return self.status

    def wait_stopped(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG | os.WUNTRACED)
            if pid and os.WIFSTOPPED(status):
                return os.WSTOPSIG(status)
            if pid:
                self.status = status
                return None
            self.pump(0.02)
        return None

    # -- writing and state ----------------------------------------------------

    def type(self, data):
        """Writes all of `data` to the master (it is non-blocking, and a pty
        takes a few KiB at a time), taking in output meanwhile."""
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.master, view)
                view = view[written:]
            except BlockingIOError:
                pass
            if view:
                if self.poll_status() is not None:
                    return
                self.pump(0.01)
        self.pump(0)

    def attributes(self):
        return termios.tcgetattr(self.slave)

    def is_raw(self):
        return not (self.attributes()[3] & termios.ICANON)

    def restored(self):
        """The termios as before and no private mode the tool turned on left on."""
        left_on = [mode for mode, on in self.modes.items() if on and mode in (1004, 2004, 1049)]
        return self.attributes() == self.initial and not left_on and not self.keyboard

    def close(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.wait_exit(5)
        for fd in (self.master, self.slave, self.out, self.err):
            os.close(fd)
        if hasattr(self, "stdin"):
            try:
                os.close(self.stdin)
            except OSError:
                pass


def describe(status):
    if status is None:
        return "still running"
    if os.WIFSIGNALED(status):
        core = " (core dumped)" if os.WCOREDUMP(status) else ""
        return "signal %d%s" % (os.WTERMSIG(status), core)
    return "exit %d" % os.WEXITSTATUS(status)


BACKTRACE = re.compile(rb"Backtrac|Crash|crashed|Registers:|Thread \d|0x[0-9a-f]{8,}|Fatal error")
