import PinentryTerminal
import Glibc
import PTYSupport
import Testing

private let haveGnuPG =
  access("/usr/bin/gpg-agent", X_OK) == 0 && access("/usr/bin/gpg", X_OK) == 0
  && access("/usr/bin/gpg-connect-agent", X_OK) == 0 && access(pinentrySecretfield, X_OK) == 0

/// A GnuPG home whose agent runs `pinentry-secretfield`, and a user's terminal
/// with a GnuPG tool running in it: the user ran `export GPG_TTY=$(tty)` and
/// then the tool, which tells the agent the terminal's name; the agent starts
/// our pinentry, which opens that terminal by name.
private final class AgentTerminal {
  let home: GnuPGHome
  let terminal: TerminalSession

  /// Runs `program` with `arguments` in a new terminal, its standard output
  /// captured, with the home's environment and `GPG_TTY` set by the shell.
  init(_ program: String, _ arguments: [String], home: GnuPGHome? = nil) throws {
    let home = try home ?? GnuPGHome(pinentryProgram: pinentrySecretfield)
    try home.launchAgent()
    self.home = home
    var options = TerminalSession.Options()
    options.columns = 100
    for entry in home.environment() {
      let parts = entry.split(separator: "=", maxSplits: 1)
      options.environment[String(parts[0])] = String(parts[1])
    }
    options.environment["TERM"] = "xterm-256color"
    options.standardOutput = .captured
    options.standardError = .null
    terminal = try TerminalSession(
      executable: "/bin/sh",
      arguments: ["-c", "GPG_TTY=$(tty); export GPG_TTY; exec \"$@\"", "sh", program] + arguments,
      options: options)
  }

  /// What the tool wrote to standard output, once it ended.
  func output() throws -> String { try terminal.standardOutput() }

  /// Waits until `count` lines (screen and scrollback) start with `prompt`
  /// and the cursor is on the last of them with `masks` masks: the pinentry
  /// of the `count`th entry is up and has taken `masks` characters.
  @discardableResult
  func waitForEntry(_ count: Int, prompt: String, masks: Int = 0) throws -> ScreenSnapshot {
    let field = masks == 0 ? prompt : prompt + " " + String(repeating: "\u{2022}", count: masks)
    return try terminal.waitForScreen("entry \(count) (\(prompt)) with \(masks) masks") {
      screen in
      (screen.scrollback + screen.lines).filter { $0.hasPrefix(prompt) }.count == count
        && screen.cursorLine == field
    }
  }

  func type(_ keys: [String]) throws {
    for key in keys { try terminal.type(key) }
  }
}

@Suite(
  "A real gpg-agent (2.2.40 here) asks through pinentry-secretfield on the user's terminal",
  .enabled(if: haveGnuPG))
struct TerminalPinentryAgentTests {
  @Test("GET_PASSPHRASE receives exactly what was typed, after edits and a reveal")
  func typedPassphraseArrives() throws {
    let run = try AgentTerminal(
      "/usr/bin/gpg-connect-agent",
      ["GET_PASSPHRASE --data X Bad%20passphrase%3F Passphrase: Enter%20it", "/bye"])
    let first = try run.waitForEntry(1, prompt: "Passphrase:")
    #expect(first.shows("Enter it"), "the description: \(first)")
    #expect(first.shows("Bad passphrase?"), "the error: \(first)")
    #expect(first.shows("Tab: Make passphrase visible"), "the agent's reveal text: \(first)")
    // "horse%battery" typed as "hose battery", then mended: a missing r, a
    // space that should be %, and a letter pasted over at the start.
    for character in "hose battery" { try run.type([String(character)]) }
    try run.waitForEntry(1, prompt: "Passphrase:", masks: 12)
    try run.type(Array(repeating: Key.left, count: 7))
    try run.type([Key.backspace, "%"])
    try run.type([Key.home, Key.right, Key.right, "r"])
    try run.type([Key.end, "é"])
    try run.waitForEntry(1, prompt: "Passphrase:", masks: 14)
    try run.type([Key.tab])
    let revealed = try run.terminal.waitForText("Passphrase: horse%batteryé")
    #expect(revealed.shows("Tab: Hide passphrase"), "\(revealed)")
    try run.type([Key.tab])
    try run.waitForEntry(1, prompt: "Passphrase:", masks: 14)
    try run.type([Key.enter])
    #expect(try run.terminal.waitForExit() == .exited(0))
    #expect(try run.output() == "D horse%25batteryé\nOK\n")
    let screen = try run.terminal.screen()
    #expect(!screen.contains("horse%battery"), "nothing revealed stays: \(screen)")
  }

  @Test("Esc gives the client ERR 83886179")
  func escapeCancels() throws {
    let run = try AgentTerminal(
      "/usr/bin/gpg-connect-agent", ["GET_PASSPHRASE --data X X Passphrase: X", "/bye"])
    try run.waitForEntry(1, prompt: "Passphrase:")
    try run.type(["a", Key.escape])
    #expect(try run.terminal.waitForExit() == .exited(0))
    #expect(try run.output() == "ERR 83886179 Operation cancelled <Pinentry>\n")
  }

