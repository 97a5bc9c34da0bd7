extension PasswordHash {
  /// How much work one hash costs, as libsodium names its Argon2id limits.
  ///
  /// A verification costs what hashing at the stored limits costs, so choose by
  /// how long a user may wait and how much memory the machine can lend at once.
  /// Times are for one hash on an idle 2-core x86-64 VM (libsodium 1.0.18) and
  /// grow 2–3× under load.
  public enum Strength: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 2 passes over 64 MiB, about 60 ms (120 ms under load): for a prompt a
    /// user waits on, such as unlocking a session. The default.
    case interactive
    /// 3 passes over 256 MiB, about 0.4 s: for less frequent, more valuable
    /// secrets.
    case moderate
    /// 4 passes over 1 GiB, about 2.7 s: for secrets kept offline, such as the
    /// passphrase of a key file.
    case sensitive

    /// Argon2id's passes over memory at this strength, as libsodium defines it
    /// (`crypto_pwhash_OPSLIMIT_INTERACTIVE`, `_MODERATE`, `_SENSITIVE`: 2, 3, 4).
    ///
    /// Store it beside a salt so that a key derived today can be derived again
    /// after libsodium's defaults change.
    public var operationsLimit: UInt64 { Sodium.limits(for: self).operations }

    /// The memory Argon2id fills at this strength, in bytes, as libsodium
    /// defines it (`crypto_pwhash_MEMLIMIT_INTERACTIVE`, `_MODERATE`,
    /// `_SENSITIVE`: 64 MiB, 256 MiB, 1 GiB).
    public var memoryLimit: Int { Sodium.limits(for: self).memory }

    /// The case's name, as in `interactive`.
    public var description: String {
      switch self {
      case .interactive: "interactive"
      case .moderate: "moderate"
      case .sensitive: "sensitive"
      }
    }
  }
}
