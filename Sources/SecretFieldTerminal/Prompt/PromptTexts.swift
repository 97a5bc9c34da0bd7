/// The words a ``PasswordPrompt`` shows: the hint line and its messages.
///
/// English by default. A caller with its own wording (a pinentry given
/// gpg-agent's translated labels) replaces what it has. None of them carries a
/// secret.
public struct PromptTexts: Sendable, Hashable {
  /// The hint for Tab while the text is masked.
  public var reveal = "Tab show"
  /// The hint for Tab while the text is shown.
  public var hide = "Tab hide"
  /// The hint for Enter.
  public var submit = "Enter OK"
  /// The hint for Esc.
  public var cancel = "Esc cancel"
  /// Said in the hint when the typing is not shown at all.
  public var silentTyping = "typing is not shown"
  /// What joins the parts of the hint; nil for " · " on a UTF-8 terminal and
  /// " | " elsewhere.
  public var hintSeparator: String? = nil
  /// Shown while caps lock is on, where the terminal reports it.
  public var capsLock = "Caps Lock is on"
  /// Shown after the two entries of a confirmation differed.
  public var mismatch = "The entries didn't match; type the password again."
  /// Shown when Enter is pressed before ``PromptConfiguration/minimumLength``
  /// characters; `{minimum}` stands for the number.
  public var tooShort = "Too short: use at least {minimum} characters."
  /// The label of the strength line (``PromptConfiguration/strength``).
  public var strength = "Strength"
  /// Shown when Enter is pressed on a password the strength rules refuse;
  /// `{reasons}` stands for the reasons, joined by the hint's separator.
  public var strengthRefused = "Not accepted: {reasons}."
  /// Shown when the terminal sent bytes that are not UTF-8.
  public var invalidText = "The terminal sent text that is not UTF-8; nothing was typed."
  /// Shown when a paste holds a line break before its end.
  public var pasteWithLineBreak = "Not pasted: the text holds a line break."
  /// Shown when a paste holds a tab or another control character.
  public var pasteWithControlCharacter = "Not pasted: the text holds a control character."
  /// Shown when a paste is longer than the field takes.
  public var pasteTooLong = "Not pasted: the text is too long."
  /// Shown when pasting is turned off (`FieldPolicy/noPaste`).
  public var pasteRefused = "Pasting is turned off here."
  /// Shown when the field is full.
  public var fieldFull = "The password cannot be any longer."
  /// Shown when Tab is pressed while the session is recorded or shared.
  public var revealRefusedWhileCaptured =
    "The password can't be shown while this session is recorded or shared."
  /// Shown when Tab is pressed while the session is recorded and the prompt
  /// knows by what; `{reason}` stands for the reason, as in "asciinema is
  /// recording this terminal".
  public var revealRefusedBecause = "{reason}, so the password can't be shown."

  /// The English defaults.
  public init() {}

  /// ``tooShort`` with the number in place of `{minimum}`.
  public func tooShortMessage(minimum: Int) -> String {
    Self.replacing("{minimum}", in: tooShort, with: String(minimum))
  }

  /// ``strengthRefused`` with `reasons` in place of `{reasons}`.
  public func strengthRefusedMessage(reasons: String) -> String {
    Self.replacing("{reasons}", in: strengthRefused, with: reasons)
  }

  /// ``revealRefusedBecause`` with `reason` in place of `{reason}`.
  public func revealRefusedMessage(reason: String) -> String {
    Self.replacing("{reason}", in: revealRefusedBecause, with: reason)
  }

  private static func replacing(
    _ placeholder: String, in template: String, with value: String
  ) -> String {
    var message = ""
    var rest = Substring(template)
    while let range = rest.firstRange(of: placeholder) {
      message += rest[..<range.lowerBound] + value
      rest = rest[range.upperBound...]
    }
    return message + rest
  }
}
