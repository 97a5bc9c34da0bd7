/// A kind of failure, by name.
///
/// Each error type of the package has its own set of codes, the static
/// members of its `Code` (`FieldError.Code.cutRefused`,
/// `SecureMemoryError.Code.lockFailed`): compare an error's code with them.
/// Only the package makes codes, and codes of two error types never compare.
public struct ErrorCode<Failure>: Hashable, Sendable, CustomStringConvertible {
  /// The code's name, as in `cutRefused`.
  public let description: String

  /// The code named after the static member that makes it: `name` is
  /// `#function`, so in `static var cutRefused: Self { Self() }` the code's
  /// name is `cutRefused`, written once.
  package init(_ name: String = #function) { description = name }
}
