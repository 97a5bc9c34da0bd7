import SystemCalls
public import SecureMemory

/// Why ``ChildProcess/run(_:standardInput:range:appendingNewline:)`` could not hand
/// the secret over, in words the end user can act on.
///
/// Compare by ``code``; show ``description``.
public struct ChildProcessError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure this is. Compare with the static members.
  public typealias Code = ErrorCode<ChildProcessError>

  /// What kind of failure this is.
  public let code: Code
  /// The `errno` the kernel reported.
  public let errno: Int32?
  /// How the program ended, when it was started.
  public let termination: ChildProcess.Termination?
  /// A sentence that says what happened.
  public let description: String

  static func notStarted(_ arguments: [String], errno: Errno) -> Self {
    let program = arguments[0]
    let hint = errno == .noSuchFile ? "; is it installed and on PATH?" : ""
    return Self(
      code: .notStarted, errno: errno.code, termination: nil,
      description: "cannot run \(program): \(errno.description)\(hint)")
  }

  static func inputNotRead(
    _ arguments: [String], termination: ChildProcess.Termination, errno: Int32?
  ) -> Self {
    let cause = errno.map { Errno($0).description } ?? "the write failed"
    return Self(
      code: .inputNotRead, errno: errno, termination: termination,
      description:
        "\(arguments[0]) did not read the secret on its standard input (\(cause)); it ended "
        + "with \(termination)")
  }
}

extension ErrorCode where Failure == ChildProcessError {
  /// The program could not be started: not found on `PATH`, not executable,
  /// or no pipe or process could be had.
  public static var notStarted: Self { Self() }
  /// The program closed its standard input before it had read the whole
  /// secret (`EPIPE`), or writing to it failed otherwise.
  public static var inputNotRead: Self { Self() }
}
