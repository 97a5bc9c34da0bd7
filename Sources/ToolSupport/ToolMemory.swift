package import SecureMemory
import SystemCalls

/// The memory every secret of the tools lives in.
///
/// Secret memory (`memfd_secret`) where the kernel offers it, so that not even
/// root can read a password out of `secretfield`, `secretfield-askpass` or
/// `pinentry-secretfield` while it is alive; sodium memory elsewhere. The
/// library's own default stays sodium memory, because the kernel refuses to
/// hibernate while secret memory is mapped: no concern for a tool that lives as
/// long as one prompt.
package enum ToolMemory {
  /// `.strongestAvailable`; `.sodium` under the tests' control variable
  /// (``TestHook/sodiumMemoryVariable``).
  package static let storage: SecureStorage =
    System.environmentValue(TestHook.sodiumMemoryVariable) == nil ? .strongestAvailable : .sodium
}
