import Glibc
import ScreenRecording
import SecretField
@_spi(Testing) import SecretFieldTerminal
import SecureMemory

/// A tiny program for the pty harness's own tests: enters raw mode with
/// `TerminalDevice`, names each key it decodes, handles signals through
/// `SignalRelay`, and restores the terminal on the way out. With
/// `--no-restore` it restores nothing on any path, so each test has a control
/// the harness must catch.
///
/// With `--detect-recording` it only runs `RecordingDetector` on the
/// controlling terminal (or on `--terminal PATH`), prints the result to
/// standard output and exits 0.
///
/// With `--prompt` it runs a `PasswordPrompt` whose terminal replies may take
/// `--reply-timeout S` seconds, and exits 0 when the password is submitted, 1
/// otherwise.
///
/// Usage: pty-probe [--no-restore] [--keyboard-flags N]
///        pty-probe --detect-recording [--terminal PATH]
///        pty-probe --prompt [--reply-timeout S]
///        pty-probe --line-without-echo
///        pty-probe --form-new-password
@main
struct PTYProbe {
  static func main() {
    let arguments = CommandLine.arguments.dropFirst()
    if arguments.contains("--detect-recording") {
      let path = arguments.firstIndex(of: "--terminal")
        .flatMap { arguments.index(after: $0) < arguments.endIndex ? arguments[$0 + 1] : nil }
      detectRecording(terminalPath: path ?? TerminalDevice.controllingTerminalPath)
    }
    if arguments.contains("--line-without-echo") { runLineWithoutEcho() }
    if arguments.contains("--form-new-password") { runNewPasswordForm() }
    if arguments.contains("--prompt") {
      let seconds = arguments.firstIndex(of: "--reply-timeout")
        .flatMap { arguments.index(after: $0) < arguments.endIndex ? Int(arguments[$0 + 1]) : nil }
      runPrompt(replyTimeout: .seconds(seconds ?? 1))
    }
    let restores = !arguments.contains("--no-restore")
    let keyboardFlags = arguments.firstIndex(of: "--keyboard-flags")
      .flatMap { arguments.index(after: $0) < arguments.endIndex ? Int(arguments[$0 + 1]) : nil }

    var terminal: TerminalDevice
    do {
      terminal = try TerminalDevice()
    } catch {
      printError("pty-probe: \(error)\n")
      exit(3)
    }
    do {
      let relay = try SignalRelay()
      try terminal.enterRawMode(features: .prompt)
      if let keyboardFlags {
        try terminal.pushKeyboardFlags(KeyboardFlags(rawValue: keyboardFlags))
      }
      var decoder = try KeyDecoder()
      try terminal.write("ready\r\n")
      let status = try probe(
        terminal: &terminal, relay: relay, decoder: &decoder, restores: restores)
      if restores { terminal.restoreModes() } else { abandoned = consume terminal }
      exit(status)
    } catch {
      if restores { terminal.restoreModes() }
      printError("pty-probe: \(error)\n")
      exit(2)
    }
  }

  /// Names keys and signals until a submit (returns 0), a cancel (1), the end
  /// of input (4) or a fatal signal, which ends the process.
  ///
  /// The terminal, relay and decoder are the caller's: a function that owns a
  /// noncopyable value alive at a call that never returns draws a warning that
  /// its deinit will never be executed.
  static func probe(
    terminal: inout TerminalDevice, relay: borrowing SignalRelay, decoder: inout KeyDecoder,
    restores: Bool
  ) throws -> Int32 {
    var deadline: ContinuousClock.Instant?
    while true {
      let readiness = try terminal.waitForInput(or: relay, until: deadline)
      if readiness.contains(.signal) {
        for signal in relay.pendingSignals() {
          try terminal.write("signal \(signal)\r\n")
          guard restores else {
            switch signal.response {
            case .die: relay.dieBy(signal)
            case .stop: relay.stop(by: signal)
            case .resume: try terminal.write("resumed\r\n")
            case .resize: break
            }
            continue
          }
          switch try relay.respond(
            to: signal, terminal: &terminal, wipingFirst: { decoder.reset() })
          {
          case .redraw: try terminal.write("resumed\r\n")
          case .resize:
            let size = terminal.size.map { "\($0.columns)x\($0.rows)" } ?? "unknown"
            try terminal.write("size \(size)\r\n")
          case .waitForForeground: try terminal.write("background\r\n")
          }
        }
      }
      if readiness.contains(.input) {
        if try terminal.read(into: &decoder) == .endOfFile { return 4 }
      }
      deadline = nil
      decoding: while true {
        switch try decoder.next(at: .now) {
        case .needsInput: break decoding
        case .needsInputBefore(let instant):
          deadline = instant
          break decoding
        case .event(let event):
          switch event {
          case .text:
            try terminal.write("text ")
            decoder.withPayload { bytes in
              _ = write(descriptor(terminal), bytes.baseAddress, bytes.count)
            }
            try terminal.write("\r\n")
          case .submit:
            try terminal.write("submitted\r\n")
            return 0
          case .cancel, .escape:
            try terminal.write("cancelled\r\n")
            return 1
          default:
            try terminal.write("key \(event)\r\n")
          }
        }
      }
    }
  }

