import Synchronization

extension SecureStorage {
  /// For the package's tests only: makes every later `memfd_secret` call in this
  /// process fail with `errno` without being made (0 makes the call again), to
  /// stand in for a kernel without secret memory (`ENOSYS`); `EAGAIN` fails
  /// the mapping of a secret-memory file instead, as a locked-memory limit
  /// too low for it does.
  ///
  /// Call it in an exit-test child: it changes the whole process.
  @_spi(Testing) public static func simulateSecretMemoryFailure(errno: Int32) {
    Kernel.simulatedSecretMemoryFailure.store(errno, ordering: .relaxed)
  }
}
