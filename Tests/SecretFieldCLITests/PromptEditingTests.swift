import PTYSupport
import Testing

/// Keys typed into `secretfield prompt`, one write each, and the exact bytes
/// it must write to standard output.
struct TypedCase: CustomTestStringConvertible, Sendable {
  let name: String
  let keys: [String]
  let output: String
  var testDescription: String { name }
}

let typedCases = [
  TypedCase(
    name: "arrows and Home/End in CSI and SS3 forms insert where the caret is",
    keys: [
      "abc", Key.left, Key.left, "X", Key.end, "Y", Key.home, "Z", Key.endSS3, "!", Key.homeSS3,
      "<",
    ],
    output: "<ZaXbcY!"),
  TypedCase(
    name: "^B ^F ^A ^E move as the arrows do",
    keys: [
      "bd", Key.controlA, "a", Key.controlE, "e", Key.controlB, Key.controlB, "c", Key.controlF,
    ],
    output: "abcde"),
  TypedCase(
    name: "Backspace (DEL and ^H) and Delete in the middle",
    keys: [
      "abcdef", Key.left, Key.left, Key.backspace, Key.home, Key.right, Key.delete, Key.end,
      Key.controlH,
    ],
    output: "ace"),
  TypedCase(
    name: "^K deletes to the end", keys: ["secret", Key.left, Key.left, Key.controlK],
    output: "secr"),
  TypedCase(
    name: "^U deletes to the start", keys: ["secret", Key.left, Key.left, Key.controlU, "x"],
    output: "xet"),
  TypedCase(
    name: "^W deletes a word while revealed, everything while masked",
    keys: [Key.tab, "two words", Key.controlW, Key.tab, "three", Key.left, Key.controlW, "!"],
    output: "!e"),
  TypedCase(
    name: "^D deletes forward on text",
    keys: ["abc", Key.home, Key.controlD], output: "bc"),
  TypedCase(
    name: "multi-byte and multi-scalar characters are whole characters",
    keys: [
      "é", "日本", "e", "\u{301}", "👨‍👩‍👧", "🇫🇷", Key.left, Key.backspace, Key.end, "ß",
    ],
    output: "é日本e\u{301}🇫🇷ß"),
  TypedCase(
    name: "unknown escape sequences change nothing",
    keys: [
      "ab", Key.csi + "A", Key.escape + "OP", Key.csi + "15~", Key.escape + "x", Key.csi + "1;2P",
      Key.escape + "]0;title\u{07}", Key.csi + "Z", "\u{07}", "c",
    ],
    output: "abc"),
  TypedCase(
    name: "an Esc prefix is Alt: Alt+Up, Alt+x, Alt+Delete change nothing, cancel nothing",
    keys: [
      "ab", Key.escape + Key.csi + "A", Key.escape + Key.escape + "x",
      Key.escape + Key.csi + "3~", "c",
    ],
    output: "abc"),
  TypedCase(
    name: "Alt+] starts a string that Enter ends and submits; none of it is text",
    keys: ["ab", Key.escape + "]", "xyz"], output: "ab"),
]

@Suite("secretfield prompt: line editing end to end, through a pty")
struct PromptEditingTests {
  @Test("typed keys yield exactly the expected bytes", arguments: typedCases)
  func typed(_ testCase: TypedCase) throws {
    let session = try startPrompt()
    for key in testCase.keys { try session.type(key) }
    try session.submit(expectingOutput: testCase.output + "\n")
    let masks = String(repeating: "•", count: testCase.output.count)
    #expect(try session.screen().lines.contains("Password: " + masks))
  }

  @Test(
    "^C and Esc after a string from the keyboard (Alt+P, Alt+_) cancel",
    arguments: [Key.controlC, Key.escape])
  func cancelAfterString(_ cancel: String) throws {
    let session = try startPrompt()
    try session.type("ab")
    try session.type(Key.escape + "P")
    try session.type("xy")
    try session.type(Key.escape + "_")
    try session.type("z")
    try session.type(cancel)
    #expect(try session.waitForExit() == .exited(1))
    #expect(try session.standardOutput() == "")
  }

