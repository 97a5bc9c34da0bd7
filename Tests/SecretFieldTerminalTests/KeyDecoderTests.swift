import SecretField
import SecretFieldTerminal
import SecureMemory
import Testing

/// One input and what it must decode to.
struct DecoderCase: CustomTestStringConvertible, Sendable {
  let name: String
  let input: [UInt8]
  let expected: [Decoded]

  init(_ name: String, _ input: String, _ expected: [Decoded]) {
    self.name = name
    self.input = Array(input.utf8)
    self.expected = expected
  }

  init(_ name: String, bytes: [UInt8], _ expected: [Decoded]) {
    self.name = name
    self.input = bytes
    self.expected = expected
  }

  var testDescription: String { name }
}

extension Decoded: @unchecked Sendable {}

func key(_ event: KeyEvent) -> Decoded { .event(event) }

let textCases: [DecoderCase] = [
  DecoderCase("ASCII arriving together is one text event", "abc", [.text("abc")]),
  DecoderCase("a two-byte character", "é", [.text("é")]),
  DecoderCase("a three-byte character", "€", [.text("€")]),
  DecoderCase("a four-byte character", "😀", [.text("😀")]),
  DecoderCase("a ZWJ family is one event", "👨‍👩‍👧", [.text("👨‍👩‍👧")]),
  DecoderCase("a flag is one event", "🇫🇷", [.text("🇫🇷")]),
  DecoderCase("e and a combining acute together", "e\u{301}", [.text("e\u{301}")]),
  DecoderCase(
    "Hangul jamo together", "\u{1100}\u{1161}\u{11A8}", [.text("\u{1100}\u{1161}\u{11A8}")]),
  DecoderCase("text then Enter", "ab\r", [.text("ab"), key(.submit)]),
  DecoderCase(
    "text around a control key", "a\u{7F}b", [.text("a"), key(.deleteBackward), .text("b")]),
  DecoderCase("a space is text", " ", [.text(" ")]),
]

let controlCases: [DecoderCase] = [
  DecoderCase("CR submits", "\r", [key(.submit)]),
  DecoderCase("LF submits", "\n", [key(.submit)]),
  DecoderCase("DEL deletes backward", "\u{7F}", [key(.deleteBackward)]),
  DecoderCase("^H deletes backward", "\u{08}", [key(.deleteBackward)]),
  DecoderCase("Tab", "\t", [key(.tab)]),
  DecoderCase("^A moves to start", "\u{01}", [key(.moveToStart)]),
  DecoderCase("^B moves left", "\u{02}", [key(.moveLeft)]),
  DecoderCase("^E moves to end", "\u{05}", [key(.moveToEnd)]),
  DecoderCase("^F moves right", "\u{06}", [key(.moveRight)]),
  DecoderCase("^U deletes to start", "\u{15}", [key(.deleteToStart)]),
  DecoderCase("^K deletes to end", "\u{0B}", [key(.deleteToEnd)]),
  DecoderCase("^W deletes a word", "\u{17}", [key(.deleteWordBackward)]),
  DecoderCase("^C cancels", "\u{03}", [key(.cancel)]),
  DecoderCase("^D is end of input", "\u{04}", [key(.endOfInput)]),
  DecoderCase("^L redraws", "\u{0C}", [key(.redraw)]),
  DecoderCase("^Z suspends", "\u{1A}", [key(.suspend)]),
  DecoderCase("^G is the named key Ctrl+G", "\u{07}", [key(.key(.character("g"), .control))]),
  DecoderCase("NUL is Ctrl+Space", bytes: [0], [key(.key(.character(" "), .control))]),
]

