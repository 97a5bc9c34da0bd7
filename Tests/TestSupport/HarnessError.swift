import Glibc

/// The harness could not do what a test asked (a program did not start, or
/// hung; a system call failed); the message says what and why.
public struct HarnessError: Error, CustomStringConvertible {
  /// What went wrong, in words.
  public let description: String

  /// An error that says `description`.
  public init(_ description: String) { self.description = description }

  /// `what` failed with the system error `errno`.
  public init(what: String, errno: Int32) {
    description = "\(what): \(String(cString: strerror(errno)))"
  }
}
