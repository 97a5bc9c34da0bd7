/// What a ``CodedError`` says: its code, the `errno` the kernel reported
/// where it reported one, and a sentence for a user.
public struct ErrorDetails<Failure>: Hashable, Sendable {
  /// What kind of failure this is.
  public let code: ErrorCode<Failure>
  /// The `errno` the kernel reported, where it reported one.
  public let errno: Int32?
  /// A sentence that says what happened and what to do about it; never a
  /// secret.
  public let description: String

  package init(code: ErrorCode<Failure>, errno: Int32?, description: String) {
    self.code = code
    self.errno = errno
    self.description = description
  }
}
