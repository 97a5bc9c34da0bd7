// The terminal helper run by `TerminalSession`, kept here so that the test bundle
// needs nothing beside it but Debian's python3 and python3-pyte.

/// The helper program: terminal emulator and session leader in one Python process.
let terminalHelperScript = #"""
  # The terminal and the shell for a test: owns a pseudo-terminal's master side,
  # is the session leader that owns the slave as its controlling terminal, runs
  # the program under test in its own foreground process group (as a shell runs
  # a job, so that SIGTSTP stops it), and feeds everything the program writes to
  # a terminal emulator (pyte) whose screen the test reads.
  #
  # Protocol: one JSON object per line on stdin, one JSON reply per line on stdout.
  import errno, fcntl, json, os, re, resource, select, signal, struct, sys, termios, time
  import pyte

  KITTY = re.compile(rb"\x1b\[([<>=?])([0-9;:]*)u")
  PARTIAL = re.compile(rb"\x1b(\[[0-9;:<>=?]*)?$")


  def reset_library_signals():
      """Puts the signals glibc keeps for itself (32 up to SIGRTMIN) back to
      their default action with the raw rt_sigaction system call: glibc's
      sigaction refuses them, and a test runner may have them ignored, which
      exec would pass on."""
      import ctypes, platform
      number = {"x86_64": 13, "aarch64": 134}.get(platform.machine())
      if number is None:
          return
      libc = ctypes.CDLL(None, use_errno=True)
      default = ctypes.create_string_buffer(32)  # handler, flags, restorer, mask: all 0
      for signum in range(32, signal.SIGRTMIN):
          libc.syscall(ctypes.c_long(number), ctypes.c_long(signum), default, None, ctypes.c_long(8))


  class Screen(pyte.HistoryScreen):
      def __init__(self, terminal, columns, rows):
          super().__init__(columns, rows, history=2000, ratio=0.5)
          self.terminal = terminal

      def report_device_attributes(self, mode=0, **kwargs):
          if self.terminal.answers_device_attributes and mode == 0 and not kwargs.get("private"):
              self.terminal.answer(b"\x1b[?62;22c")

      def write_process_input(self, data):
          self.terminal.answer(data.encode())


  class Terminal:
      def __init__(self, config):
          self.columns = config.get("columns", 80)
          self.rows = config.get("rows", 24)
          self.answers_device_attributes = config.get("answers_device_attributes", True)
          self.keyboard_protocol = config.get("keyboard_protocol", False)
          self.keyboard_flags = [0]
          self.keyboard_log = []
          self.master, self.slave = os.openpty()
          self.set_size(self.columns, self.rows)
          self.path = os.ttyname(self.slave)
          os.setsid()
          fcntl.ioctl(self.slave, termios.TIOCSCTTY, 0)
          self.screen = Screen(self, self.columns, self.rows)
          self.stream = pyte.ByteStream(self.screen)
          self.pending = b""
          self.version = 0
          self.raw_output = 0
          self.transcript = b""
          self.pid = None
          self.statuses = []
          self.captured = {}
          self.capture_fds = {}

      def set_size(self, columns, rows):
          fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

      def answer(self, data):
          os.write(self.master, data)

      # -- the program ------------------------------------------------------

      def spawn(self, command):
          argv, env = command["argv"], command["env"]
          streams = {0: command.get("stdin", "terminal"), 1: command.get("stdout", "terminal"),
                     2: command.get("stderr", "terminal")}
          controlling = command.get("controlling_terminal", True)
          pipes = {}
          for fd, kind in streams.items():
              if kind == "pipe":
                  pipes[fd] = os.pipe()
          input_data = command.get("stdin_data")
          if streams[0] == "data":
              pipes[0] = os.pipe()
          pid = os.fork()
          if pid == 0:
              try:
                  # As a shell starting a job: every signal at its default action
                  # (this helper ignores some; an ignored signal stays ignored
                  # across exec), none blocked.
                  for number in signal.valid_signals():
                      if number not in (signal.SIGKILL, signal.SIGSTOP):
                          try:
                              signal.signal(number, signal.SIG_DFL)
                          except (OSError, ValueError):
                              pass
                  signal.pthread_sigmask(signal.SIG_SETMASK, [])
                  reset_library_signals()
                  if command.get("cwd"):
                      os.chdir(command["cwd"])
                  if command.get("core_dumps"):
                      hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
                      resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))
                  if controlling:
                      os.setpgid(0, 0)
                      signal.signal(signal.SIGTTOU, signal.SIG_IGN)
                      os.tcsetpgrp(self.slave, os.getpid())
                      signal.signal(signal.SIGTTOU, signal.SIG_DFL)
                  else:
                      os.setsid()
                  null = os.open("/dev/null", os.O_RDWR)
                  for fd, kind in streams.items():
                      if kind == "terminal" and controlling:
                          os.dup2(self.slave, fd)
                      elif kind == "pipe":
                          os.dup2(pipes[fd][1] if fd else pipes[fd][0], fd)
                      elif kind == "data":
                          os.dup2(pipes[0][0], 0)
                      else:
                          os.dup2(null, fd)
                  os.closerange(3, 4096)
                  os.execve(argv[0], argv, env)
              except BaseException as error:
                  os.write(2, ("terminal helper: exec %r failed: %s\n" % (argv, error)).encode())
              os._exit(127)
          try:
              os.setpgid(pid, pid) if controlling else None
          except OSError:
              pass
          if controlling:
              try:
                  os.tcsetpgrp(self.slave, pid)
              except OSError:
                  pass
          for fd, (read_end, write_end) in pipes.items():
              if fd == 0:
                  os.close(read_end)
                  if input_data is not None:
                      os.write(write_end, bytes.fromhex(input_data))
                  os.close(write_end)
              else:
                  os.close(write_end)
                  os.set_blocking(read_end, False)
                  self.capture_fds[read_end] = fd
                  self.captured[fd] = b""
          self.pid = pid
          return {"pid": pid}

      def reap(self):
          while self.pid is not None:
              try:
                  pid, status = os.waitpid(self.pid, os.WNOHANG | os.WUNTRACED | os.WCONTINUED)
              except ChildProcessError:
                  return
              if pid == 0:
                  return
              if os.WIFEXITED(status):
                  self.statuses.append({"kind": "exited", "value": os.WEXITSTATUS(status)})
                  self.pid = None
              elif os.WIFSIGNALED(status):
                  self.statuses.append({"kind": "signaled", "value": os.WTERMSIG(status),
                                        "core_dumped": os.WCOREDUMP(status)})
                  self.pid = None
              elif os.WIFSTOPPED(status):
                  self.statuses.append({"kind": "stopped", "value": os.WSTOPSIG(status)})
              elif os.WIFCONTINUED(status):
                  self.statuses.append({"kind": "continued", "value": 0})

      # -- output -------------------------------------------------------------

      def keyboard(self, marker, parameters):
          fields = parameters.split(b";")
          number = int(fields[0]) if fields and fields[0] else None
          self.keyboard_log.append((marker + parameters).decode())
          if marker == b">":
              self.keyboard_flags.append(number or 0)
          elif marker == b"<":
              for _ in range(number or 1):
                  if len(self.keyboard_flags) > 1:
                      self.keyboard_flags.pop()
          elif marker == b"=":
              self.keyboard_flags[-1] = number or 0
          elif marker == b"?" and self.keyboard_protocol:
              self.answer(b"\x1b[?%du" % self.keyboard_flags[-1])

      def feed(self, data):
          data = self.pending + data
          self.pending = b""
          partial = PARTIAL.search(data[-64:])
          if partial:
              cut = len(data) - (len(data[-64:]) - partial.start())
              data, self.pending = data[:cut], data[cut:]
          out = b""
          last = 0
          for match in KITTY.finditer(data):
              out += data[last:match.start()]
              self.keyboard(match.group(1), match.group(2))
              last = match.end()
          out += data[last:]
          if out:
              self.stream.feed(out)
          self.version += 1

      def pump(self, timeout):
          """Reads whatever is ready (waiting at most `timeout` seconds), feeds the
          emulator, collects captured output and status changes."""
          fds = [self.master] + list(self.capture_fds)
          try:
              ready, _, _ = select.select(fds, [], [], timeout)
          except InterruptedError:
              ready = []
          for fd in ready:
              try:
                  data = os.read(fd, 65536)
              except BlockingIOError:
                  continue
              except OSError as error:
                  if error.errno == errno.EIO:
                      data = b""
                  else:
                      raise
              if fd == self.master:
                  if data:
                      self.raw_output += len(data)
                      self.transcript += data
                      self.feed(data)
              elif data:
                  self.captured[self.capture_fds[fd]] += data
              else:
                  del self.capture_fds[fd]
          self.reap()

      def snapshot(self):
          def render(line):
              return "".join(line[x].data for x in range(self.columns)).rstrip()
          modes = self.screen.mode
          return {
              "version": self.version,
              "lines": [line.rstrip() for line in self.screen.display],
              "history": [render(line) for line in self.screen.history.top],
              "cursor": [self.screen.cursor.y, self.screen.cursor.x],
              "bracketed_paste": (2004 << 5) in modes,
              "focus_reporting": (1004 << 5) in modes,
              "keyboard_flags": self.keyboard_flags[1:],
              "keyboard_log": self.keyboard_log,
              "transcript": self.transcript.decode("utf-8", "replace"),
          }

      # -- commands -----------------------------------------------------------

      def run(self, command):
          name = command["command"]
          deadline = time.monotonic() + command.get("timeout", 30)
          if name == "spawn":
              return self.spawn(command)
          if name == "type":
              os.write(self.master, bytes.fromhex(command["bytes"]))
              return {}
          if name == "type_until_exit":
              # Keys that keep coming: the bytes, written again and again,
              # each write as the program's output is taken in, until it ends.
              data = bytes.fromhex(command["bytes"])
              writes = 0
              while self.pid is not None and time.monotonic() < deadline:
                  _, writable, _ = select.select([], [self.master], [], 0)
                  if writable:
                      os.write(self.master, data)
                      writes += 1
                  self.pump(0)
              self.pump(0)
              return {"writes": writes}
          if name == "screen":
              self.pump(0)
              return self.snapshot()
          if name == "wait_screen":
              since = command["since"]
              while self.version <= since and time.monotonic() < deadline:
                  self.pump(min(0.05, max(0, deadline - time.monotonic())))
              return self.snapshot()
          if name == "wait_status":
              while not self.statuses and time.monotonic() < deadline:
                  self.pump(0.01)
              self.pump(0)
              return {"status": self.statuses.pop(0) if self.statuses else None}
          if name == "captured":
              stream = command.get("stream", 1)
              while command.get("until_closed") and self.capture_fds and time.monotonic() < deadline:
                  self.pump(0.02)
              self.pump(0)
              return {"bytes": self.captured.get(stream, b"").hex()}
          if name == "resize":
              self.columns, self.rows = command["columns"], command["rows"]
              self.screen.resize(self.rows, self.columns)
              self.set_size(self.columns, self.rows)
              return {}
          if name == "foreground":
              # As a shell's bg and fg: the terminal to the shell's own group,
              # or back to the program's.
              signal.signal(signal.SIGTTOU, signal.SIG_IGN)
              group = os.getpgrp() if command["to"] == "shell" else self.pid
              os.tcsetpgrp(self.slave, group)
              return {}
          if name == "quit":
              return {"quit": True}
          raise ValueError("unknown command %r" % name)


  def main():
      signal.signal(signal.SIGTTOU, signal.SIG_IGN)
      signal.signal(signal.SIGHUP, signal.SIG_IGN)
      config = json.loads(sys.stdin.readline())
      terminal = Terminal(config)
      out = sys.stdout
      out.write(json.dumps({"terminal": terminal.path, "helper": os.getpid()}) + "\n")
      out.flush()
      for line in sys.stdin:
          try:
              reply = terminal.run(json.loads(line))
          except Exception as error:
              reply = {"error": "%s: %s" % (type(error).__name__, error)}
          out.write(json.dumps(reply) + "\n")
          out.flush()
          if reply.get("quit"):
              break
      if terminal.pid is not None:
          try:
              os.killpg(terminal.pid, signal.SIGKILL)
          except OSError:
              pass


  main()
  """#