let sequenceCases: [DecoderCase] = [
  DecoderCase("CSI D is Left", csi + "D", [key(.moveLeft)]),
  DecoderCase("CSI C is Right", csi + "C", [key(.moveRight)]),
  DecoderCase("CSI H is Home", csi + "H", [key(.moveToStart)]),
  DecoderCase("CSI F is End", csi + "F", [key(.moveToEnd)]),
  DecoderCase("CSI 1~ is Home", csi + "1~", [key(.moveToStart)]),
  DecoderCase("CSI 7~ is Home", csi + "7~", [key(.moveToStart)]),
  DecoderCase("CSI 4~ is End", csi + "4~", [key(.moveToEnd)]),
  DecoderCase("CSI 8~ is End", csi + "8~", [key(.moveToEnd)]),
  DecoderCase("CSI 3~ is Delete", csi + "3~", [key(.deleteForward)]),
  DecoderCase("SS3 D is Left", esc + "OD", [key(.moveLeft)]),
  DecoderCase("SS3 C is Right", esc + "OC", [key(.moveRight)]),
  DecoderCase("SS3 H is Home", esc + "OH", [key(.moveToStart)]),
  DecoderCase("SS3 F is End", esc + "OF", [key(.moveToEnd)]),
  DecoderCase("SS3 M is keypad Enter", esc + "OM", [key(.submit)]),
  DecoderCase("Ctrl+Left moves a word left", csi + "1;5D", [key(.moveWordLeft)]),
  DecoderCase("Ctrl+Right moves a word right", csi + "1;5C", [key(.moveWordRight)]),
  DecoderCase("Alt+Left moves a word left", csi + "1;3D", [key(.moveWordLeft)]),
  DecoderCase("Shift+Left moves left", csi + "1;2D", [key(.moveLeft)]),
  DecoderCase("Ctrl+Home moves to start", csi + "1;5H", [key(.moveToStart)]),
  DecoderCase("Shift+Delete deletes forward", csi + "3;2~", [key(.deleteForward)]),
  DecoderCase("Up is a named key", csi + "A", [key(.key(.up, []))]),
  DecoderCase("Shift+Up, with its modifier", csi + "1;2A", [key(.key(.up, .shift))]),
  DecoderCase("Down in SS3 is a named key", esc + "OB", [key(.key(.down, []))]),
  DecoderCase("Page Up is a named key", csi + "5~", [key(.key(.pageUp, []))]),
  DecoderCase("Ctrl+Page Down", csi + "6;5~", [key(.key(.pageDown, .control))]),
  DecoderCase("Insert", csi + "2~", [key(.key(.insert, []))]),
  DecoderCase("F1 (SS3 P)", esc + "OP", [key(.key(.function(1), []))]),
  DecoderCase("Shift+F2 (CSI 1;2Q)", csi + "1;2Q", [key(.key(.function(2), .shift))]),
  DecoderCase("F5 (CSI 15~)", csi + "15~", [key(.key(.function(5), []))]),
  DecoderCase("F12 (CSI 24~)", csi + "24~", [key(.key(.function(12), []))]),
  DecoderCase("Shift+Tab", csi + "Z", [key(.key(.tab, .shift))]),
  DecoderCase("a CSI with intermediates is unknown", csi + "1 q", [key(.unknownSequence)]),
  DecoderCase("a private CSI is unknown", csi + ">1;2m", [key(.unknownSequence)]),
  DecoderCase("a release of Left is ignored", csi + "1;1:3D", []),
  DecoderCase("focus in", csi + "I", [key(.focusIn)]),
  DecoderCase("focus out", csi + "O", [key(.focusOut)]),
  DecoderCase(
    "kitty flags reply", csi + "?31u", [key(.keyboardFlags(KeyboardFlags(rawValue: 31)))]),
  DecoderCase("kitty flags reply 0", csi + "?0u", [key(.keyboardFlags([]))]),
  DecoderCase("device attributes reply", csi + "?62;22c", [key(.deviceAttributes)]),
  DecoderCase("OSC ended by BEL", esc + "]0;title\u{07}", [key(.unknownSequence)]),
  DecoderCase(
    "OSC ended by ST", esc + "]11;rgb:0000/0000/0000" + esc + "\\", [key(.unknownSequence)]),
  DecoderCase("DCS ended by ST", esc + "P1$r0m" + esc + "\\", [key(.unknownSequence)]),
  DecoderCase("APC ended by ST", esc + "_Gi=1;OK" + esc + "\\", [key(.unknownSequence)]),
  DecoderCase(
    "an ESC inside an OSC that is not ST ends it, and is Alt's", esc + "]0;a" + esc + "b\u{07}",
    [key(.unknownSequence), key(.key(.character("b"), .alt)), key(.key(.character("g"), .control))]
  ),
  DecoderCase("Alt+x, never text", esc + "x", [key(.key(.character("x"), .alt))]),
  DecoderCase("Alt+Y is Alt+Shift+y", esc + "Y", [key(.key(.character("y"), [.alt, .shift]))]),
  DecoderCase("Alt+é is unknown, whole", esc + "é", [key(.unknownSequence)]),
  DecoderCase(
    "Alt+Backspace deletes a word, as in readline", esc + "\u{7F}", [key(.deleteWordBackward)]),
  DecoderCase("Alt+x then text", esc + "xab", [key(.key(.character("x"), .alt)), .text("ab")]),
  DecoderCase("a lone Esc, nothing after", esc, [key(.escape)]),
  DecoderCase("Esc Esc is two Escs", esc + esc, [key(.escape), key(.escape)]),
  DecoderCase("Esc before a sequence is Alt: Alt+Left", esc + csi + "D", [key(.moveWordLeft)]),
  DecoderCase(
    "an unfinished CSI is unknown after the timeout", csi + "1;", [key(.unknownSequence)]),
  DecoderCase("an unfinished SS3 is unknown after the timeout", esc + "O", [key(.unknownSequence)]),
  DecoderCase(
    "an unfinished OSC is unknown after the timeout", esc + "]0;ti", [key(.unknownSequence)]),
  DecoderCase(
    "a CSI cut short by a control byte", csi + "1\r", [key(.unknownSequence), key(.submit)]),
  DecoderCase(
    "sequences and text in one read", "a" + csi + "D" + "b" + csi + "3~",
    [
      .text("a"), key(.moveLeft), .text("b"), key(.deleteForward),
    ]),
  DecoderCase(
    "a longer text, then a shorter one: only the shorter one's bytes",
    "héllo" + csi + "D" + "x", [.text("héllo"), key(.moveLeft), .text("x")]),
]

