extension TerminalDevice {
  /// Saves the termios and switches to raw mode, then turns on `features`.
  ///
  /// Raw mode here: echo, canonical mode, signal keys (`ISIG`), extended input
  /// processing (`IEXTEN`), CR-to-NL translation, flow control and eighth-bit
  /// stripping off; a read returns as soon as one byte is there. Output
  /// processing (`OPOST`) stays on, so a prompt's `\n` still returns the carriage
  /// on terminals that translate it; ``ControlSequence/newline`` writes `\r\n`
  /// anyway. Entered with `TCSAFLUSH`: type-ahead typed while echo was still on
  /// is discarded rather than taken into the password.
  ///
  /// Calling it while raw mode is on changes nothing.
  ///
  /// - Throws: ``TerminalError`` with code `terminalModesFailed`; the terminal is
  ///   then as it was.
  package mutating func enterRawMode(features: TerminalFeatures = .prompt) throws(TerminalError) {
    requestedFeatures = features
    guard !changedModes.isRaw else { return }
    let original: Platform.Attributes
    switch Platform.getAttributes(descriptor) {
    case .success(let attributes): original = attributes
    case .failure(let errno): throw .modesFailed("read the modes", errno: errno)
    }
    if let failure = Platform.setAttributesFlushingInput(descriptor, original.rawMode) {
      throw .modesFailed("switch off echo", errno: failure)
    }
    self.original = original
    changedModes.isRaw = true
    FaultRestore.arm(descriptor: descriptor, original: original.raw)
    do throws(TerminalError) {
      if features.contains(.bracketedPaste) {
        FaultRestore.note(FaultRestore.bracketedPaste, isOn: true)
        try write(ControlSequence.enableBracketedPaste)
        changedModes.bracketedPaste = true
      }
      if features.contains(.focusReporting) {
        FaultRestore.note(FaultRestore.focusReporting, isOn: true)
        try write(ControlSequence.enableFocusReporting)
        changedModes.focusReporting = true
      }
    } catch {
      restoreModes()
      throw error
    }
  }

  /// Pushes kitty keyboard flags (`CSI > flags u`); ``restoreModes()`` pops them.
  ///
  /// Push only after the terminal answered the flags query (`CSI ? u`): a
  /// terminal without the protocol may show the sequence. A second push while
  /// flags are pushed changes nothing.
  ///
  /// - Throws: ``TerminalError`` with code `writeFailed`.
  package mutating func pushKeyboardFlags(_ flags: KeyboardFlags) throws(TerminalError) {
    requestedKeyboardFlags = flags
    guard changedModes.pushedKeyboardFlags == nil else { return }
    FaultRestore.note(FaultRestore.keyboardFlags, isOn: true)
    try write(ControlSequence.pushKeyboardFlags(flags))
    changedModes.pushedKeyboardFlags = flags
  }

  /// Undoes every change in ``changedModes``: pops the keyboard flags, turns
  /// focus reporting and bracketed paste off, and sets the saved termios back
  /// with `TCSAFLUSH` (so a reply or key that arrives late is not echoed).
  ///
  /// Idempotent: a second call finds nothing to undo. Safe to call from the main
  /// loop after a signal. Never throws: on the way out there is nothing better
  /// to do with a failure than to go on restoring the rest; it returns false
  /// when some step failed (the terminal is gone, or this process is in the
  /// background).
  @discardableResult
  package mutating func restoreModes() -> Bool {
    let restored = Self.restore(descriptor: descriptor, modes: &changedModes, original: original)
    if !changedModes.isRaw { original = nil }
    return restored
  }

