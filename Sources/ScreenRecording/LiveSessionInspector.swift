import SystemCalls
/// The running system as ``RecordingDetector`` sees it: `tcgetsid` and `/proc`
/// for sessions and processes, `tmux` itself for panes.
///
/// Reads only what any process of the same user may read, and keeps of
/// environments only the variables the detector consults
/// (``RecordingDetector/consultedVariables``): another process's environment
/// may hold its tokens, and they have no business in this one. Another user's
/// `/proc/PID/environ`, or that of a process that made itself non-dumpable
/// (`ProcessHardening.apply()`), cannot be read: the answer is nil, and the
/// detector lists it as unchecked.
package struct LiveSessionInspector: SessionInspector {
  /// The tmux program, found on `PATH` unless it is a path.
  package var tmuxProgram: String
  /// How long to wait for tmux to answer before killing it and treating the
  /// pane as unknown. It answers in a few milliseconds; the limit only bounds a
  /// hung server.
  package var tmuxTimeout: Duration

  /// An inspector of this system.
  package init(tmuxProgram: String = "tmux", tmuxTimeout: Duration = .seconds(1)) {
    self.tmuxProgram = tmuxProgram
    self.tmuxTimeout = tmuxTimeout
  }

  /// `getpid()`.
  package var currentProcessID: Int32 { System.currentProcessID }

  /// The consulted variables of this process's environment now (`getenv`).
  ///
  /// - Complexity: one `getenv` per consulted variable.
  package func currentEnvironment() -> [String: String] {
    var environment: [String: String] = [:]
    for name in RecordingDetector.consultedVariables {
      environment[name] = System.environmentValue(name)
    }
    return environment
  }

  /// The session leader from `tcgetsid` when the terminal is this process's
  /// controlling terminal. Otherwise (a pinentry opens the terminal it is told
  /// about, and has none of its own) the process in `/proc` that leads a
  /// session (its PID is its session ID) and has this terminal as its
  /// controlling terminal (`tty_nr`, compared with the device number from
  /// `TIOCGDEV`).
  ///
  /// - Complexity: one system call; the fallback reads `/proc/PID/stat` of
  ///   every process, about 10 µs each (0.8 ms for 80 processes).
  package func sessionLeader(ofTerminal descriptor: Int32) -> Int32? {
    if case .success(let session) = System.sessionID(ofTerminal: descriptor), session > 0 {
      return session
    }
    guard let device = System.terminalDeviceNumber(descriptor), device != 0,
      case .success(let names) = System.directoryEntries("/proc")
    else { return nil }
    for name in names {
      guard let processID = Int32(name), let stat = Self.stat(of: processID) else { continue }
      if stat.sessionID == processID && stat.terminal == device { return processID }
    }
    return nil
  }

  /// The consulted variables of `/proc/PID/environ`: the environment the
  /// process was started with (`execve`), not changes it made to it since.
  ///
  /// - Complexity: one file read of the environment's size (at most 1 MiB read).
  package func environment(ofProcess processID: Int32) -> [String: String]? {
    guard
      case .success(let bytes) = System.readFile(
        "/proc/\(processID)/environ", limit: 1 << 20, truncating: true)
    else {
      return nil
    }
    let consulted = RecordingDetector.consultedVariables
    var environment: [String: String] = [:]
    for pair in bytes.split(separator: 0) {
      guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let name = String(decoding: pair[..<equals], as: UTF8.self)
      if consulted.contains(name) && environment[name] == nil {
        environment[name] = String(decoding: pair[(equals + 1)...], as: UTF8.self)
      }
    }
    return environment
  }

  /// `/proc/PID/stat` for the parent and name, `/proc/PID/cmdline` for the
  /// command line (empty when that cannot be read).
  ///
  /// - Complexity: two small file reads.
  package func entry(ofProcess processID: Int32) -> ProcessEntry? {
    guard let stat = Self.stat(of: processID) else { return nil }
    var arguments: [String] = []
    if case .success(let bytes) = System.readFile(
      "/proc/\(processID)/cmdline", limit: 64 * 1024, truncating: true)
    {
      arguments = bytes.split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
      if arguments.last == "" { arguments.removeLast() }
    }
    return ProcessEntry(parentID: stat.parentID, name: stat.name, arguments: arguments)
  }

  /// Runs `tmux [-S socket] display-message -p -t PANE '#{pane_id} #{pane_pipe}
  /// #{pane_tty}' ; list-clients -t PANE -F '#{client_pid}'` (`posix_spawnp`,
  /// no shell) and reads its answer. The pane ID is asked back because tmux
  /// 3.3 answers `display-message` for a pane that does not exist with empty
  /// fields and status 0.
  ///
  /// - Complexity: one process start; a few milliseconds, at most
  ///   ``tmuxTimeout``.
  package func tmuxPane(_ pane: TmuxPaneReference, terminal descriptor: Int32) -> TmuxPaneAnswer {
    var arguments = [tmuxProgram]
    if let socket = pane.socketPath { arguments += ["-S", socket] }
    arguments += [
      "display-message", "-p", "-t", pane.paneID, "#{pane_id} #{pane_pipe} #{pane_tty}", ";",
      "list-clients", "-t", pane.paneID, "-F", "#{client_pid}",
    ]
    let (seconds, attoseconds) = tmuxTimeout.components
    let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    let output: [UInt8]
    let status: Int32
    switch System.runHelper(arguments, timeoutMilliseconds: milliseconds) {
    case .notStarted(let errno) where errno == .noSuchFile:
      return .unavailable(reason: "\(tmuxProgram) is not installed")
    case .notStarted(let errno):
      return .unavailable(reason: "\(tmuxProgram) could not be started (\(errno.description))")
    case .timedOut:
      return .unavailable(reason: "\(tmuxProgram) did not answer within \(milliseconds) ms")
    case .signaled(let signal):
      return .unavailable(reason: "\(tmuxProgram) was ended by signal \(signal)")
    case .exited(let exitStatus, let bytes):
      output = bytes
      status = exitStatus
    }
    let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
    let fields =
      lines.first?.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false) ?? []
    if fields.count == 3 && fields[0] != pane.paneID {
      return .unavailable(reason: "\(tmuxProgram) does not know pane \(pane.paneID)")
    }
    guard status == 0 else {
      return .unavailable(reason: "\(tmuxProgram) exited with status \(status)")
    }
    guard fields.count == 3 else {
      return .unavailable(reason: "\(tmuxProgram) gave no answer for pane \(pane.paneID)")
    }
    let terminal = System.terminalDeviceNumber(descriptor)
    let paneTerminal = System.deviceNumber(ofPath: String(fields[2]))
    return .pane(
      TmuxPaneState(
        isPiped: fields[1] == "1",
        isThisTerminal: terminal != nil && terminal == paneTerminal,
        clientProcessIDs: lines.dropFirst().compactMap { Int32($0) }))
  }

  /// The fields of `/proc/PID/stat` the detector uses.
  struct Stat {
    var name: String
    var parentID: Int32
    var sessionID: Int32
    /// `tty_nr`: the controlling terminal's device number, 0 for none.
    var terminal: UInt32
  }

  /// Reads `/proc/PID/stat`: `pid (comm) state ppid pgrp session tty_nr ...`.
  /// The name may hold spaces and parentheses, so the fields after it start
  /// after the last `)`.
  static func stat(of processID: Int32) -> Stat? {
    guard
      case .success(let bytes) = System.readFile(
        "/proc/\(processID)/stat", limit: 4096, truncating: true)
    else { return nil }
    return parseStat(bytes)
  }

  static func parseStat(_ bytes: [UInt8]) -> Stat? {
    guard let open = bytes.firstIndex(of: UInt8(ascii: "(")),
      let close = bytes.lastIndex(of: UInt8(ascii: ")")), open < close
    else { return nil }
    let name = String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
    // Only state, ppid, pgrp, session and tty_nr, of about fifty fields.
    let fields = bytes[(close + 1)...].split(
      separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
    guard fields.count >= 5, let parent = Int32(decimal: fields[1]),
      let session = Int32(decimal: fields[3]), let terminal = Int32(decimal: fields[4])
    else { return nil }
    return Stat(
      name: name, parentID: parent, sessionID: session, terminal: UInt32(bitPattern: terminal))
  }
}

extension Int32 {
  /// A decimal number from ASCII bytes, as `/proc` writes them; nil when they
  /// are not one.
  fileprivate init?(decimal bytes: ArraySlice<UInt8>) {
    guard !bytes.isEmpty else { return nil }
    var digits = bytes[...]
    let negative = digits.first == UInt8(ascii: "-")
    if negative { digits = digits.dropFirst() }
    var value: Int64 = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"), value < 1 << 33 else {
        return nil
      }
      value = value * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    guard let result = Int32(exactly: negative ? -value : value) else { return nil }
    self = result
  }
}
