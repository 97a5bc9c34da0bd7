/// The program that ran the askpass, as far as it changes what the askpass may
/// answer: how much of the answer the caller keeps.
///
/// OpenSSH reads an askpass's answer into a buffer of 1,024 bytes
/// (`ssh_askpass` in its `readpass.c`: `read` until 1,023 bytes or the end,
/// then the text up to the first CR or LF), so a longer passphrase is cut
/// without a word and the key, or the login, fails with a passphrase the user
/// never typed. The askpass therefore refuses to let the field pass what ssh
/// keeps. sudo and git keep the whole line; no limit is known for them, or for
/// a caller that cannot be told.
package enum AskpassCaller: Sendable, Hashable {
  /// ssh, ssh-add, ssh-keygen, ssh-agent or ssh-sk-helper.
  case openSSH
  /// Anything else: sudo, git, a script.
  case other

  /// The programs of OpenSSH that run an askpass, by the name the kernel gives
  /// the process (`/proc/PID/comm`).
  static let openSSHPrograms: Set<String> = [
    "ssh", "ssh-add", "ssh-keygen", "ssh-agent", "ssh-sk-helper",
  ]

  /// Who the caller is: OpenSSH when the parent process is one of its
  /// programs, or when `SSH_ASKPASS_PROMPT` is set (only OpenSSH sets it, for
  /// `confirm` and `none`). ssh sets nothing else an askpass could see when it
  /// asks for a passphrase; `SSH_ASKPASS` itself is no sign, since git falls
  /// back to it too.
  ///
  /// - Parameters:
  ///   - parentName: the parent process's name, nil when unknown.
  ///   - environmentValue: reads a variable of the environment.
  package init(parentName: String?, environmentValue: (String) -> String?) {
    if let parentName, Self.openSSHPrograms.contains(parentName) {
      self = .openSSH
    } else if environmentValue("SSH_ASKPASS_PROMPT") != nil {
      self = .openSSH
    } else {
      self = .other
    }
  }

  /// The most bytes of an answer the caller keeps whole, or nil when no limit
  /// is known: 1,023 for OpenSSH (its buffer less the terminating NUL; the
  /// newline after the answer may be cut, since ssh stops at it anyway).
  package var maximumAnswerByteCount: Int? {
    switch self {
    case .openSSH: 1023
    case .other: nil
    }
  }
}