let invalidCases: [DecoderCase] = [
  DecoderCase("a byte that never starts UTF-8", bytes: [0xFF], [key(.invalidText)]),
  DecoderCase("a lone continuation byte", bytes: [0x80], [key(.invalidText)]),
  DecoderCase("an overlong form", bytes: [0xC0, 0xAF], [key(.invalidText)]),
  DecoderCase("a surrogate", bytes: [0xED, 0xA0, 0x80], [key(.invalidText)]),
  DecoderCase("past U+10FFFF", bytes: [0xF4, 0x90, 0x80, 0x80], [key(.invalidText)]),
  DecoderCase(
    "a lead byte cut short by ASCII", bytes: [0xC3, 0x41], [key(.invalidText), .text("A")]),
  DecoderCase(
    "good text, then bad, then good", bytes: [0x61, 0xFF, 0xFE, 0x62],
    [.text("a"), key(.invalidText), .text("b")]),
  DecoderCase("a lead byte that never completes", bytes: [0xE2, 0x82], [key(.invalidText)]),
  DecoderCase("a C1 control as UTF-8 is unknown", bytes: [0xC2, 0x85], [key(.unknownSequence)]),
]

let pasteCases: [DecoderCase] = [
  DecoderCase("a bracketed paste", csi + "200~hello" + csi + "201~", [.paste("hello")]),
  DecoderCase(
    "text, then a paste: the paste has none of the text",
    "abc" + csi + "200~xy" + csi + "201~", [.text("abc"), .paste("xy")]),
  DecoderCase(
    "a paste keeps newlines and control bytes", csi + "200~a\nb\r\u{7F}" + csi + "201~",
    [.paste("a\nb\r\u{7F}")]),
  DecoderCase(
    "a paste keeps escape sequences that are not its end",
    csi + "200~a" + csi + "Ab" + csi + "201~",
    [.paste("a" + csi + "Ab")]),
  DecoderCase(
    "a paste keeps a near end marker", csi + "200~a" + csi + "202~" + csi + "201~",
    [.paste("a" + csi + "202~")]),
  DecoderCase("an empty paste", csi + "200~" + csi + "201~", [.paste("")]),
  DecoderCase(
    "text around a paste", "x" + csi + "200~é😀" + csi + "201~y",
    [.text("x"), .paste("é😀"), .text("y")]),
  DecoderCase("a paste end outside a paste is unknown", csi + "201~", [key(.unknownSequence)]),
]

