import Foundation
import SecretField
import SecretFieldCLI
import Testing

@Suite("secretfield strength: the verdict for a script")
struct StrengthCommandTests {
  @Test("every option lands where it should")
  func options() throws {
    let command = try StrengthCommand(arguments: [
      "--password-from", "env:NEW", "--stdin", "--user=ada", "--context", "github",
      "--context", "example.com", "--min-length", "8", "--json",
    ])
    #expect(command.passwordSources.count == 2)
    #expect(command.rules.userName == "ada")
    #expect(command.rules.contextWords == ["github", "example.com"])
    #expect(command.rules.minimumLength == 8)
    #expect(command.printsJSON)
    let defaults = try StrengthCommand(arguments: ["--stdin"])
    #expect(defaults.rules == StrengthRules())
    #expect(!defaults.printsJSON)
  }

  @Test(
    "usage errors say what to do, exit 2",
    arguments: [
      ([], "give the password with --password-from SPEC or --stdin"),
      (["--stdin", "hunter2"], "the password is never an argument"),
      (["--stdin", "--min-length", "-1"], "a whole number from 0 to 1024"),
      (["--stdin", "--min-length", "2000"], "a whole number from 0 to 1024"),
      (["--stdin", "--json=yes"], "--json"),
      (["--stdin", "--user", ""], "a user name"),
      (["--stdin", "--context"], "--context"),
      (["--stdin", "--confirm"], "--confirm"),
      (["--password-from", "nope:x"], "--password-from"),
    ])
  func usageErrors(_ arguments: [String], _ message: String) throws {
    try expectUsageError(["strength"] + arguments, mentioning: message)
  }