  @Test("a bracketed paste is one edit at the caret, its trailing newline dropped, not submitted")
  func paste() throws {
    let session = try startPrompt()
    try session.type("ab")
    try session.type(Key.left)
    try session.waitForMasks(2)
    try session.type(Key.paste("xyz\n"))
    let screen = try session.waitForMasks(5)
    #expect(screen.cursorColumn == "Password: ".count + 4, "the caret ends after the paste")
    try session.submit(expectingOutput: "axyzb\n")
  }

  @Test("a paste with a line break inside is refused with a message; the field is unchanged")
  func pasteWithLineBreak() throws {
    let session = try startPrompt()
    try session.typeMasked("ab")
    try session.type(Key.paste("x\ny"))
    let screen = try session.waitForText("Not pasted: the text holds a line break.")
    #expect(screen.shows("Password: ••") && !screen.shows("Password: •••"))
    try session.type("c")
    // The key's mask is echoed before the frame that ends the message (and
    // the prompt yields the core between them): wait for that frame.
    try session.waitForScreen("the next key ends the message") {
      $0.shows("Password: •••") && !$0.shows("Not pasted")
    }
    try session.submit(expectingOutput: "abc\n")
  }

  @Test("bytes that are not UTF-8 are refused with a message; the field keeps its text")
  func invalidText() throws {
    let session = try startPrompt()
    try session.type("ab")
    try session.type(bytes: [0xFF, 0xFE])
    try session.waitForText("not UTF-8")
    try session.submit(expectingOutput: "ab\n")
  }

  @Test("long text scrolls inside the terminal's width and comes out whole")
  func scrolling() throws {
    var options = TerminalSession.Options()
    options.columns = 30
    let session = try startPrompt(options: options)
    let text = String(repeating: "abcdefghij", count: 5)
    for character in text { try session.type(String(character)) }
    let screen = try session.waitForMasks(19)
    #expect(screen.cursorColumn == 29, "the caret in view, the last column unwritten")
    try session.type(Key.home)
    try session.waitForScreen("the caret at the start") { $0.cursorColumn == 10 }
    try session.submit(expectingOutput: text + "\n")
  }

  @Test("--confirm: a mismatch says so and asks again; a match is written")
  func confirm() throws {
    let session = try startPrompt(["--confirm", "--allow-weak"])
    try session.typeLine("abc")
    try session.waitForText("Again:")
    try session.typeLine("abd")
    try session.waitForText("didn't match")
    try session.typeLine("xyz")
    try session.waitForScreen("a second Again:") { screen in
      screen.lines.filter { $0.hasPrefix("Again:") }.count == 2
    }
    try session.type("xyz")
    try session.submit(expectingOutput: "xyz\n")
  }

  @Test("--confirm: three mismatches end with exit status 4 and nothing written")
  func confirmFails() throws {
    let session = try startPrompt(["--confirm", "--allow-weak"])
    try session.mismatchConfirmations()
    #expect(try session.waitForExit() == .exited(4))
    #expect(try session.standardOutput() == "")
    #expect(try session.standardError().contains("differed 3 times"))
  }

  @Test("--min-length: a shorter entry is refused with a message and kept")
  func minimumLength() throws {
    let session = try startPrompt(["--min-length", "4"])
    try session.typeLine("abc")
    try session.waitForText("Too short: use at least 4 characters.")
    try session.type("d")
    try session.submit(expectingOutput: "abcd\n")
  }

  @Test("--mask and --no-echo change what the line shows")
  func echo() throws {
    let masked = try startPrompt(["--mask", "#"])
    try masked.type("abc")
    try masked.waitForText("Password: ###")
    try masked.submit(expectingOutput: "abc\n")

    let silent = try startPrompt(["--no-echo"])
    try silent.type("abc")
    try silent.type(Key.tab)
    try silent.typeLine("d")
    #expect(try silent.waitForExit() == .exited(0))
    let screen = try silent.screen()
    #expect(screen.lines.contains("Password:") && !screen.contains("abcd") && !screen.contains("•"))
    #expect(try silent.standardOutput() == "abcd\n")
  }
}
