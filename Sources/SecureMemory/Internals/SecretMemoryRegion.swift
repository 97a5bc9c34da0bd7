import Glibc
import Synchronization

/// Whole pages of `memfd_secret(2)` memory between two guard pages: memory the
/// kernel has removed from its own direct map, so that no `/proc/PID/mem`
/// reader, `process_vm_readv` or `ptrace` can read it, root included.
///
/// The layout: one anonymous `PROT_NONE` reservation (`MAP_NORESERVE`) of a guard
/// page, the data pages and a guard page; the secret file is mapped over the
/// middle with `MAP_FIXED`, so the guards are the reservation's own ends and no
/// other mapping can land next to the data. Three mappings in all. The file's
/// descriptor is closed as soon as it is mapped: the mapping keeps the file
/// alive, and a descriptor left open would outlive the region.
///
/// The region knows nothing of canaries or counts, so it serves one buffer or a
/// slab cut into many (any page multiple). It does not own the memory: call
/// ``wipeAndUnmap()`` exactly once.
///
/// - Complexity: ``map(byteCount:)`` makes five system calls (`memfd_secret`,
///   `ftruncate`, two `mmap`, `close`); the kernel takes each page out of its
///   direct map when it is first touched. About 1.7 times a `sodium_malloc`.
struct SecretMemoryRegion {
  /// The first data page.
  let pages: UnsafeMutableRawPointer
  /// The size of the data pages in bytes, a multiple of the page size.
  let byteCount: Int

  var guardBefore: UnsafeMutableRawPointer { pages - Kernel.pageSize }
  var guardAfter: UnsafeMutableRawPointer { pages + byteCount }

  /// Maps `byteCount` bytes (a positive multiple of the page size) of secret
  /// memory between two guard pages, read-write.
  ///
  /// - Throws: ``SecureMemoryError`` with code `secretMemoryUnavailable` when the
  ///   kernel lacks `memfd_secret` (`ENOSYS`), `lockFailed` when the mapping
  ///   would pass `RLIMIT_MEMLOCK` (`EAGAIN`, or `ENOMEM`, which is also what
  ///   running out of mappings gives), `allocationFailed` otherwise.
  static func map(byteCount: Int) throws(SecureMemoryError) -> SecretMemoryRegion {
    precondition(
      byteCount > 0 && byteCount % Kernel.pageSize == 0,
      "SecretMemoryRegion: \(byteCount) bytes is not a positive multiple of the page size")
    let descriptor: Int32
    switch Kernel.createSecretMemoryFile() {
    case .success(let opened): descriptor = opened
    case .failure(let failure): throw .secretMemoryFileFailed(errno: failure.errno)
    }
    defer { Kernel.closeDescriptor(descriptor) }
    if let errno = Kernel.resize(descriptor, to: byteCount) {
      throw .allocationFailed(capacity: byteCount, errno: errno)
    }
    let reservation: UnsafeMutableRawPointer
    switch Kernel.reserveAddressSpace(byteCount + 2 * Kernel.pageSize) {
    case .success(let address): reservation = address
    case .failure(let failure): throw .allocationFailed(capacity: byteCount, errno: failure.errno)
    }
    let pages = reservation + Kernel.pageSize
    let simulated = Kernel.simulatedSecretMemoryFailure.load(ordering: .relaxed)
    if let errno = simulated == EAGAIN ? EAGAIN : Kernel.mapShared(descriptor, at: pages, byteCount)
    {
      Kernel.unmap(reservation, byteCount + 2 * Kernel.pageSize)
      throw .secretMemoryMappingFailed(byteCount: byteCount, errno: errno)
    }
    return SecretMemoryRegion(pages: pages, byteCount: byteCount)
  }

  /// Changes the protection of the data pages (`mprotect`); true when it held.
  ///
  /// In a forked child the data pages are not mapped (`MADV_DONTFORK`), and
  /// `mprotect` fails with `ENOMEM`: then there is nothing to protect, and
  /// whatever touches the address faults with `SIGSEGV`, as on a guard page,
  /// instead of trapping here with a less telling message.
  func protect(readable: Bool, writable: Bool) -> Bool {
    Kernel.protect(pages, byteCount, readable: readable, writable: writable)
      || Kernel.errno == ENOMEM
  }

  /// `MADV_DONTFORK` on the data pages: a forked child has no mapping there, and
  /// touching the address faults. Nil when it held, else the `errno`.
  func omitFromFork() -> Int32? {
    Kernel.omitFromFork(pages, byteCount)
  }

  /// True only when the kernel refuses to read the first data page for a
  /// reader (`process_vm_readv` fails with `EFAULT`; see
  /// ``Kernel/kernelReadError(at:)``). Ask while the pages are readable.
  var isHiddenFromKernel: Bool {
    Kernel.kernelReadError(at: pages) == EFAULT
  }

  /// ``isHiddenFromKernel``, read once per process: at `region`, the first
  /// region made, and kept once it held.
  ///
  /// Hiding is the kernel's, for every page of every secret-memory mapping:
  /// its fault handler takes each page out of the direct map as it hands it
  /// out, or the mapping is refused (`memfd_secret` fails with `ENOSYS` when
  /// the kernel was booted without it). One region read through the kernel
  /// proves it for the process, as ``isLocked(_:)`` proves the lock;
  /// the tests scan each buffer. A look that found the region readable is
  /// not kept: that region is refused, and the next one looks again.
  static func isHiddenFromKernel(_ region: SecretMemoryRegion) -> Bool {
    if hidingProven.load(ordering: .acquiring) { return true }
    guard region.isHiddenFromKernel else { return false }
    hidingProven.store(true, ordering: .releasing)
    return true
  }

  private static let hidingProven = Atomic<Bool>(false)

  /// Zeroes every data page (`sodium_memzero`), then unmaps the guards and the
  /// data in one `munmap`.
  func wipeAndUnmap() {
    precondition(
      protect(readable: true, writable: true),
      "SecureBuffer: mprotect on a secret-memory region's own mapping failed")
    Sodium.zero(pages, count: byteCount)
    Kernel.unmap(guardBefore, byteCount + 2 * Kernel.pageSize)
  }

  /// Whether `region` is locked (never swapped), shown by the kernel's answer.
  ///
  /// `mlock` cannot show it: on secret memory the kernel accepts it and
  /// changes nothing, the pages being locked from the start. What shows it is
  /// a page-out the kernel refuses: `MADV_PAGEOUT` fails with `EINVAL` on a
  /// locked mapping and reclaims an unlocked one (a kernel with
  /// `memfd_secret`, 5.14 or later, knows the advice). The kernel locks every
  /// secret-memory mapping when it makes it, or refuses the mapping, so the
  /// first region proves it for the process, as ``isHiddenFromKernel(_:)``
  /// proves the hiding.
  ///
  /// One system call, once, where reading the kernel's marks from
  /// `/proc/self/smaps` walked every mapping before this one's: about 220 µs
  /// on the way to a prompt's first frame.
  static func isLocked(_ region: SecretMemoryRegion) -> Bool {
    if lockProven.load(ordering: .acquiring) { return true }
    guard Kernel.refusesPageOut(region.pages, region.byteCount) else { return false }
    lockProven.store(true, ordering: .releasing)
    return true
  }

  private static let lockProven = Atomic<Bool>(false)
}
