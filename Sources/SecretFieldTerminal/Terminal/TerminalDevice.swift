/// A terminal opened for a prompt: the descriptor, the modes as they were found,
/// and the record of every mode the prompt changed.
///
/// Opens `/dev/tty` (the controlling terminal) by default, so a prompt works
/// when standard input is a pipe and never writes into standard output. The
/// device is `~Copyable`: one owner restores the modes and closes the
/// descriptor, and dropping it does both, so a thrown error on the way out still
/// leaves the terminal as it was found.
package struct TerminalDevice: ~Copyable {
  /// The open descriptor, for `poll` and for `SecureBuffer`'s
  /// `read(from:)` and `write(to:)`. Do not close it: the device does.
  package let descriptor: Int32
  /// The path that was opened.
  package let path: String
  /// What the prompt changed and has not restored yet.
  package internal(set) var changedModes = TerminalModes()
  /// The termios as they were before raw mode, while raw mode is on.
  var original: Platform.Attributes?
  /// What the last ``enterRawMode(features:)`` and ``pushKeyboardFlags(_:)``
  /// asked for, so that ``resumeRawMode()`` can ask again after a stop.
  var requestedFeatures: TerminalFeatures = []
  var requestedKeyboardFlags: KeyboardFlags?

  /// The controlling terminal's path.
  package static let controllingTerminalPath = "/dev/tty"

  /// Opens a terminal for reading and writing (`open` with `O_RDWR | O_NOCTTY |
  /// O_CLOEXEC`), the controlling terminal by default or `path` (a pinentry is
  /// told the terminal's name by its caller).
  ///
  /// - Throws: ``TerminalError`` with code `noTerminal` when there is no
  ///   controlling terminal or the path cannot be opened, `notATerminal` when it
  ///   is not a terminal; the message says to give the secret another way.
  package init(path: String = TerminalDevice.controllingTerminalPath) throws(TerminalError) {
    let descriptor: Int32
    switch Platform.openTerminal(path) {
    case .success(let opened): descriptor = opened
    case .failure(let errno): throw .noTerminal(path: path, errno: errno)
    }
    guard Platform.isTerminal(descriptor) else {
      Platform.close(descriptor)
      throw .notATerminal(path: path)
    }
    self.descriptor = descriptor
    self.path = path
  }

  deinit {
    var modes = changedModes
    Self.restore(descriptor: descriptor, modes: &modes, original: original)
    Platform.close(descriptor)
  }

  /// The terminal's size in columns and rows (`TIOCGWINSZ`), or nil when it
  /// reports none (some pseudo-terminals report 0 × 0).
  package var size: (columns: Int, rows: Int)? { Platform.windowSize(descriptor) }

  /// True when this process's group is the terminal's foreground group
  /// (`tcgetpgrp` = `getpgrp`): only then may it change the terminal's modes
  /// without being stopped by `SIGTTOU`.
  package var isForeground: Bool { Platform.isForeground(descriptor) }

  /// Writes `text` to the terminal. Only for what is not secret: prompts, masks,
  /// escape sequences. Secret bytes go out with `SecureBuffer.write(to:range:)`.
  ///
  /// - Throws: ``TerminalError`` with code `writeFailed`.
  package func write(_ text: String) throws(TerminalError) {
    var text = text
    let failure = text.withUTF8 { Platform.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    if let failure { throw .writeFailed(errno: failure) }
  }
}