  /// Prints what `RecordingDetector` finds for the terminal at `terminalPath`,
  /// one fact a line: `captured` or `not detected`, then `reason:`,
  /// `evidence:`, `unchecked:` and `leader:` lines.
  static func detectRecording(terminalPath: String) -> Never {
    let terminal: TerminalDevice
    do {
      terminal = try TerminalDevice(path: terminalPath)
    } catch {
      printError("pty-probe: \(error)\n")
      exit(3)
    }
    let detection = terminal.detectRecording()
    var lines = [detection.isCaptured ? "captured" : "not detected"]
    if let reason = detection.reason { lines.append("reason: \(reason)") }
    lines += detection.evidence.map { "evidence: \($0)" }
    lines += detection.uncheckedSources.map { "unchecked: \($0)" }
    lines.append("leader: \(detection.sessionLeaderID.map(String.init) ?? "none")")
    var text = lines.joined(separator: "\n") + "\n"
    text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
    exit(0)
  }

  /// Runs a password prompt that waits up to `replyTimeout` for the terminal's
  /// replies; exits 0 when the password is submitted, 1 otherwise.
  /// A `PromptConfiguration.lineWithoutEcho` prompt: writes the line to
  /// standard output from secure memory and exits 0, or exits 1.
  static func runLineWithoutEcho() -> Never {
    do {
      let line = try PasswordPrompt(.lineWithoutEcho(prompt: "PIN:")).run().answer()
      try line.write(to: 1)
      exit(0)
    } catch {
      exit(1)
    }
  }

  /// A `TerminalForm` of a user name (`ada`) and a new password judged by
  /// the default rules with the user's name: writes the password to standard
  /// output from secure memory and exits 0, or exits 1.
  static func runNewPasswordForm() -> Never {
    let form = TerminalForm(fields: [
      FormField(name: "user", label: "User:", kind: .plain(initialText: "adalovelace")),
      FormField(
        name: "password", label: "New password:", kind: .secret,
        strength: StrengthRules(userName: "adalovelace")),
    ])
    do {
      let answers = try form.run().answer()
      let written = answers.secrets.withSecret(for: "password") { bytes in
        write(1, bytes.baseAddress, bytes.count) == bytes.count
      }
      exit(written == true ? 0 : 1)
    } catch {
      exit(1)
    }
  }

  static func runPrompt(replyTimeout: Duration) -> Never {
    var configuration = PromptConfiguration()
    configuration.terminalReplyTimeout = replyTimeout
    do {
      let result = try PasswordPrompt(configuration).run()
      exit(result.isSubmitted ? 0 : 1)
    } catch {
      printError("pty-probe: \(error)\n")
      exit(3)
    }
  }

  /// Where a terminal left in its modes for `--no-restore` is kept until the
  /// process exits, so that its deinit (which restores) never runs.
  nonisolated(unsafe) static var abandoned: TerminalDevice? = nil

  static func printError(_ message: String) {
    var message = message
    message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  }

  static func descriptor(_ terminal: borrowing TerminalDevice) -> Int32 { terminal.descriptor }
}
