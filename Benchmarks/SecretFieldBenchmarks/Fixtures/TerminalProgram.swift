import Glibc

/// A password prompt program the terminal benchmarks start on a pty: ours,
/// found beside the benchmark binary, or a baseline installed on the system.
struct TerminalProgram {
  /// How the program is asked for a password.
  enum Kind {
    /// An askpass: the prompt text as an argument, the terminal on standard
    /// input, the password to standard output.
    case askpass
    /// An Assuan pinentry on pipes, told the terminal by `OPTION ttyname`.
    case pinentry
  }

  /// The prompt text every program is given, searched for on the master.
  static let promptText = "Startup:"
  /// How long any wait may take before the benchmark gives up: far above any
  /// figure, so only a program that never draws reaches it.
  static let patience: UInt64 = 10_000_000_000

  /// What the table calls it, as `systemd-ask-password`.
  let label: String
  let path: String
  let arguments: [String]
  let kind: Kind
  /// The bytes one masked character may show as: `•` for ours on a UTF-8
  /// terminal (`*` where they judge it is not one), `*` for the baselines.
  let maskGlyphs: [[UInt8]]

  /// Whether the program exists and is executable.
  var isInstalled: Bool { access(path, X_OK) == 0 }

  /// What our programs mask with: `•` on a UTF-8 terminal, `*` elsewhere.
  private static let ours = [Array("•".utf8), Array("*".utf8)]

  /// `secretfield-askpass TEXT`, beside the benchmark binary.
  static var secretFieldAskpass: TerminalProgram {
    TerminalProgram(
      label: "secretfield-askpass", path: besideThisBinary("secretfield-askpass"),
      arguments: [promptText], kind: .askpass, maskGlyphs: ours)
  }

  /// `secretfield-askpass TEXT` as users install it: the packaged build
  /// (`Packaging/build-flags.bash`: the Swift runtime linked in, `-z now`),
  /// which `Scripts/package` leaves in `.build/static/release/`; or in the
  /// directory `SECRETFIELD_STATIC_TOOLS` names.
  static var staticAskpass: TerminalProgram {
    let directory =
      getenv("SECRETFIELD_STATIC_TOOLS").map { String(cString: $0) + "/" }
      ?? benchmarkDirectory + "../../static/release/"
    return TerminalProgram(
      label: "secretfield-askpass (static)", path: directory + "secretfield-askpass",
      arguments: [promptText], kind: .askpass, maskGlyphs: ours)
  }

  /// `secretfield prompt TEXT`, beside the benchmark binary: the same prompt
  /// as the askpass, behind the general command line tool.
  static var secretFieldPrompt: TerminalProgram {
    TerminalProgram(
      label: "secretfield prompt", path: besideThisBinary("secretfield"),
      arguments: ["prompt", promptText], kind: .askpass, maskGlyphs: ours)
  }

  /// `systemd-ask-password TEXT`, which asks on the terminal when standard
  /// input is one and echoes `*` per character.
  static let systemdAskPassword = TerminalProgram(
    label: "systemd-ask-password", path: "/usr/bin/systemd-ask-password",
    arguments: [promptText], kind: .askpass, maskGlyphs: [Array("*".utf8)])

  /// `pinentry-secretfield`, beside the benchmark binary.
  static var secretFieldPinentry: TerminalProgram {
    TerminalProgram(
      label: "pinentry-secretfield", path: besideThisBinary("pinentry-secretfield"),
      arguments: [], kind: .pinentry, maskGlyphs: ours)
  }

  /// GnuPG's `pinentry-curses`, which echoes `*` per character.
  static let pinentryCurses = TerminalProgram(
    label: "pinentry-curses", path: "/usr/bin/pinentry-curses", arguments: [], kind: .pinentry,
    maskGlyphs: [Array("*".utf8)])

  /// A new pty with the program wired to it, not started yet.
  func prepare() throws(TerminalBenchmarkError) -> PseudoTerminalProcess {
    try PseudoTerminalProcess(
      executable: path, arguments: arguments, wiring: kind == .askpass ? .terminal : .pipes)
  }

