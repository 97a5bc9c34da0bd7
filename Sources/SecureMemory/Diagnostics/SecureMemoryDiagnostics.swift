/// Kernel facilities `SecureMemory` itself does not need for a buffer, measured
/// for a report of what this machine offers (`secretfield doctor`).
public enum SecureMemoryDiagnostics {
  /// Nil when the kernel keyring answers for this user, else the `errno`
  /// (`ENOSYS` without keyring support, `EACCES` or `EPERM` where a sandbox
  /// forbids it).
  ///
  /// Asks for the user keyring's serial with
  /// `keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0)`: it neither
  /// creates nor changes a key.
  public static func userKeyringError() -> Int32? {
    switch Kernel.userKeyringID() {
    case .success: nil
    case .failure(let failure): failure.errno
    }
  }

  /// The soft `RLIMIT_MEMLOCK` in bytes, or nil when unlimited: the most this
  /// process may lock, secret memory included, unless it has `CAP_IPC_LOCK`.
  public static var lockedMemoryLimit: UInt64? { Kernel.lockedMemoryLimit }

  /// The page size: a buffer of up to a page less its 16-byte canary locks
  /// one page.
  public static var pageSize: Int { Kernel.pageSize }
}