let kittyCases: [DecoderCase] = [
  DecoderCase("a text key", csi + "97;1;97u", [.text("a")]),
  // The payload of a text event is overwritten by the next text, not wiped
  // first: what comes after must carry none of it.
  DecoderCase(
    "text, then a text key: the key's payload has none of the text",
    "abc" + csi + "98u", [.text("abc"), .text("b")]),
  DecoderCase("a text key without modifiers field", csi + "97;;97u", [.text("a")]),
  DecoderCase("a text key without a text field", csi + "97u", [.text("a")]),
  DecoderCase("shifted text from the text field", csi + "97;2;65u", [.text("A")]),
  DecoderCase("a key with several code points", csi + "101;1;101:769u", [.text("e\u{301}")]),
  DecoderCase("a non-ASCII key", csi + "233;1;233u", [.text("é")]),
  DecoderCase("an emoji key", csi + "128512;1;128512u", [.text("😀")]),
  DecoderCase(
    "caps lock on, then off", csi + "97;65;65u" + csi + "98;1;98u",
    [key(.capsLock(isOn: true)), .text("A"), key(.capsLock(isOn: false)), .text("b")]),
  DecoderCase(
    "caps lock stays on: reported once", csi + "97;65;65u" + csi + "98;65;66u",
    [key(.capsLock(isOn: true)), .text("A"), .text("B")]),
  DecoderCase("Ctrl+C cancels", csi + "99;5u", [key(.cancel)]),
  DecoderCase(
    "Ctrl+C with caps lock cancels", csi + "99;69u", [key(.capsLock(isOn: true)), key(.cancel)]),
  DecoderCase("Ctrl+C with num lock cancels", csi + "99;133u", [key(.cancel)]),
  DecoderCase("Ctrl+U deletes to start", csi + "117;5u", [key(.deleteToStart)]),
  DecoderCase("Ctrl+W deletes a word", csi + "119;5u", [key(.deleteWordBackward)]),
  DecoderCase(
    "Ctrl+Shift+C is a named key", csi + "99;6u", [key(.key(.character("c"), [.control, .shift]))]),
  DecoderCase("kitty Shift+Tab", csi + "9;2u", [key(.key(.tab, .shift))]),
  DecoderCase("kitty Ctrl+R", csi + "114;5u", [key(.key(.character("r"), .control))]),
  DecoderCase("kitty F13", csi + "57376u", [key(.key(.function(13), []))]),
  DecoderCase("Alt+a, never text", csi + "97;3u", [key(.key(.character("a"), .alt))]),
  DecoderCase("Enter", csi + "13u", [key(.submit)]),
  DecoderCase("Enter with caps lock", csi + "13;65u", [key(.capsLock(isOn: true)), key(.submit)]),
  DecoderCase("keypad Enter", csi + "57414u", [key(.submit)]),
  DecoderCase("Backspace", csi + "127u", [key(.deleteBackward)]),
  DecoderCase("Ctrl+Backspace deletes a word", csi + "127;5u", [key(.deleteWordBackward)]),
  DecoderCase("Esc, at once", csi + "27u", [key(.escape)]),
  DecoderCase("Tab", csi + "9u", [key(.tab)]),
  DecoderCase("a release is ignored", csi + "97;1:3u", []),
  DecoderCase("a repeat is a press", csi + "97;1:2;97u", [.text("a")]),
  DecoderCase("a modifier key alone is unknown", csi + "57441;2u", [key(.unknownSequence)]),
  DecoderCase("a surrogate in the text field is invalid", csi + "97;1;55296u", [key(.invalidText)]),
  DecoderCase("a control in the text field is invalid", csi + "97;1;27u", [key(.invalidText)]),
  DecoderCase(
    "an empty code point in the text field is invalid", csi + "97;1;97::98u", [key(.invalidText)]),
  DecoderCase(
    "a letter ends a CSI early: the rest is text", csi + "97;1;9x7u",
    [key(.unknownSequence), .text("7u")]),
  DecoderCase(
    "a legacy arrow with the caps bit", csi + "1;65D", [key(.capsLock(isOn: true)), key(.moveLeft)]),
  DecoderCase(
    "a legacy arrow without it, once the protocol was seen", csi + "97;65;65u" + csi + "D",
    [key(.capsLock(isOn: true)), .text("A"), key(.capsLock(isOn: false)), key(.moveLeft)]),
  DecoderCase(
    "a legacy arrow never reports caps lock without the protocol", csi + "1;5D",
    [key(.moveWordLeft)]),
  DecoderCase(
    "Delete with the caps bit", csi + "3;65~", [key(.capsLock(isOn: true)), key(.deleteForward)]),
]

let allCases = textCases + controlCases + sequenceCases + invalidCases + pasteCases + kittyCases

@Suite("KeyDecoder turns terminal bytes into key events")
struct KeyDecoderTests {
  @Test(
    "text, control keys, escape sequences, invalid UTF-8, bracketed paste and the kitty protocol, in one read",
    arguments: allCases)
  func wholeRead(_ testCase: DecoderCase) throws {
    try testCase.expectDecoded(.whole)
  }

  @Test(
    "the same events one byte per read and at every split into two reads",
    arguments: allCases, [Reads.bytewise, .everyTwoWaySplit(below: .max)])
  func splitReads(_ testCase: DecoderCase, reads: Reads) throws {
    try testCase.expectDecoded(reads)
  }
}