  @Test("--repeat=1: a mismatch asks again with the agent's error, then a match is returned")
  func repeatMismatchThenMatch() throws {
    let run = try AgentTerminal(
      "/usr/bin/gpg-connect-agent",
      ["GET_PASSPHRASE --data --repeat=1 X X Passphrase: X", "/bye"])
    // gpg-agent 2.2.40 asks the repetition through a second pinentry, and
    // after a mismatch starts over with the first.
    let attempts = [("s3cret", "s3cre7"), ("s3cret", "s3cret")]
    var entries = 0
    for (passphrase, repetition) in attempts {
      for text in [passphrase, repetition] {
        entries += 1
        let screen = try run.waitForEntry(entries, prompt: "Passphrase:")
        if entries == 3 {
          #expect(screen.shows("does not match - try again"), "the agent's error: \(screen)")
        }
        for character in text { try run.type([String(character)]) }
        try run.waitForEntry(entries, prompt: "Passphrase:", masks: text.count)
        try run.type([Key.enter])
      }
    }
    #expect(try run.terminal.waitForExit() == .exited(0))
    #expect(try run.output() == "D s3cret\nOK\n")
  }

  @Test("gpg --symmetric encrypts with the passphrase typed twice; gpg --passphrase decrypts")
  func symmetricEncryption() throws {
    let home = try GnuPGHome(pinentryProgram: pinentrySecretfield)
    try home.writeFile("plain.txt", Array("attack at dawn\n".utf8))
    let run = try AgentTerminal(
      "/usr/bin/gpg",
      [
        "--pinentry-mode", "ask", "--symmetric", "-o", "\(home.path)/enc.gpg",
        "\(home.path)/plain.txt",
      ], home: home)
    let passphrase = "Corr3ct horse%battery+"
    // One pinentry asks twice (SETREPEAT): a mismatch first, then a match.
    let entries: [(prompt: String, text: String)] = [
      ("Passphrase:", passphrase), ("Repeat:", passphrase + "x"), ("Passphrase:", passphrase),
      ("Repeat:", passphrase),
    ]
    var counts: [String: Int] = [:]
    for entry in entries {
      counts[entry.prompt, default: 0] += 1
      let screen = try run.waitForEntry(counts[entry.prompt]!, prompt: entry.prompt)
      if counts["Passphrase:"] == 2 && entry.prompt == "Passphrase:" {
        #expect(screen.shows("does not match - try again"), "\(screen)")
      }
      for character in entry.text { try run.type([String(character)]) }
      try run.waitForEntry(counts[entry.prompt]!, prompt: entry.prompt, masks: entry.text.count)
      try run.type([Key.enter])
    }
    #expect(try run.terminal.waitForExit() == .exited(0))

    home.killAgent()
    let decrypt = try home.run(
      "/usr/bin/gpg",
      [
        "--batch", "--pinentry-mode", "loopback", "--passphrase", passphrase, "-d",
        "\(home.path)/enc.gpg",
      ])
    #expect(String(decoding: decrypt.output, as: UTF8.self) == "attack at dawn\n")
    #expect(decrypt.exitCode == 0)
    // The control: another passphrase does not decrypt it.
    let wrong = try home.run(
      "/usr/bin/gpg",
      [
        "--batch", "--pinentry-mode", "loopback", "--passphrase", passphrase + "x", "-d",
        "\(home.path)/enc.gpg",
      ])
    #expect(wrong.exitCode != 0)
  }

  @Test("--qualitybar: the agent's estimate of what is typed is drawn as a bar under the field")
  func qualityBarDrawn() throws {
    let run = try AgentTerminal(
      "/usr/bin/gpg-connect-agent",
      ["GET_PASSPHRASE --data --qualitybar X X Passphrase: X", "/bye"])
    let empty = try run.waitForEntry(1, prompt: "Passphrase:")
    #expect(empty.shows("Quality: [░░░░░░░░░░░░░░░░░░░░]   0%"), "\(empty)")
    // gpg-agent 2.2.40 rates 3 characters of its good length of 10 (8 + 8/3)
    // as 30, made negative because they are shorter than 8.
    for character in "abc" { try run.type([String(character)]) }
    let weak = try run.terminal.waitForText("Quality: [██████░░░░░░░░░░░░░░] -30%")
    #expect(weak.cursorLine == "Passphrase: •••")
    // 11 characters with a digit: past the good length, no constraint failed.
    for character in "defgh12x" { try run.type([String(character)]) }
    try run.terminal.waitForText("Quality: [████████████████████] 100%")
    try run.type([Key.controlU])
    try run.terminal.waitForText("Quality: [░░░░░░░░░░░░░░░░░░░░]   0%")
    try run.type(["z", "9", Key.enter])
    #expect(try run.terminal.waitForExit() == .exited(0))
    #expect(try run.output() == "D z9\nOK\n")
  }
}
