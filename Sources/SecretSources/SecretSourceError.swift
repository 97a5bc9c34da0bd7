import Glibc
public import SecureMemory
import SystemCalls

/// Why a ``SecretSource`` gave no secret, in words the end user can act on.
///
/// Compare by ``code``; show ``description``. Where the kernel said why,
/// ``errno`` carries its code. Nothing of a secret is ever in it: a source that
/// fails wipes what it had read.
public struct SecretSourceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure this is. Compare with the static members.
  public typealias Code = ErrorCode<SecretSourceError>

  /// What kind of failure this is.
  public let code: Code
  /// The `errno` the kernel reported, where it reported one.
  public let errno: Int32?
  /// A sentence that says what happened and what to do about it.
  public let description: String
  /// The front end's own error or ending, for `Code.promptFailed` and
  /// `Code.promptEnded` (`SecretFieldTerminal` reads it as `terminalError`
  /// and `ending`).
  public let cause: (any Error & Sendable)?

  /// An error of `code`, for a front end's ``SecretAsking`` (and the sources
  /// here).
  ///
  /// - Parameters:
  ///   - code: what kind of failure it is.
  ///   - errno: the `errno` the kernel reported, if it reported one.
  ///   - description: a sentence that says what happened and what to do.
  ///   - cause: the front end's error or ending, kept for the caller.
  public init(
    _ code: Code, errno: Int32? = nil, _ description: String, cause: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.errno = errno
    self.description = description
    self.cause = cause
  }

  /// Equal when the code, the errno and the description are.
  public static func == (lhs: SecretSourceError, rhs: SecretSourceError) -> Bool {
    lhs.code == rhs.code && lhs.errno == rhs.errno && lhs.description == rhs.description
  }
}

extension SecretSourceError {
  static func notSet(_ what: String) -> Self {
    Self(.notSet, "\(what) is not set")
  }

  static func cannotOpen(_ what: String, errno: Errno) -> Self {
    Self(.cannotOpen, errno: errno.code, "cannot open \(what): \(errno.description)")
  }

  static func writeOnly(_ what: String) -> Self {
    Self(
      .cannotOpen, errno: EBADF,
      "\(what) is open for writing only (the write end of a pipe?), so no secret can be read "
        + "from it; give the end a program writes the secret into")
  }

  static func isDirectory(_ what: String) -> Self {
    Self(.isDirectory, "\(what) is a directory, not a file holding the secret")
  }

  static func isTerminal(_ what: String) -> Self {
    Self(
      .isTerminal,
      "\(what) is a terminal, which would show the secret as it is typed; "
        + "let the program ask on the terminal instead, where it is masked")
  }

  static func unsafePermissions(_ what: String, permissions: UInt32) -> Self {
    Self(
      .unsafePermissions,
      "\(what) can be written by \(Self.others(permissions, writable: true)) (mode "
        + "\(String(permissions, radix: 8))), so someone else could have put the secret there; "
        + "make it private with chmod 600")
  }

  static func unsafeOwner(_ what: String, owner: UInt32) -> Self {
    Self(
      .unsafeOwner,
      "\(what) belongs to user \(owner), not to you or root, so someone else could have put "
        + "the secret there; use a file of your own")
  }

  static func unsafeLink(_ what: String, link: String, owner: UInt32) -> Self {
    Self(
      .unsafeLink,
      "\(what) is reached through \(link), a symbolic link of user \(owner) in a sticky folder "
        + "anyone can write, who could point it at any file; give the file's own path")
  }

  static func changedWhileOpened(_ what: String) -> Self {
    Self(
      .unsafeLink,
      "\(what) changed while it was opened (a link replaced meanwhile?), so nothing was read; "
        + "try again, with a path no one else can change")
  }

  static func processFile(_ what: String) -> Self {
    Self(
      .processFile,
      "\(what) is in /proc, a view of a running process, not a file holding a secret; "
        + "give a file of your own")
  }

  static func containsNul(_ what: String) -> Self {
    Self(
      .containsNul,
      "the secret from \(what) holds a NUL byte, which a program could not see past; "
        + "nothing was taken")
  }

  static func tooLong(_ what: String, limit: Int) -> Self {
    Self(
      .tooLong,
      "the secret in \(what) is longer than \(limit) bytes, the most a password may have; "
        + "nothing was taken")
  }

  static func empty(_ what: String) -> Self {
    Self(.empty, "\(what) is empty: no secret was given")
  }

