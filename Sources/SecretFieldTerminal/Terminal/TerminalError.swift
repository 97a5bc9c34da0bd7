import SystemCalls

/// Why the terminal could not be used for a prompt, in words a user can act on.
///
/// Compare by ``code``; show ``description`` to the user. Where the kernel said
/// why, ``errno`` carries its code.
public struct TerminalError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure this is. Compare with the static members.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Hashable, Sendable {
      case noTerminal, notATerminal, terminalModesFailed, readFailed, writeFailed
      case signalSetupFailed, secureMemoryFailed
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// There is no terminal to prompt on: no controlling terminal, or the path
    /// given cannot be opened.
    public static let noTerminal = Code(.noTerminal)
    /// The path opened is not a terminal.
    public static let notATerminal = Code(.notATerminal)
    /// Reading or changing the terminal's modes (`tcgetattr`, `tcsetattr`) failed.
    public static let terminalModesFailed = Code(.terminalModesFailed)
    /// Reading from the terminal failed.
    public static let readFailed = Code(.readFailed)
    /// Writing to the terminal failed.
    public static let writeFailed = Code(.writeFailed)
    /// The signal relay could not be set up (no pipe could be made).
    public static let signalSetupFailed = Code(.signalSetupFailed)
    /// Secure memory for the keys could not be had; ``TerminalError/description``
    /// carries the reason from `SecureMemory`.
    public static let secureMemoryFailed = Code(.secureMemoryFailed)

    /// The code's name, as in `noTerminal`.
    public var description: String { value.rawValue }
  }

  /// What kind of failure this is.
  public let code: Code
  /// The `errno` the kernel reported, where it reported one.
  public let errno: Int32?
  /// A sentence that says what happened and what to do about it.
  public let description: String

  init(_ code: Code, errno: Int32? = nil, _ description: String) {
    self.code = code
    self.errno = errno
    self.description = description
  }
}

extension TerminalError {
  static func noTerminal(path: String, errno: Errno) -> Self {
    Self(
      .noTerminal, errno: errno.code,
      "no terminal to prompt on: cannot open \(path) (\(errno.description)); run this from a "
        + "terminal, or give the secret another way (standard input, a file)")
  }

  static func notATerminal(path: String) -> Self {
    Self(
      .notATerminal,
      "no terminal to prompt on: \(path) is not a terminal; run this from a terminal, or give "
        + "the secret another way (standard input, a file)")
  }

  static func modesFailed(_ what: String, errno: Errno) -> Self {
    Self(
      .terminalModesFailed, errno: errno.code,
      "could not \(what) of the terminal (\(errno.description)); the terminal may have gone away")
  }

  static func readFailed(errno: Int32?, _ detail: String) -> Self {
    Self(.readFailed, errno: errno, "reading from the terminal failed: \(detail)")
  }

  static func writeFailed(errno: Errno) -> Self {
    Self(
      .writeFailed, errno: errno.code,
      "writing to the terminal failed (\(errno.description)); the terminal may have gone away")
  }

  static func signalSetupFailed(errno: Errno) -> Self {
    Self(
      .signalSetupFailed, errno: errno.code,
      "could not set up signal handling (\(errno.description)): the process is out of file "
        + "descriptors; raise the limit with `ulimit -n`")
  }
}