  @Test("accepted: exit 0 and the estimate; refused: exit 1 and a reason per rule")
  func verdicts() throws {
    let accepted = try runTool(
      ["strength", "--password-from", "env:SF_PW"],
      environment: ["SF_PW": "correct horse battery staple"])
    #expect(accepted.status == 0, "\(accepted.error)")
    #expect(accepted.output == "accepted: score 4 of 4, about 10^21.2 guesses\n")
    #expect(accepted.error == "")

    let refused = try runTool(
      ["strength", "--password-from", "env:SF_PW"], environment: ["SF_PW": "password"])
    #expect(refused.status == 1)
    #expect(
      refused.output == """
        refused: score 0 of 4, about 10^0.0 guesses
          - 8 characters; at least 15
          - on a list of common passwords

        """)
    #expect(refused.error == "")
  }

  @Test("--json prints one line: verdict, score, guesses_log10, reasons")
  func json() throws {
    let run = try runTool(
      ["strength", "--stdin", "--json", "--user", "adalovelace", "--context", "github"],
      input: Array("GitHub-AdaLovelace-99\n".utf8))
    #expect(run.status == 1, "\(run.error)")
    #expect(run.output.hasSuffix("}\n"))
    #expect(run.output.filter { $0 == "\n" }.count == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    #expect(Set(object.keys) == ["verdict", "score", "guesses_log10", "reasons"])
    #expect(object["verdict"] as? String == "refused")
    #expect((object["score"] as? Int).map { (0...4).contains($0) } == true)
    #expect((object["guesses_log10"] as? Double).map { $0 > 0 } == true)
    #expect(
      object["reasons"] as? [String] == [
        "contains your user name", "contains the context word \"github\"",
      ])
    // The keys in the order the issue gives them.
    #expect(run.output.hasPrefix("{\"verdict\":\"refused\",\"score\":"))

    let accepted = try runTool(
      ["strength", "--stdin", "--json", "--min-length", "8"],
      input: Array("kqzmvtwp\n".utf8))
    #expect(accepted.status == 0, "\(accepted.error)")
    let fields = try #require(
      try JSONSerialization.jsonObject(with: Data(accepted.output.utf8)) as? [String: Any])
    #expect(fields["verdict"] as? String == "accepted")
    #expect(fields["reasons"] as? [String] == [])
  }

  @Test("--min-length sets the floor, in code points")
  func minimumLength() throws {
    let short = try runTool(
      ["strength", "--password-from", "env:SF_PW"], environment: ["SF_PW": "kqzmvtwp"])
    #expect(short.status == 1)
    #expect(short.output.contains("  - 8 characters; at least 15\n"))
    let enough = try runTool(
      ["strength", "--password-from", "env:SF_PW", "--min-length", "8"],
      environment: ["SF_PW": "kqzmvtwp"])
    #expect(enough.status == 0, "\(enough.output)")
    // 16 code points, 48 bytes.
    let wide = try runTool(
      ["strength", "--password-from", "env:SF_PW"], environment: ["SF_PW": "語彙が豊富で覚えやすい長い合言葉"])
    #expect(!wide.output.contains("at least 15"), "\(wide.output)")
  }

  @Test("a source that is not set or fails: exit 1 and why, nothing judged")
  func sourceFailures() throws {
    let unset = try runTool(["strength", "--password-from", "env:SF_UNSET_VARIABLE"])
    #expect(unset.status == 1)
    #expect(unset.output == "")
    #expect(unset.error.contains("SF_UNSET_VARIABLE"), "\(unset.error)")
    let missing = try runTool(["strength", "--password-from", "file:/nonexistent/new-password"])
    #expect(missing.status == 1)
    #expect(missing.output == "")
    // The first source that is set is used.
    let second = try runTool(
      ["strength", "--password-from", "env:SF_UNSET_VARIABLE", "--password-from", "env:SF_PW"],
      environment: ["SF_PW": "correct horse battery staple"])
    #expect(second.status == 0, "\(second.error)")
  }

  @Test("the password is never printed; a context word's control characters are shown escaped")
  func nothingUntrustedPrinted() throws {
    let password = "Zq-hostile\u{1B}[31m-ada-\u{1B}]0;title\u{07}-xyz"
    let words = try runTool(
      ["strength", "--password-from", "env:SF_PW", "--context", "ada\u{1B}[2J"],
      environment: ["SF_PW": password])
    #expect(!words.output.contains(password))
    #expect(!words.output.contains("\u{1B}"), "\(words.output)")
    let json = try runTool(
      ["strength", "--password-from", "env:SF_PW", "--json", "--user", "ada\u{1B}[2J\"x"],
      environment: ["SF_PW": "ada\u{1B}[2J\"x-Zq-kqzmvtwpxjrb"])
    #expect(!json.output.contains("\u{1B}"), "\(json.output)")
    #expect(json.output.contains("\"reasons\":[\"contains your user name\"]"), "\(json.output)")
    // Control: a context word that is found is quoted, escaped.
    let quoted = try runTool(
      ["strength", "--password-from", "env:SF_PW", "--context", "ab\u{1B}c"],
      environment: ["SF_PW": "zz-ab\u{1B}c-kqzmvtwpxjrb"])
    #expect(quoted.status == 1)
    #expect(quoted.output.contains("contains the context word \"ab\\x1bc\""), "\(quoted.output)")
  }

  @Test("standard output closed before the verdict: exit 1 and a message, not SIGPIPE")
  func closedOutput() throws {
    try expectClosedOutputSaid(
      ["strength", "--password-from", "env:SF_PW"], environment: ["SF_PW": "password"])
  }

  @Test("every option of the help is in the man page and in each completion")
  func documented() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let options = StrengthCommand.help.split(separator: "\n")
      .compactMap { line -> String? in
        let words = line.split(separator: " ")
        guard let first = words.first, first.hasPrefix("--") else { return nil }
        return String(first.split(separator: "=").first ?? first)
      }
    #expect(
      Set(options) == [
        "--password-from", "--stdin", "--user", "--context", "--min-length", "--json", "--version",
      ])
    for file in [
      "Documentation/man/secretfield.1", "Documentation/completions/secretfield.bash",
      "Documentation/completions/_secretfield", "Documentation/completions/secretfield.fish",
    ] {
      let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
      #expect(text.contains("strength"), "\(file) does not name the command")
      for option in options where option != "--version" {
        // man(7) writes each hyphen as \-; fish's completions name a long
        // option without its dashes.
        let written =
          file.hasSuffix(".1")
          ? option.replacingOccurrences(of: "-", with: "\\-") : String(option.dropFirst(2))
        let mentioned = text.contains(written)
        #expect(mentioned, "\(file) lacks \(option)")
      }
    }
  }
}
