import TestSupport
import Testing
import SecretSources

@Suite("SecretSource(specification:) and ShellWords")
struct SecretSourceSpecificationTests {
  @Test(
    "each scheme names its source",
    arguments: [
      ("env:TOOL_PASSWORD", SecretSource.environment(name: "TOOL_PASSWORD")),
      ("file:/run/secrets/pw", .file(path: "/run/secrets/pw")),
      ("file:relative:with:colons", .file(path: "relative:with:colons")),
      ("fd:3", .descriptor(3)),
      ("stdin", .standardInput),
      ("cmd:pass show 'my site'", .command(["pass", "show", "my site"])),
      ("credential:db-password", .credential(name: "db-password")),
    ])
  func schemes(_ specification: String, _ expected: SecretSource) throws {
    #expect(try SecretSource(specification: specification) == expected)
  }

  @Test(
    "an unknown scheme or a bad value is invalidSpecification, with what to give",
    arguments: [
      ("", "env:NAME"), ("bogus:x", "unknown scheme 'bogus'"), ("keyring", "env:NAME"),
      ("env:", "variable's name"), ("env:A=B", "variable's name"), ("file:", "file's path"),
      ("fd:", "descriptor number"), ("fd:-1", "descriptor number"), ("fd:x", "descriptor number"),
      ("cmd:", "give the command"), ("cmd:   ", "give the command"),
      ("cmd:'open", "single quote is not closed"), ("cmd:a\\", "ends with a backslash"),
      ("credential:", "credential's name"), ("credential:a/b", "credential's name"),
      ("STDIN", "env:NAME"),
    ])
  func invalid(_ specification: String, _ words: String) {
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource(specification: specification)
    }
    #expect(error?.code == .invalidSpecification)
    #expect(error?.description.contains(words) == true, "\(String(describing: error))")
    #expect(error?.description.contains("--") == false, "no option of the tool is named")
  }

  @Test(
    "words split as a shell splits them, nothing expanded",
    arguments: [
      ("a b  c", ["a", "b", "c"]),
      ("  leading and trailing  ", ["leading", "and", "trailing"]),
      ("'single quoted' \"double quoted\"", ["single quoted", "double quoted"]),
      ("it\\'s", ["it's"]),
      ("'a\\b'", ["a\\b"]),
      ("\"a\\\"b\\\\c\\d\"", ["a\"b\\c\\d"]),
      ("x''y \"\" ''", ["xy", "", ""]),
      ("$HOME ~ * `id` a;b|c", ["$HOME", "~", "*", "`id`", "a;b|c"]),
      ("pre'mid'\"dle\"post", ["premiddlepost"]),
      ("a\\ b", ["a b"]),
      ("line\\\ncontinued", ["linecontinued"]),
      ("", []),
    ])
  func words(_ line: String, _ expected: [String]) throws {
    #expect(try ShellWords.split(line) == expected)
  }

  @Test("an open quote or a trailing backslash is refused", arguments: ["'a", "\"a", "a\\"])
  func unterminated(_ line: String) {
    #expect(throws: SecretSourceError.self) { _ = try ShellWords.split(line) }
  }

  // Found by FuzzTesting's FuzzSecretSourceSpecification: split by
  // `Character`, a quote, blank or backslash followed by a combining mark was
  // one character that was none of them.
  @Test(
    "a combining mark after a quote, blank or backslash does not hide it",
    arguments: [
      ("'\u{301}'", ["\u{301}"]), ("a \u{301}b", ["a", "\u{301}b"]),
      ("\"\u{301}\"", ["\u{301}"]), ("\\\u{301}x", ["\u{301}x"]),
      ("\"\\\u{301}\"", ["\\\u{301}"]), ("a\r\nb", ["a", "b"]), ("a\\\r\nb", ["ab"]),
      ("a\rb", ["a\rb"]),
    ])
  func combiningMarks(_ line: String, _ expected: [String]) throws {
    let words = try ShellWords.split(line)
    #expect(words.map { Array($0.utf8) } == expected.map { Array($0.utf8) })
  }

  @Test("a combining mark after ':' does not hide the scheme")
  func combiningMarkAfterColon() throws {
    let source = try SecretSource(specification: "cmd:\u{301}ls")
    guard case .command(let words, _) = source else {
      Issue.record("cmd: gave \(source)")
      return
    }
    #expect(words.map { Array($0.utf8) } == [Array("\u{301}ls".utf8)])
  }

  @Test(
    "a combining mark after '=' or '/' does not let it into a name",
    arguments: [
      "env:A=\u{301}", "credential:../\u{301}x", "credential:/\u{301}", "credential:a/\u{301}",
    ])
  func combiningMarkInName(_ specification: String) {
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource(specification: specification)
    }
    #expect(error?.code == .invalidSpecification)
  }
}