  /// Enters raw mode again with what was asked before, after the process was
  /// stopped and continued (`SIGCONT`).
  ///
  /// After a stop the prompt saw (TSTP, TTIN, TTOU: the modes were restored
  /// first), reads the termios afresh, since the shell may have changed them
  /// while the prompt was stopped and those are what to restore at the end.
  /// After a stop it could not see (`SIGSTOP`, so raw mode is still on in the
  /// record), sets raw mode and the reports again: a shell such as bash puts
  /// its own modes back while a job is stopped. Keyboard flags are not pushed
  /// twice.
  ///
  /// The termios are set (with `TCSAFLUSH`) only when they are not raw mode
  /// already: keys typed while raw mode stayed on were not echoed and are
  /// kept. That covers the `SIGCONT` that follows the prompt's own stop, whose
  /// raw mode is on again by the time the relay hands it over, and a key typed
  /// right after it.
  ///
  /// - Returns: false, changing nothing, when the process is not in the
  ///   foreground (it was continued with `bg`); stop again and wait for the next
  ///   `SIGCONT`.
  /// - Throws: ``TerminalError`` as ``enterRawMode(features:)``.
  package mutating func resumeRawMode() throws(TerminalError) -> Bool {
    guard isForeground else { return false }
    if changedModes.isRaw, let original {
      let rawMode = original.rawMode
      let current = try? Platform.getAttributes(descriptor).get()
      if current.map({ !$0.hasSameModes(as: rawMode) }) ?? true,
        let failure = Platform.setAttributesFlushingInput(descriptor, rawMode)
      {
        throw .modesFailed("switch off echo", errno: failure)
      }
      var sequences = ""
      if changedModes.bracketedPaste { sequences += ControlSequence.enableBracketedPaste }
      if changedModes.focusReporting { sequences += ControlSequence.enableFocusReporting }
      try write(sequences)
      return true
    }
    try enterRawMode(features: requestedFeatures)
    if let flags = requestedKeyboardFlags { try pushKeyboardFlags(flags) }
    return true
  }

  /// Pops the keyboard flags and turns focus reporting and bracketed paste
  /// off, as ``restoreModes()`` does first, leaving raw mode on: a prompt that
  /// wants to know the terminal took them (its reply to a query sent after
  /// them) reads that reply before the termios give the signal keys back.
  ///
  /// - Returns: false when the write failed.
  @discardableResult
  package mutating func resetPrivateModes() -> Bool {
    Self.resetPrivateModes(descriptor: descriptor, modes: &changedModes)
  }

  /// The restore steps, shared by ``restoreModes()`` and `deinit`.
  @discardableResult
  static func restore(
    descriptor: Int32, modes: inout TerminalModes, original: Platform.Attributes?
  ) -> Bool {
    var succeeded = resetPrivateModes(descriptor: descriptor, modes: &modes)
    if modes.isRaw, let original {
      if Platform.setAttributesFlushingInput(descriptor, original) != nil { succeeded = false }
      modes.isRaw = false
      FaultRestore.disarm()
    }
    return succeeded
  }

  /// The private modes' part of ``restore(descriptor:modes:original:)``.
  static func resetPrivateModes(descriptor: Int32, modes: inout TerminalModes) -> Bool {
    var sequences = ""
    if modes.pushedKeyboardFlags != nil { sequences += ControlSequence.popKeyboardFlags }
    if modes.focusReporting { sequences += ControlSequence.disableFocusReporting }
    if modes.bracketedPaste { sequences += ControlSequence.disableBracketedPaste }
    var succeeded = true
    if !sequences.isEmpty {
      let failure = sequences.withUTF8 {
        Platform.writeAll(descriptor, UnsafeRawBufferPointer($0))
      }
      succeeded = failure == nil
      // Wait until the terminal has taken them (and the last frame before
      // them): the tool may exit at once. `TCSAFLUSH` below drains too, but
      // not when it fails or is not done; from the background the drain
      // would stop the process, so only in the foreground.
      if Platform.isForeground(descriptor) { Platform.drainOutput(descriptor) }
      modes.pushedKeyboardFlags = nil
      modes.focusReporting = false
      modes.bracketedPaste = false
      // A fault from here on must not undo them a second time (a second pop
      // would take the shell's flags).
      FaultRestore.note(
        FaultRestore.keyboardFlags | FaultRestore.focusReporting | FaultRestore.bracketedPaste,
        isOn: false)
    }
    return succeeded
  }
}
