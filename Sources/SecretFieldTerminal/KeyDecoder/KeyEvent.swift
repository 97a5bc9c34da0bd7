public import SecretField

/// One thing the user (or the terminal) did, decoded from the terminal's bytes by
/// the package's key decoder.
///
/// Events carry no secret: the bytes of ``text`` and ``paste`` stay in the
/// decoder's secure payload buffer, which lends them to the prompt in place.
/// Editing keys are named for the edit they mean in a single-line field; keys
/// whose meaning the prompt decides (Tab, Esc, ^D) are named for the key.
public enum KeyEvent: Sendable, Hashable {
  /// Text to insert: valid UTF-8, no control characters, in the payload. Text
  /// that arrived together (one keystroke's bytes, an emoji from an input method)
  /// is one event, so its grapheme clusters form as a whole.
  case text
  /// A bracketed paste (`CSI 200~ … CSI 201~`), its bytes in the payload as the
  /// terminal sent them: newlines included, UTF-8 not checked (the field refuses
  /// what it does not take).
  case paste
  /// A bracketed paste longer than the decoder's limit (8 KiB by default);
  /// its bytes were wiped as they arrived.
  case pasteTooLong
  /// Bytes that are not UTF-8 (or a character that never completed): ring the
  /// bell and say so; the field stays as it was.
  case invalidText

  /// Enter (CR or LF, keypad Enter): submit.
  case submit
  /// ^C: cancel.
  case cancel
  /// ^D: the prompt decides (cancel when the field is empty).
  case endOfInput
  /// ^L: draw the prompt anew.
  case redraw
  /// ^Z: the prompt stops itself, as the terminal's suspend key would have done
  /// before raw mode turned the signal keys (`ISIG`) off.
  case suspend
  /// Tab: the prompt decides (toggle reveal, or nothing).
  case tab
  /// Esc alone (nothing followed within the escape timeout, or the kitty
  /// protocol's Esc key): the prompt cancels.
  case escape

  /// Backspace (DEL or ^H).
  case deleteBackward
  /// Delete (`CSI 3~`).
  case deleteForward
  /// ^U.
  case deleteToStart
  /// ^K.
  case deleteToEnd
  /// ^W, Ctrl+Backspace, Alt+Backspace in the kitty protocol.
  case deleteWordBackward
  /// Left arrow, ^B.
  case moveLeft
  /// Right arrow, ^F.
  case moveRight
  /// Ctrl+Left or Alt+Left (`CSI 1;5D`).
  case moveWordLeft
  /// Ctrl+Right or Alt+Right (`CSI 1;5C`).
  case moveWordRight
  /// Home, ^A.
  case moveToStart
  /// End, ^E.
  case moveToEnd

  /// The terminal gained focus (`CSI I`).
  case focusIn
  /// The terminal lost focus (`CSI O`).
  case focusOut
  /// The caps-lock state changed, as the kitty keyboard protocol reports it
  /// with each key. Comes before the key that reported it.
  case capsLock(isOn: Bool)
  /// The terminal's reply to the kitty flags query (`CSI ? flags u`): it
  /// supports the protocol.
  case keyboardFlags(KeyboardFlags)
  /// The reply to the primary device attributes request (`CSI ? … c`).
  case deviceAttributes

  /// A key the prompt gives no meaning of its own, by name and modifiers, for
  /// a host to bind: Shift-Tab is `.key(.tab, .shift)`, Ctrl+R is
  /// `.key(.character("r"), .control)`, F2 is `.key(.function(2), [])`.
  /// Never text: a character with Ctrl or Alt is a key, not typing.
  case key(Key, Modifiers)

  /// A sequence the decoder cannot name (an OSC string, a key of a private
  /// encoding), consumed whole: never inserted. Its bytes are in the payload,
  /// for a host that knows them (a sequence is never text, so never secret).
  case unknownSequence
}

extension KeyEvent {
  /// A key named in a ``KeyEvent/key(_:_:)`` event: the field's own names,
  /// so a terminal key is the `FieldKey` the field's bindings look up. A
  /// letter, digit or punctuation key comes here only pressed with Ctrl or
  /// Alt; alone, it is ``KeyEvent/text``. Tab, Enter, Esc, Backspace and
  /// Delete come alone as their own events.
  public typealias Key = FieldKey.Name

  /// The modifiers held with a key: the field's own, so the terminal's keys
  /// and the field's bindings name them alike.
  public typealias Modifiers = FieldKey.Modifiers
}
