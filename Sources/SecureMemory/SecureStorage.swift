/// How a ``SecureBuffer`` keeps its bytes at rest, chosen when it is
/// allocated; growth keeps the kind the buffer has.
///
/// Two ways (see <doc:TwoWaysASecretRests>): **guarded**, the plaintext in
/// pages of its own that are no-access outside windows (``sodium``,
/// ``secretMemory``, ``strongestAvailable``), or **sealed**, ciphertext under
/// a key of the process's own, opened into the calling thread's scratch
/// (``sealed``).
///
/// The guarded kinds give guard pages, a canary, no access outside windows,
/// locking in RAM, exclusion from core dumps and a wipe before release. Secret
/// memory adds one thing sodium memory cannot: its pages are removed from the
/// kernel's direct map, so neither root nor any process with `CAP_SYS_PTRACE`
/// can read them through `/proc/PID/mem`, `process_vm_readv` or `ptrace`
/// while the buffer is alive (``Protection/isHiddenFromKernel``).
///
/// The cost of secret memory: the kernel refuses to hibernate while any of it is
/// mapped, every buffer counts against `RLIMIT_MEMLOCK` even for root's
/// processes without `CAP_IPC_LOCK`, and an allocation takes about 1.7 times as
/// long as a `sodium_malloc`. Sealed storage puts only its key and its
/// scratch there, once per process and per thread, and opens a secret with a
/// decryption instead of an `mprotect` pair: the default of what holds a
/// password (the field, the prompt, forms, the pinentry, sources, tables,
/// arenas, keyring reads). A ``SecureBuffer`` of its own stays ``sodium`` by
/// default: a building block, for large buffers too, where a sealed window
/// would pass over every byte.
public enum SecureStorage: Sendable, Hashable, CustomStringConvertible {
  /// `sodium_malloc`: locked, guarded pages that root can still read through
  /// `/proc/PID/mem`. The default.
  case sodium
  /// `memfd_secret(2)` (Linux 5.14, enabled by default since 6.5): pages the
  /// kernel itself does not map. Allocation throws when the kernel lacks the call
  /// or the locked-memory limit is reached, whatever the ``LockPolicy``.
  case secretMemory
  /// Secret memory where the kernel offers it and the limit allows it, sodium
  /// memory otherwise; ``Protection/storage`` says which was used and
  /// ``Protection/secretMemoryFallback`` why secret memory was not.
  case strongestAvailable
  /// XChaCha20-Poly1305 ciphertext at rest, packed with other secrets in
  /// locked memory, under a key of the process's own in secret memory; each
  /// window decrypts into a scratch slot of the calling thread, in secret
  /// memory too, wiped when the window closes. No system call and no
  /// allocation per window: a decryption instead (about 0.4 µs for 32 bytes),
  /// and an edit seals again under a new nonce.
  ///
  /// A root scan reads ciphertext only; a stray read gets ciphertext too,
  /// not a fault; a ciphertext changed in memory fails authentication
  /// (`SecureMemoryError.Code.sealedSecretAltered`). Where the kernel
  /// refuses secret memory, the key is a sodium page, no-access outside
  /// windows, so each window costs an `mprotect` pair on it, and
  /// ``Protection/secretMemoryFallback`` says why. See <doc:TwoWaysASecretRests>.
  case sealed

  /// `sodium`, `secret memory`, `strongest available` or `sealed`.
  public var description: String {
    switch self {
    case .sodium: "sodium"
    case .secretMemory: "secret memory"
    case .strongestAvailable: "strongest available"
    case .sealed: "sealed"
    }
  }
}
