/// What actually holds for one ``SecureBuffer``, checked by effect after the
/// allocation rather than assumed from the calls that were made.
///
/// Libsodium ignores the results of `mlock` and `mprotect` inside `sodium_malloc`;
/// each flag here comes from a call whose result was checked.
public struct Protection: Sendable, Hashable, CustomStringConvertible {
  /// The data pages are locked in RAM and never reach swap (`mlock`).
  public var isLocked: Bool
  /// The data pages are left out of core dumps (`MADV_DONTDUMP`).
  public var isExcludedFromCoreDumps: Bool
  /// A no-access page sits directly before and after the data pages, so an
  /// overrun by one byte faults instead of reading a neighbour.
  public var hasGuardPages: Bool
  /// A forked child cannot read the bytes: with sodium memory it sees zeros in
  /// place of the data pages (`MADV_WIPEONFORK`); with secret memory it has no
  /// mapping there at all and faults on a touch (`MADV_DONTFORK`, since the
  /// kernel refuses `MADV_WIPEONFORK` on shared mappings).
  public var isWipedOnFork: Bool
  /// Outside an access window the data pages are no-access (`PROT_NONE`).
  ///
  /// When false, the pages are read-write all the time, inside read windows
  /// too: a buffer whose pages are not a mapping of their own (no guard pages)
  /// is left that way, because changing its protection per window could need a
  /// new mapping the process does not have.
  public var isInaccessibleOutsideWindows: Bool
  /// Which memory holds the bytes: ``SecureStorage/sodium``,
  /// ``SecureStorage/secretMemory`` or ``SecureStorage/sealed``, never
  /// `strongestAvailable`. For a sealed buffer the other flags speak of its
  /// ciphertext's slab, its key and its windows' scratch together, and
  /// ``isHiddenFromKernel`` of the key and the scratch (the ciphertext is
  /// readable, by design).
  public var storage: SecureStorage = .sodium
  /// Not even the kernel can read the bytes on another's behalf: when the
  /// buffer was made, a read of its data pages through the kernel
  /// (`process_vm_readv`, the page lookup `/proc/PID/mem` and `ptrace` share)
  /// failed. Root and `CAP_SYS_PTRACE` readers fail the same way (`EIO` from
  /// `/proc/PID/mem`). True only for secret memory; sodium memory reads fine.
  public var isHiddenFromKernel = false
  /// Why a ``SecureStorage/strongestAvailable`` buffer is not in secret memory:
  /// the error that allocating secret memory gave. Nil when secret memory was
  /// used or not asked for.
  public var secretMemoryFallback: SecureMemoryError?
  /// The secret shares its pages with other secrets: it is a slot of a
  /// ``SecureArena``, or a buffer of a ``SharedSecureRegion`` (whose window
  /// opens the whole region, its other buffers too; they are bounded by the
  /// region's guard pages and by canaries, as slots are).
  ///
  /// A window opens the whole page (or two) the secret lies on, so while it is
  /// open the other secrets on that page are readable as well (and writable in
  /// a write window), and the page stays open until the last window on it
  /// closes. Its neighbours within the page are separated by canaries, checked
  /// when a window closes or a slot is freed, not by guard pages: an overrun
  /// does not fault, it ends the process at that check. ``hasGuardPages`` and
  /// the other flags speak of the slab around it. False for a buffer of its
  /// own, which no other secret shares. Not a protection that is missing, so
  /// ``isComplete`` does not look at it: the price of packing.
  ///
  /// In a secret-memory slab (``storage`` is ``SecureStorage/secretMemory``)
  /// the pages a window opens are open to this process's own code only: the
  /// kernel still refuses to read any of them for another reader, root
  /// included (``isHiddenFromKernel``), and a forked child has no mapping of
  /// them at all. A slab of ``SecureArena`` that fell back to sodium memory
  /// says why in ``secretMemoryFallback``.
  public var sharesPagesWithOtherSecrets = false

  /// Every protection ``LockPolicy/required`` demands holds (hiding from the
  /// kernel is asked for with ``SecureStorage``, not with the lock policy).
  public var isComplete: Bool {
    isLocked && isExcludedFromCoreDumps && hasGuardPages && isWipedOnFork
      && isInaccessibleOutsideWindows
  }

  /// Every protection, as a buffer made under `.required` has it.
  public static let complete = Protection(
    isLocked: true, isExcludedFromCoreDumps: true, hasGuardPages: true, isWipedOnFork: true,
    isInaccessibleOutsideWindows: true)

  /// A line such as `locked, no core dump, guarded, wiped on fork, no access
  /// outside windows`, with `not` before each protection that is missing,
  /// `pages shared with other secrets` for an arena slot; for secret memory
  /// it starts `secret memory:` and says whether the kernel can read it, and
  /// for a fall-back it ends with the reason secret memory was not used; a
  /// sealed buffer's starts `sealed (ciphertext at rest, key in …):`.
  public var description: String {
    if storage == .sealed {
      var claims = self
      claims.storage = .sodium
      claims.sharesPagesWithOtherSecrets = false
      claims.secretMemoryFallback = nil
      let key =
        isHiddenFromKernel
        ? "key in secret memory, hidden from the kernel" : "key in sodium memory"
      let fallback = secretMemoryFallback.map { " (no secret memory: \($0.description))" } ?? ""
      return "sealed (ciphertext at rest, \(key)): " + claims.description + fallback
    }
    let isSecret = storage == .secretMemory
    let protections = [
      (isLocked, "locked"), (isExcludedFromCoreDumps, "no core dump"),
      (hasGuardPages, "guarded"),
      (isWipedOnFork, isSecret ? "not inherited on fork" : "wiped on fork"),
      (isInaccessibleOutsideWindows, "no access outside windows"),
    ].map { $0.0 ? $0.1 : "not \($0.1)" }
    let sharing = sharesPagesWithOtherSecrets ? ["pages shared with other secrets"] : []
    let hidden =
      isSecret ? [isHiddenFromKernel ? "hidden from the kernel" : "not hidden from the kernel"] : []
    let claims = (protections + sharing + hidden).joined(separator: ", ")
    let fallback = secretMemoryFallback.map { " (no secret memory: \($0.description))" } ?? ""
    return (isSecret ? "secret memory: " : "") + claims + fallback
  }
}
