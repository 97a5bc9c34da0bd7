#!/usr/bin/python3
"""Runs a program on a new pseudo-terminal as a shell runs a job, and plays a
script against the screen: the install test's hands and eyes.

    pty-session.py [--env NAME=VALUE]... [--output FILE] [--timeout S] \\
        STEP... -- PROGRAM ARGUMENT...

A session leader owns the pty as its controlling terminal and runs PROGRAM in
its own foreground process group; what PROGRAM writes to the terminal goes
through a terminal emulator (pyte), whose screen the steps read:

    wait:TEXT     wait until TEXT is on the screen (or in its scrollback)
    type:TEXT     type TEXT into the terminal, one character a write
                  (\\r, \\n, \\x1b and the like are Python escapes)
    exit:N        wait for PROGRAM to end, with exit status N

The environment is exactly PATH=/usr/bin:/bin, TERM=xterm-256color,
LC_ALL=C.UTF-8 and the --env values. --output sends PROGRAM's standard output
to FILE (else to the terminal). Each step waits at most --timeout seconds
(default 60). On a failed step it prints the screen and the reason, kills the
job and exits 1; else 0. With --screen FILE, the last screen is written there.
"""
import argparse
import fcntl
import os
import select
import signal
import struct
import sys
import termios
import time

import pyte

COLUMNS, ROWS = 100, 30


def parse():
    """The options and steps before `--`, the program after it."""
    if "--" not in sys.argv:
        sys.exit("pty-session: no program given after --")
    split = sys.argv.index("--")
    parser = argparse.ArgumentParser(prog="pty-session.py")
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("--output")
    parser.add_argument("--screen")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("steps", nargs="*")
    arguments = parser.parse_args(sys.argv[1:split])
    program = sys.argv[split + 1:]
    if not program:
        sys.exit("pty-session: no program given after --")
    return arguments, program


def start(program, environment, output):
    """Forks the session leader, which runs the program as its foreground job
    and exits with the job's status (128 + N for a signal N)."""
    master, slave = os.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    leader = os.fork()
    if leader == 0:
        try:
            os.close(master)
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            job = os.fork()
            if job == 0:
                os.setpgid(0, 0)
                for number in (signal.SIGTTOU, signal.SIGTTIN, signal.SIGTSTP, signal.SIGINT,
                               signal.SIGQUIT, signal.SIGPIPE):
                    signal.signal(number, signal.SIG_DFL)
                os.dup2(slave, 0)
                if output:
                    descriptor = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                    os.dup2(descriptor, 1)
                    os.close(descriptor)
                else:
                    os.dup2(slave, 1)
                os.dup2(slave, 2)
                if slave > 2:
                    os.close(slave)
                os.execvpe(program[0], program, environment)
            os.setpgid(job, job)
            signal.signal(signal.SIGTTOU, signal.SIG_IGN)
            os.tcsetpgrp(slave, job)
            _, status = os.waitpid(job, 0)
            if os.WIFSIGNALED(status):
                os._exit(128 + os.WTERMSIG(status))
            os._exit(os.WEXITSTATUS(status))
        except BaseException as error:  # the child must never return into the caller
            os.write(2, f"pty-session: {error}\n".encode())
            os._exit(127)
    os.close(slave)
    return master, leader


class Terminal:
    def __init__(self, master):
        self.master = master
        self.screen = pyte.HistoryScreen(COLUMNS, ROWS, history=1000)
        self.stream = pyte.ByteStream(self.screen)
        self.closed = False

    def pump(self, seconds):
        """Feeds what the program wrote within `seconds` to the emulator."""
        if self.closed:
            time.sleep(seconds)
            return
        ready, _, _ = select.select([self.master], [], [], seconds)
        if ready:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                data = b""
            if data:
                self.stream.feed(data)
            else:
                self.closed = True

    def text(self):
        history = ["".join(line[column].data for column in sorted(line))
                   for line in self.screen.history.top]
        return "\n".join(history + [line.rstrip() for line in self.screen.display])

    def type(self, text):
        for character in text:
            os.write(self.master, character.encode())
            self.pump(0.02)


def main():
    arguments, program = parse()
    environment = {"PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LC_ALL": "C.UTF-8"}
    for item in arguments.env:
        name, _, value = item.partition("=")
        environment[name] = value
    master, leader = start(program, environment, arguments.output)
    terminal = Terminal(master)
    status = None

    def fail(reason):
        print(f"pty-session: {reason}\n--- screen ---\n{terminal.text()}\n--------------",
              file=sys.stderr)
        if status is None:
            try:
                os.killpg(os.getpgid(leader), signal.SIGKILL)
            except OSError:
                pass
            try:
                os.kill(leader, signal.SIGKILL)
            except OSError:
                pass
            os.waitpid(leader, 0)
        sys.exit(1)

    for step in arguments.steps:
        kind, _, value = step.partition(":")
        deadline = time.monotonic() + arguments.timeout
        if kind == "wait":
            while value not in terminal.text():
                if time.monotonic() > deadline:
                    fail(f"'{value}' did not show within {arguments.timeout:g} s")
                terminal.pump(0.05)
        elif kind == "type":
            terminal.type(value.encode().decode("unicode_escape"))
        elif kind == "exit":
            while status is None:
                done, code = os.waitpid(leader, os.WNOHANG)
                if done:
                    status = os.WEXITSTATUS(code) if os.WIFEXITED(code) else 128
                    break
                if time.monotonic() > deadline:
                    fail(f"the program did not end within {arguments.timeout:g} s")
                terminal.pump(0.05)
            terminal.pump(0.05)
            if status != int(value):
                fail(f"the program ended with status {status}, not {value}")
        else:
            fail(f"unknown step '{step}'")
    if status is None:
        fail("the script ended before the program: end it with exit:N")
    if arguments.screen:
        with open(arguments.screen, "w") as file:
            file.write(terminal.text() + "\n")


if __name__ == "__main__":
    main()
