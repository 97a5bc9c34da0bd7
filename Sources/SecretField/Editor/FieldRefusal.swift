/// Why ``FieldEditor`` refused a command. The field is as it was; a front end
/// rings its bell and says why, in these words or its own.
public enum FieldRefusal: Sendable, Hashable, CustomStringConvertible {
  /// Typed bytes that are not UTF-8, or a control character.
  case invalidText
  /// A paste with a line break before its end.
  case pasteWithLineBreak
  /// A paste with a tab or another control character.
  case pasteWithControlCharacter
  /// A paste longer than the field takes.
  case pasteTooLong
  /// Pasting is turned off (``FieldPolicy/noPaste``).
  case pasteRefused
  /// A paste from the clipboard: the clipboard is never read.
  case clipboardNotRead
  /// A copy or a cut: a password is never handed to a clipboard.
  case copyOrCutRefused
  /// The field is full (``FieldLimits``).
  case fieldFull
  /// Enter before the field holds this many characters.
  case tooShort(minimum: Int)
  /// Reveal while the screen or session is recorded or shared: the front end
  /// says by what, where it knows.
  case revealRefused
  /// Reveal where the front end offers none (an echo-less prompt).
  case revealUnavailable
  /// Secure memory could not grow for the text.
  case memoryUnavailable

  /// The refusal in English, for the line under the field.
  public var description: String {
    switch self {
    case .invalidText: "That key typed text that is not UTF-8; nothing was typed."
    case .pasteWithLineBreak: "Not pasted: the text holds a line break."
    case .pasteWithControlCharacter: "Not pasted: the text holds a control character."
    case .pasteTooLong: "Not pasted: the text is too long."
    case .pasteRefused: "Pasting is turned off here."
    case .clipboardNotRead: "Pasting into this field is turned off: the clipboard is never read."
    case .copyOrCutRefused: "A password can't be copied or cut."
    case .fieldFull: "The password cannot be any longer."
    case .tooShort(let minimum): "Too short: use at least \(minimum) characters."
    case .revealRefused: "The password can't be shown while the screen is recorded or shared."
    case .revealUnavailable: "The password is not shown here."
    case .memoryUnavailable: "The text could not be kept in secure memory."
    }
  }
}
