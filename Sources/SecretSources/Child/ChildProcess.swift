public import SecureMemory
import SystemCalls

/// Runs a program with a secret on its standard input, as `sshpass -d` or
/// `cryptsetup --key-file=-` take it: never in its arguments or environment,
/// where other users' `ps` and `/proc/PID/environ` would show it.
///
/// ```swift
/// let ending = try ChildProcess.run(["cryptsetup", "open", "--key-file=-", device, "data"],
///                                   standardInput: password)
/// ```
public enum ChildProcess {
  /// How the program ended.
  public enum Termination: Sendable, Hashable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// This signal ended it.
    case signalled(Int32)

    /// `exit status 2`, `signal 15 (SIGTERM)`.
    public var description: String {
      switch self {
      case .exited(let status): "exit status \(status)"
      case .signalled(let signal): "signal \(signal) (SIG\(System.signalName(signal)))"
      }
    }
  }

  /// Starts `arguments` without a shell (`posix_spawnp`, the program found on
  /// `PATH`), writes `secret` into a pipe on its standard input from inside the
  /// buffer's read window, closes the pipe, and waits for the program to end.
  ///
  /// The child inherits this process's environment, standard output and
  /// standard error, starts with no signal blocked and `SIGPIPE` at its
  /// default action. A child that stops reading before it has everything makes
  /// the write fail with `EPIPE`, which is an error here, never a `SIGPIPE`
  /// that ends this process (see `SecureBuffer/write(to:range:)`).
  /// A secret longer than the pipe's buffer (64 KiB) is written while the child
  /// reads; one that fits never waits for it.
  ///
  /// - Parameters:
  ///   - arguments: the program and its arguments.
  ///   - secret: what the program reads on standard input.
  ///   - range: the part of `secret` it reads (an entry of a larger buffer);
  ///     all of it by default.
  ///   - appendingNewline: a line feed after the secret, for programs that read
  ///     a line.
  /// - Returns: how the program ended; a status other than 0 is not an error
  ///   here.
  /// - Throws: ``ChildProcessError`` when the program cannot be started, or it
  ///   closed its standard input before reading the whole secret (it is still
  ///   waited for).
  public static func run(
    _ arguments: [String], standardInput secret: borrowing SecureBuffer,
    range: Range<Int>? = nil, appendingNewline: Bool = false
  ) throws(ChildProcessError) -> Termination {
    precondition(!arguments.isEmpty, "ChildProcess.run needs at least the program's name")
    if let range {
      precondition(
        range.lowerBound >= 0 && range.upperBound <= secret.count,
        "ChildProcess.run: range \(range) out of bounds for count \(secret.count)")
    }
    let ends: (read: Int32, write: Int32)
    switch System.makePipe() {
    case .success(let pipe): ends = pipe
    case .failure(let errno): throw .notStarted(arguments, errno: errno)
    }
    let processID: Int32
    switch System.spawn(arguments, streams: StandardStreams(input: .descriptor(ends.read))) {
    case .success(let started): processID = started
    case .failure(let errno):
      System.close(ends.read)
      System.close(ends.write)
      throw .notStarted(arguments, errno: errno)
    }
    System.close(ends.read)

    var writeError: SecureMemoryError?
    do {
      try secret.write(to: ends.write, range: range)
      if appendingNewline { try Self.newline().write(to: ends.write) }
    } catch {
      writeError = error
    }
    System.close(ends.write)
    let termination: Termination =
      switch System.wait(for: processID) {
      case .exited(let status): .exited(status)
      case .signalled(let signal): .signalled(signal)
      case nil: preconditionFailure("a wait without a deadline returns a status")
      }
    if let writeError {
      throw .inputNotRead(arguments, termination: termination, errno: writeError.errno)
    }
    return termination
  }

  /// A line feed in secure memory, so that it goes out through the same path
  /// as the secret (`SIGPIPE` held off, `EPIPE` reported).
  private static func newline() throws(SecureMemoryError) -> SecureBuffer {
    var buffer = try SecureBuffer(capacity: 1)
    do { try buffer.append(count: 1) { $0[0] = 0x0A } } catch {
      if case .memory(let error) = error { throw error }
    }
    return buffer
  }
}
