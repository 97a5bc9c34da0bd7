package import SecureMemory
import SystemCalls

/// The memory every secret of the tools lives in.
///
/// Sealed (`SecureStorage.sealed`): ciphertext under a key in secret memory
/// (`memfd_secret`) where the kernel offers it, so that not even root can read
/// a password out of `secretfield`, `secretfield-askpass` or
/// `pinentry-secretfield` while it is alive, and a key costs no protection
/// change; the key in sodium memory elsewhere. The library's defaults for
/// what holds a password are the same.
package enum ToolMemory {
  /// `.sealed`; `.sodium` under the tests' control variable
  /// (``TestHook/sodiumMemoryVariable``).
  package static let storage: SecureStorage =
    System.environmentValue(TestHook.sodiumMemoryVariable) == nil ? .sealed : .sodium
}
