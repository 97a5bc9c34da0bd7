import Glibc
import PTYSupport
import Testing

/// `hash` and `prompt --confirm` judge a new password: the strength line as
/// it is typed, Enter refused on a weak one with the field kept, a source's
/// weak password refused on standard error, and `--allow-weak`.
@Suite("New passwords: the strength line and refusals")
struct NewPasswordTests {
  static let strong = "password1-violet-anchor-47"

  @Test("the strength line follows the typing; the second entry is not judged")
  func lineFollowsTyping() throws {
    let session = try startPrompt(["--confirm", "--min-length", "8"])
    try session.type("password1")
    try session.waitForScreen("a common password's line") { screen in
      screen.lines.contains {
        $0.hasPrefix("Strength [") && $0.hasSuffix("refused: on a list of common passwords")
      }
    }
    try session.type("-violet-anchor-47")
    try session.waitForScreen("a strong password's line") { screen in
      screen.lines.contains { $0.hasPrefix("Strength [████████] accepted: ") }
    }
    try session.type(Key.enter)
    try session.waitForText("Again:")
    try session.type("pass")
    let second = try session.waitForMasks(4, prompt: "Again:")
    #expect(!second.contains("Strength ["), "\(second)")
    try session.type("word1-violet-anchor-47")
    try session.submit(expectingOutput: Self.strong + "\n")
  }

  @Test("Enter on a weak password says why and keeps the field; a strong one is taken")
  func refusedKeepsField() throws {
    let session = try startPrompt(["--confirm"])
    try session.typeLine("password1")
    try session.waitForText(
      "Not accepted: 9 characters; at least 15 · on a list of common passwords")
    let kept = try session.waitForMasks(9)
    #expect(!kept.contains("Again:"), "\(kept)")
    saveCapture(kept, as: "prompt-strength")
    try session.typeLine("-violet-anchor-47")
    try session.waitForText("Again:")
    try session.type(Self.strong + Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    #expect(try session.standardOutput() == Self.strong + "\n")
  }

  @Test("hash: --user's name is refused inside the new password, in any case")
  func hashRefusesUserName() throws {
    let session = try startPrompt(
      ["--user", "adalovelace"], command: "hash", waitingFor: "New password:")
    try session.type("violet-AdaLovelace-47")
    try session.waitForText("refused: contains your user name")
    try session.type(Key.enter)
    try session.waitForText("Not accepted: contains your user name.")
    try session.type(Key.controlU + Self.strong + Key.enter)
    try session.waitForText("Again:")
    try session.type(Self.strong + Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    #expect(try session.standardOutput().hasPrefix("$argon2id$"))
  }

  @Test("--allow-weak: no refusal, no line; a warning on standard error")
  func allowWeak() throws {
    let session = try startPrompt(["--confirm", "--allow-weak"])
    try session.type("hunter2")
    let typed = try session.waitForMasks(7)
    #expect(!typed.contains("Strength ["), "\(typed)")
    try session.type(Key.enter)
    try session.waitForText("Again:")
    try session.type("hunter2" + Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    #expect(try session.standardOutput() == "hunter2\n")
    let error = try session.standardError()
    #expect(
      error.contains(
        "warning: a weak password was taken (--allow-weak): 7 characters; at least 15"),
      "\(error)")
  }

  @Test("from a source: a weak password is refused with its reasons (exit 1), or warned of")
  func fromSource() throws {
    let refused = try runWithoutTerminal(["hash", "--stdin"], input: Array("password1\n".utf8))
    #expect(refused.status == .exited(1))
    #expect(refused.output == "")
    #expect(refused.error.contains("refused: 9 characters; at least 15"), "\(refused.error)")
    #expect(refused.error.contains("refused: on a list of common passwords"), "\(refused.error)")
    #expect(refused.error.contains("--allow-weak"), "\(refused.error)")

    let context = try runWithoutTerminal(
      ["hash", "--stdin", "--context", "example"], input: Array("violet-Example-anchor\n".utf8))
    #expect(context.status == .exited(1))
    #expect(context.error.contains("contains the context word \"example\""), "\(context.error)")

    let shorter = try runWithoutTerminal(
      ["hash", "--stdin", "--min-length", "8"], input: Array("violet-anc4\n".utf8))
    #expect(shorter.status == .exited(0), "\(shorter.error)")
    #expect(shorter.output.hasPrefix("$argon2id$"))

    let allowed = try runWithoutTerminal(
      ["hash", "--stdin", "--allow-weak"], input: Array("password1\n".utf8))
    #expect(allowed.status == .exited(0))
    #expect(allowed.output.hasPrefix("$argon2id$"))
    #expect(allowed.error.contains("warning: a weak password was taken"), "\(allowed.error)")

    let prompted = try runTool(
      ["prompt", "--confirm", "--password-from", "env:SF_PW"],
      environment: ["SF_PW": "qwertyuiopasdfgh"])
    #expect(prompted.status == 1)
    #expect(prompted.output == "")
    #expect(prompted.error.contains("refused: easy to guess"), "\(prompted.error)")
  }

  @Test("without --confirm, prompt judges nothing and refuses the new-password options")
  func promptWithoutConfirm() throws {
    let taken = try runTool(
      ["prompt", "--password-from", "env:SF_PW"], environment: ["SF_PW": "password1"])
    #expect(taken.status == 0)
    #expect(taken.output == "password1\n")
    for option in [["--allow-weak"], ["--user", "ada"], ["--context", "host"]] {
      let usage = try runWithoutTerminal(["prompt"] + option)
      #expect(usage.status == .exited(2))
      #expect(usage.error.contains("needs --confirm"), "\(usage.error)")
    }
  }
}

/// Writes the screen's lines, as text, to `.build/terminal-screenshots/NAME.txt`:
/// the README's picture of the prompt is rendered from it
/// (`convert -font DejaVu-Sans-Mono label:"$(cat NAME.txt)" NAME.png`). Never fails
/// a test.
func saveCapture(_ screen: ScreenSnapshot, as name: String) {
  var directory = secretfield
  while !directory.hasSuffix("/.build"), directory.count > 1 {
    directory = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
  }
  guard directory.hasSuffix("/.build") else { return }
  directory += "/terminal-screenshots"
  mkdir(directory, 0o755)
  var lines = screen.lines
  while lines.last?.isEmpty == true { lines.removeLast() }
  try? (lines.joined(separator: "\n") + "\n").write(toFile: directory + "/" + name + ".txt")
}