  /// For a pinentry: starts it and completes the exchange up to, not
  /// including, `GETPIN`: the greeting, then the terminal options and the
  /// prompt text, each answered by `OK`. Untimed by the startup figure.
  func startPinentry(_ process: PseudoTerminalProcess) throws(TerminalBenchmarkError) {
    precondition(kind == .pinentry, "startPinentry called for an askpass")
    try process.launch()
    let deadline = MonotonicClock.now() + Self.patience
    try expectOK(from: process, after: "start", deadline: deadline)
    for command in [
      "OPTION ttyname=\(process.slavePath)", "OPTION ttytype=xterm-256color",
      "OPTION lc-ctype=C.UTF-8", "SETPROMPT \(Self.promptText)",
    ] {
      process.send(command)
      try expectOK(from: process, after: command, deadline: deadline)
    }
  }

  /// The timed part of a startup: an askpass is spawned, a pinentry is sent
  /// `GETPIN`; either way it ends when the prompt text is on the master.
  /// Returns false when the prompt never came.
  func drawPrompt(_ process: PseudoTerminalProcess) -> Bool {
    switch kind {
    case .askpass:
      do { try process.launch() } catch { return false }
    case .pinentry:
      process.send("GETPIN")
    }
    return process.waitForTerminalOutput(
      Array(Self.promptText.utf8), deadline: MonotonicClock.now() + Self.patience)
  }

  /// Starts the program up to a drawn prompt that has stopped drawing, ready
  /// for keystrokes. Untimed.
  func startToPrompt() throws(TerminalBenchmarkError) -> PseudoTerminalProcess {
    let process = try prepare()
    if kind == .pinentry { try startPinentry(process) }
    guard drawPrompt(process) else {
      throw TerminalBenchmarkError(message: "\(label) did not draw \"\(Self.promptText)\"")
    }
    process.waitForQuiet(deadline: MonotonicClock.now() + Self.patience)
    return process
  }

  private func expectOK(
    from process: PseudoTerminalProcess, after step: String, deadline: UInt64
  ) throws(TerminalBenchmarkError) {
    while true {
      guard let line = process.receiveLine(deadline: deadline) else {
        throw TerminalBenchmarkError(message: "\(label) did not answer after \(step)")
      }
      if line.hasPrefix("OK") { return }
      if line.hasPrefix("ERR") {
        throw TerminalBenchmarkError(message: "\(label) answered \(step) with \(line)")
      }
      // Status (S) and comment (#) lines come before the OK.
    }
  }

  /// The path of `name` in the directory of the running benchmark binary,
  /// where SwiftPM puts every product of the same build, or in the directory
  /// `SECRETFIELD_BENCHMARK_TOOLS` names (`/usr/bin` for the installed
  /// package's tools).
  private static func besideThisBinary(_ name: String) -> String {
    if let directory = getenv("SECRETFIELD_BENCHMARK_TOOLS").map({ String(cString: $0) }),
      !directory.isEmpty
    {
      return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
    return benchmarkDirectory + name
  }

  /// The directory of the running benchmark binary, with a trailing slash
  /// (empty when it cannot be read).
  private static var benchmarkDirectory: String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let path =
      count > 0
      ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      : CommandLine.arguments[0]
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[...slash])
  }
}

/// A benchmark compared with a program that may be missing: the programs that
/// take part, or nil (after saying why on standard error) when the subject is
/// not built.
struct TerminalComparison {
  let name: String
  let subject: TerminalProgram
  /// Nil when the baseline is not installed: the figure is then reported alone.
  let baseline: TerminalProgram?

  /// The comparison of `subject` with `baseline`, nil when the subject is
  /// missing; a missing baseline is dropped with a line on standard error.
  static func available(
    _ name: String, subject: TerminalProgram, baseline: TerminalProgram
  ) -> TerminalComparison? {
    guard subject.isInstalled else {
      printNotice("skipped \(name): \(subject.path) is not built")
      return nil
    }
    if !baseline.isInstalled {
      printNotice("\(name): no baseline, \(baseline.path) is not installed")
    }
    return TerminalComparison(
      name: name, subject: subject, baseline: baseline.isInstalled ? baseline : nil)
  }

  /// Subject first, then the baseline if there is one.
  var programs: [TerminalProgram] { [subject] + (baseline.map { [$0] } ?? []) }

  /// The result from one measurement per program, in the order of ``programs``.
  func result(_ measurements: [Sampler.Measurement], note: String? = nil) -> BenchmarkResult {
    .timed(
      name, measurements[0], baseline: baseline.map { ($0.label, measurements[1]) }, note: note)
  }
}

/// Writes one line to standard error, beside the runner's progress lines.
func printNotice(_ message: String) {
  var line = message + "\n"
  line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}
