public import SecureMemory

/// Why a field refused an edit or a request, in words a user can act on.
///
/// Whenever a ``SecretFieldState`` method throws one, the field is exactly as it
/// was before the call: text, caret, selection and reveal state. Compare by
/// `code`; show `description` to a user. The description never contains the
/// field's content.
public struct FieldError: CodedError {
  /// What it says: its code, the `errno` where there is one, its sentence.
  public let details: ErrorDetails<FieldError>

  /// An error that says `details`.
  public init(details: ErrorDetails<FieldError>) { self.details = details }
}

extension FieldError {
  static let copyRefused = FieldError(
    .copyRefused, "copying is turned off for this password field")
  static let cutRefused = FieldError(
    .cutRefused, "cutting is turned off for this password field")
  static let pasteRefused = FieldError(
    .pasteRefused, "pasting is turned off for this password field")
  static let revealRefused = FieldError(
    .revealRefused,
    "the password cannot be shown while the screen is being recorded or shared; "
      + "stop the recording, then try again")
  static let invalidUTF8 = FieldError(
    .invalidUTF8, "the text is not valid UTF-8; nothing was inserted")
  static let controlCharacter = FieldError(
    .controlCharacter,
    "the text contains a control character (such as a tab, a line break or an escape), "
      + "which a password field does not take; nothing was inserted")

  static func tooManyCharacters(limit: Int) -> FieldError {
    FieldError(
      .tooManyCharacters,
      "a password in this field can have at most \(limit) characters; nothing was inserted")
  }

  static func tooManyBytes(limit: Int) -> FieldError {
    FieldError(
      .tooManyBytes,
      "a password in this field can take at most \(limit) bytes of UTF-8; nothing was inserted")
  }

  static func ambiguousEdit(_ why: String) -> FieldError {
    FieldError(.ambiguousEdit, "cannot tell which edit the masked text shows: \(why)")
  }

  static func outOfSync(_ why: String) -> FieldError {
    FieldError(.outOfSync, "the text view and the password field are out of step: \(why)")
  }

  static func memoryUnavailable(_ error: SecureMemoryError) -> FieldError {
    FieldError(.memoryUnavailable, errno: error.errno, error.description)
  }
}

extension ErrorCode where Failure == FieldError {
  /// Copying is refused by ``FieldPolicy/noCopy``.
  public static var copyRefused: Self { Self() }
  /// Cutting is refused by ``FieldPolicy/noCut``.
  public static var cutRefused: Self { Self() }
  /// Pasting is refused by ``FieldPolicy/noPaste``.
  public static var pasteRefused: Self { Self() }
  /// Revealing is refused while the screen is captured under
  /// ``FieldPolicy/maskOnCapture``.
  public static var revealRefused: Self { Self() }
  /// The edit would pass ``FieldLimits/maxCharacters``.
  public static var tooManyCharacters: Self { Self() }
  /// The edit would pass ``FieldLimits/maxBytes``.
  public static var tooManyBytes: Self { Self() }
  /// The text to insert is not well-formed UTF-8.
  public static var invalidUTF8: Self { Self() }
  /// The text to insert holds a control character (C0, DEL or C1).
  public static var controlCharacter: Self { Self() }
  /// A host's masked snapshot fits more than one edit, or none that replaces the
  /// selection; the adapter will not guess.
  public static var ambiguousEdit: Self { Self() }
  /// A host's range, selection or display line does not match the field.
  public static var outOfSync: Self { Self() }
  /// The secure buffer could not grow (see `SecureMemoryError`).
  public static var memoryUnavailable: Self { Self() }
}
