import SystemCalls
public import SecureMemory

/// Why the terminal could not be used for a prompt, in words a user can act on.
///
/// Compare by `code`; show `description` to the user. Where the kernel said
/// why, `errno` carries its code.
public struct TerminalError: CodedError {
  /// What it says: its code, the `errno` where there is one, its sentence.
  public let details: ErrorDetails<TerminalError>

  /// An error that says `details`.
  public init(details: ErrorDetails<TerminalError>) { self.details = details }
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

extension ErrorCode where Failure == TerminalError {
  /// There is no terminal to prompt on: no controlling terminal, or the path
  /// given cannot be opened.
  public static var noTerminal: Self { Self() }
  /// The path opened is not a terminal.
  public static var notATerminal: Self { Self() }
  /// Reading or changing the terminal's modes (`tcgetattr`, `tcsetattr`) failed.
  public static var terminalModesFailed: Self { Self() }
  /// Reading from the terminal failed.
  public static var readFailed: Self { Self() }
  /// Writing to the terminal failed.
  public static var writeFailed: Self { Self() }
  /// The signal relay could not be set up (no pipe could be made).
  public static var signalSetupFailed: Self { Self() }
  /// Secure memory for the keys could not be had; `TerminalError.description`
  /// carries the reason from `SecureMemory`.
  public static var secureMemoryFailed: Self { Self() }
}
