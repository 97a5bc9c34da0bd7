/// An error of the package, in words a user can act on: what kind it is
/// (``code``), the `errno` the kernel reported where it reported one, and a
/// sentence to show (``description``) that never holds a secret.
///
/// `SecureMemoryError`, `KeyringError`, `FieldError`, `TerminalError` and
/// `PinentryError` are coded errors. Compare by ``code``; show
/// ``description``:
///
/// ```swift
/// catch let error as SecureMemoryError where error.code == .lockFailed {
///   print(error)  // says how to raise the locked-memory limit
/// }
/// ```
public protocol CodedError: Error, Hashable, CustomStringConvertible {
  /// What the error says.
  var details: ErrorDetails<Self> { get }
  /// An error that says what `details` says.
  init(details: ErrorDetails<Self>)
}

extension CodedError {
  /// The error's kinds of failure: compare ``code`` with its static members
  /// (`FieldError.Code.cutRefused`).
  public typealias Code = ErrorCode<Self>

  /// What kind of failure this is: compare with the static members of the
  /// error type's `Code`.
  public var code: ErrorCode<Self> { details.code }
  /// The `errno` the kernel reported, where it reported one.
  public var errno: Int32? { details.errno }
  /// A sentence that says what happened and what to do about it.
  public var description: String { details.description }

  /// An error of `code`, with the kernel's `errno` where there is one.
  package init(_ code: ErrorCode<Self>, errno: Int32? = nil, _ description: String) {
    self.init(details: ErrorDetails(code: code, errno: errno, description: description))
  }
}