  static func readFailed(_ what: String, _ error: SecureMemoryError) -> Self {
    Self(.readFailed, errno: error.errno, "reading \(what) failed: \(error.description)")
  }

  static func secureMemory(_ error: SecureMemoryError) -> Self {
    Self(.secureMemoryFailed, errno: error.errno, error.description)
  }

  static func notSecret(_ error: SecureMemoryError) -> Self {
    Self(
      .secureMemoryFailed, errno: error.errno,
      "this kernel offers secret memory, which not even root can read, but the locked memory "
        + "limit refused it, and the secret is not kept where root could read it instead: "
        + error.description)
  }

  static func invalidSpecification(_ specification: String, _ why: String) -> Self {
    Self(.invalidSpecification, "'\(specification)' is not a secret source: \(why)")
  }

  static func timedOut(_ what: String) -> Self {
    Self(.timedOut, "timed out waiting for a line from \(what); nothing was taken")
  }

  /// "others", "its group", or "its group and others", for a permission message.
  static func others(_ permissions: UInt32, writable: Bool) -> String {
    let group = permissions & (writable ? 0o020 : 0o040) != 0
    let others = permissions & (writable ? 0o002 : 0o004) != 0
    switch (group, others) {
    case (true, true): return "its group and others"
    case (true, false): return "its group"
    default: return "others"
    }
  }
}

extension ErrorCode where Failure == SecretSourceError {
  /// The variable or credential is not set (see ``SecretSource/isSet``).
  public static var notSet: Self { Self() }
  /// The file cannot be opened (missing, no permission), or the descriptor is
  /// not open.
  public static var cannotOpen: Self { Self() }
  /// The path is a directory.
  public static var isDirectory: Self { Self() }
  /// The file or descriptor is a terminal, which would echo the secret as it
  /// is typed.
  public static var isTerminal: Self { Self() }
  /// The file (or FIFO, or any other kind) is writable by its group or by
  /// others, so someone else could have put the secret there.
  public static var unsafePermissions: Self { Self() }
  /// The file (or FIFO) belongs to another user than this process's or
  /// root, who could have put the secret there, or rewrite it.
  public static var unsafeOwner: Self { Self() }
  /// The path goes through a symbolic link in a sticky folder anyone can
  /// write (such as `/tmp`), and the link belongs to another user than this
  /// process's and the folder's owner, who could point it at a file of
  /// their choosing; or the path changed while the file was opened. The
  /// rule of the kernel's `fs.protected_symlinks`, kept whatever it is set
  /// to.
  public static var unsafeLink: Self { Self() }
  /// The file is in `/proc`: a view of a process (its environment, its
  /// command line, its memory), not a file a secret was put in.
  public static var processFile: Self { Self() }
  /// The secret holds a NUL byte, which no program that takes it as a C
  /// string could see past. The one rule for every source; nothing is
  /// taken.
  public static var containsNul: Self { Self() }
  /// The secret is longer than the most a password may have.
  public static var tooLong: Self { Self() }
  /// The source holds nothing: an empty variable, file or output, or input
  /// that ended before a line.
  public static var empty: Self { Self() }
  /// Reading failed (`read(2)`).
  public static var readFailed: Self { Self() }
  /// A line from standard input or a descriptor did not come within the
  /// `lineTimeout` given to `obtain`.
  public static var timedOut: Self { Self() }
  /// The command could not be started (not found, not executable).
  public static var commandNotStarted: Self { Self() }
  /// The command exited with a status other than 0, was ended by a signal, or
  /// printed no line before its timeout.
  public static var commandFailed: Self { Self() }
  /// A source specification (`env:NAME`, `file:PATH`...) that cannot be read.
  public static var invalidSpecification: Self { Self() }
  /// The source that asks could not ask (no terminal, no display);
  /// ``SecretSourceError/cause`` is the front end's error.
  public static var promptFailed: Self { Self() }
  /// The user gave no secret (cancelled, timed out, hung up);
  /// ``SecretSourceError/cause`` says how it ended.
  public static var promptEnded: Self { Self() }
  /// Secure memory for the secret could not be had.
  public static var secureMemoryFailed: Self { Self() }
  /// The secret did not pass the caller's check
  /// (`obtain(cachingUnder:timeout:verifiedBy:reportingWarnings:)`); nothing
  /// was cached, and ``SecretSourceError/cause`` is the check's error.
  public static var rejected: Self { Self() }
}
