/// The escape sequences the prompt writes, by what they do.
///
/// Each is plain ASCII and carries no secret, so it is an ordinary `String`: a
/// literal, whose bytes the prompt copies from the binary. The counted ones
/// (`cursorToColumn`, `cursorUp`) are written digit by digit into a frame's
/// ``ScreenOutput`` rather than built here, on the key path.
/// Counts below 1 produce nothing, since `CSI 0 C` means "move by one" to most
/// terminals.
package enum ControlSequence {
  /// `CSI ? 2004 h`: pastes arrive bracketed by `CSI 200~` and `CSI 201~`.
  package static let enableBracketedPaste = "\u{1B}[?2004h"
  /// `CSI ? 2004 l`.
  package static let disableBracketedPaste = "\u{1B}[?2004l"
  /// `CSI ? 1004 h`: the terminal reports focus in and out as `CSI I`, `CSI O`.
  package static let enableFocusReporting = "\u{1B}[?1004h"
  /// `CSI ? 1004 l`.
  package static let disableFocusReporting = "\u{1B}[?1004l"
  /// `CSI ? u`: asks for the current kitty keyboard flags; a terminal that
  /// supports the protocol answers `CSI ? flags u`.
  package static let queryKeyboardFlags = "\u{1B}[?u"
  /// `CSI c`: primary device attributes; every terminal answers `CSI ? … c`, so
  /// the answer marks the end of the replies to the queries before it.
  package static let requestDeviceAttributes = "\u{1B}[c"
  /// `CSI < u`: pops one entry of kitty keyboard flags.
  package static let popKeyboardFlags = "\u{1B}[<u"
  /// `CSI > flags u`: pushes kitty keyboard flags.
  package static func pushKeyboardFlags(_ flags: KeyboardFlags) -> String {
    "\u{1B}[>\(flags.rawValue)u"
  }

  /// `CSI`: what every sequence with a count starts with.
  static let controlSequenceIntroducer = "\u{1B}["

  /// `CR`: the cursor to the first column.
  package static let carriageReturn = "\r"
  /// `CR LF`: the start of the next line, with or without the terminal's `ONLCR`.
  package static let newline = "\r\n"
  /// `BEL`.
  package static let bell = "\u{07}"
  /// `CSI K`: erases from the cursor to the end of the line.
  package static let eraseToEndOfLine = "\u{1B}[K"
  /// `CSI J`: erases from the cursor to the end of the screen.
  package static let eraseToEndOfScreen = "\u{1B}[J"
  /// `CSI 2 m`: dim (faint) text, for hints.
  package static let dim = "\u{1B}[2m"
  /// `CSI 0 m`: ends every attribute.
  package static let resetAttributes = "\u{1B}[0m"

  /// `CSI n C`: the cursor `count` columns right.
  package static func cursorForward(_ count: Int) -> String {
    count > 0 ? "\u{1B}[\(count)C" : ""
  }
  /// `CSI n D`: the cursor `count` columns left.
  package static func cursorBackward(_ count: Int) -> String {
    count > 0 ? "\u{1B}[\(count)D" : ""
  }
  /// `CSI n A`: the cursor `count` lines up.
  package static func cursorUp(_ count: Int) -> String {
    count > 0 ? "\u{1B}[\(count)A" : ""
  }
  /// `CSI n B`: the cursor `count` lines down.
  package static func cursorDown(_ count: Int) -> String {
    count > 0 ? "\u{1B}[\(count)B" : ""
  }
  /// `CSI n G`: the cursor to column `column`, counted from 0 (the sequence
  /// counts from 1).
  package static func cursorToColumn(_ column: Int) -> String {
    "\u{1B}[\(max(0, column) + 1)G"
  }
}
