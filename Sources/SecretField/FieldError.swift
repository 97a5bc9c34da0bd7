import SecureMemory

/// Why a field refused an edit or a request, in words a user can act on.
///
/// Whenever a ``SecretFieldState`` method throws one, the field is exactly as it
/// was before the call: text, caret, selection and reveal state. Compare by
/// ``code``; show ``description`` to a user. The description never contains the
/// field's content.
public struct FieldError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of refusal this is. Compare with the static members.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Hashable, Sendable {
      case copyRefused, cutRefused, pasteRefused, revealRefused
      case tooManyCharacters, tooManyBytes, invalidUTF8, controlCharacter
      case ambiguousEdit, outOfSync, memoryUnavailable
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// Copying is refused by ``FieldPolicy/noCopy``.
    public static let copyRefused = Code(.copyRefused)
    /// Cutting is refused by ``FieldPolicy/noCut``.
    public static let cutRefused = Code(.cutRefused)
    /// Pasting is refused by ``FieldPolicy/noPaste``.
    public static let pasteRefused = Code(.pasteRefused)
    /// Revealing is refused while the screen is captured under
    /// ``FieldPolicy/maskOnCapture``.
    public static let revealRefused = Code(.revealRefused)
    /// The edit would pass ``FieldLimits/maxCharacters``.
    public static let tooManyCharacters = Code(.tooManyCharacters)
    /// The edit would pass ``FieldLimits/maxBytes``.
    public static let tooManyBytes = Code(.tooManyBytes)
    /// The text to insert is not well-formed UTF-8.
    public static let invalidUTF8 = Code(.invalidUTF8)
    /// The text to insert holds a control character (C0, DEL or C1).
    public static let controlCharacter = Code(.controlCharacter)
    /// A host's masked snapshot fits more than one edit, or none that replaces the
    /// selection; the adapter will not guess.
    public static let ambiguousEdit = Code(.ambiguousEdit)
    /// A host's range, selection or display line does not match the field.
    public static let outOfSync = Code(.outOfSync)
    /// The secure buffer could not grow (see `SecureMemoryError`).
    public static let memoryUnavailable = Code(.memoryUnavailable)

    /// The code's name, as in `copyRefused`.
    public var description: String { value.rawValue }
  }

  /// What kind of refusal this is.
  public let code: Code
  /// The `errno` behind a ``Code/memoryUnavailable``, where the kernel gave one.
  public let errno: Int32?
  /// A sentence that says what was refused, why, and what to do about it.
  public let description: String

  init(_ code: Code, errno: Int32? = nil, _ description: String) {
    self.code = code
    self.errno = errno
    self.description = description
  }
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
