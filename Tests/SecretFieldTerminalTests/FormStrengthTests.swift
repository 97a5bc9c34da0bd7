import PTYSupport
import TestSupport
import Testing

/// A form's new-password field (`FormField.strength`): the strength line
/// while it has the focus, and the submit refused, with the reasons and the
/// focus on it, while the rules refuse its text.
@Suite("TerminalForm: a new-password field judged as it is typed")
struct FormStrengthTests {
  @Test("the line follows the typing; a weak password keeps the form, a strong one submits")
  func newPassword() throws {
    var options = TerminalSession.Options()
    options.standardOutput = .captured
    let session = try startProbe(
      ["--form-new-password"], options: options, waitingFor: "New password:")
    try session.type("password1")
    try session.waitForScreen("a common password's line") { screen in
      screen.lines.contains {
        $0.hasPrefix("Strength [") && $0.contains("refused: 9 characters; at least 15")
      }
    }
    try session.type("\r")
    try session.waitForText(
      "Not accepted: 9 characters; at least 15 · on a list of common passwords")
    try session.type("-AdaLovelace")
    try session.type("\r")
    try session.waitForText("Not accepted: contains your user name")
    // ^W on a masked field deletes everything before the caret.
    try session.type("\u{17}violet-anchor-47-drum")
    try session.waitForScreen("a strong password's line") { screen in
      screen.lines.contains { $0.hasPrefix("Strength [████████] accepted: ") }
    }
    try session.type("\r")
    #expect(try session.waitForExit() == .exited(0))
    #expect(try session.capturedOutput(stream: 1) == Array("violet-anchor-47-drum".utf8))
    let after = try session.screen()
    #expect(!after.contains("Strength ["), "the status lines are erased: \(after)")
  }
}
