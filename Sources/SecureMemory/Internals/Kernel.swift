import CSystemShims
import Glibc
import Synchronization

/// The raw kernel calls `SecureMemory` makes itself, named for what they do.
///
/// Each returns the `errno` on failure instead of a C return code, so callers
/// turn it into a `SecureMemoryError` in one step.
enum Kernel {
  static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  static var errno: Int32 {
    get { Glibc.errno }
    set { Glibc.errno = newValue }
  }

  static func lock(_ start: UnsafeMutableRawPointer, _ count: Int) -> Int32? {
    mlock(start, count) == 0 ? nil : errno
  }

  static func excludeFromCoreDumps(_ start: UnsafeMutableRawPointer, _ count: Int) -> Int32? {
    madvise(start, count, MADV_DONTDUMP) == 0 ? nil : errno
  }

  /// True when the kernel refuses to page the range out
  /// (`madvise(MADV_PAGEOUT)` fails with `EINVAL`), as it does for a locked
  /// mapping; an unlocked one is reclaimed and this returns false.
  static func refusesPageOut(_ start: UnsafeMutableRawPointer, _ count: Int) -> Bool {
    madvise(start, count, MADV_PAGEOUT) != 0 && errno == EINVAL
  }

  static func wipeOnFork(_ start: UnsafeMutableRawPointer, _ count: Int) -> Int32? {
    madvise(start, count, MADV_WIPEONFORK) == 0 ? nil : errno
  }

  /// `mprotect(PROT_NONE)` on a page that should already be a guard page. On a
  /// guard page that exists it changes nothing and succeeds; where the guard was
  /// never applied, it needs a new mapping and fails when none is left.
  static func protectNone(_ start: UnsafeMutableRawPointer, _ count: Int) -> Int32? {
    ProtectionChangeCount.note()
    return mprotect(start, count, PROT_NONE) == 0 ? nil : errno
  }

  /// What a range of pages may be used for, as `mprotect` sets it.
  enum PageAccess {
    case none, readOnly, readWrite

    var flags: Int32 {
      switch self {
      case .none: PROT_NONE
      case .readOnly: PROT_READ
      case .readWrite: PROT_READ | PROT_WRITE
      }
    }
  }

  /// `mprotect` on whole pages inside one of our own mappings. Changing part of
  /// a mapping splits it, which needs a free entry in the process's table of
  /// mappings (`vm.max_map_count`): ENOMEM when there is none.
  static func protect(
    _ start: UnsafeMutableRawPointer, _ count: Int, _ access: PageAccess
  ) -> Int32? {
    ProtectionChangeCount.note()
    return mprotect(start, count, access.flags) == 0 ? nil : errno
  }

  /// `madvise(MADV_NOHUGEPAGE)`: marks the range so that it never merges with a
  /// neighbouring range that lacks the mark. The mark itself changes nothing for
  /// ranges far smaller than a huge page (2 MiB); EINVAL on kernels built
  /// without transparent huge pages.
  static func keepFromMerging(_ start: UnsafeMutableRawPointer, _ count: Int) -> Int32? {
    madvise(start, count, MADV_NOHUGEPAGE) == 0 ? nil : errno
  }

  /// This process's ID. glibc's `getpid()` is a system call, and every buffer
  /// asks twice (owner at `init`, check at `deinit`), so the ID is cached and a
  /// `pthread_atfork` child handler refreshes it in a forked child. Children of
  /// `vfork` or `posix_spawn` skip the handler, but run no Swift before `exec`.
  static var processID: Int32 {
    _ = forkHandlerRegistration
    return cachedProcessID.load(ordering: .relaxed)
  }

  private static let forkHandlerRegistration: Void = {
    cachedProcessID.store(getpid(), ordering: .relaxed)
    pthread_atfork(nil, nil) { cachedProcessID.store(getpid(), ordering: .relaxed) }
  }()

  /// The soft `RLIMIT_MEMLOCK` in bytes, or nil when unlimited.
  static var lockedMemoryLimit: UInt64? {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit) == 0,
      limit.rlim_cur != rlim_t.max
    else { return nil }
    return UInt64(limit.rlim_cur)
  }

  /// A resource limit as the kernel reports it; nil stands for unlimited.
  struct ResourceLimit: Equatable {
    var soft: UInt64?
    var hard: UInt64?
  }

  /// `getrlimit(RLIMIT_CORE)`: the largest core file the kernel will write.
  static var coreFileLimit: ResourceLimit? {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit) == 0 else { return nil }
    func bytes(_ value: rlim_t) -> UInt64? { value == rlim_t.max ? nil : UInt64(value) }
    return ResourceLimit(soft: bytes(limit.rlim_cur), hard: bytes(limit.rlim_max))
  }

  /// `setrlimit(RLIMIT_CORE)` to 0 for both limits. Lowering the hard limit is
  /// allowed to any process and cannot be undone by it without privilege.
  static func disableCoreFiles() -> Int32? {
    var none = rlimit(rlim_cur: 0, rlim_max: 0)
    return setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none) == 0 ? nil : errno
  }

  /// `prctl(PR_SET_DUMPABLE, 0)`: no core dump, and no `ptrace` attach or
  /// `/proc/PID/mem` open by a process without `CAP_SYS_PTRACE`.
  static func makeUndumpable() -> Int32? {
    secretfield_set_dumpable(0) == 0 ? nil : errno
  }

  /// `prctl(PR_GET_DUMPABLE)`: 0 when not dumpable, 1 or 2 when dumpable, -1 on
  /// failure.
  static var dumpableFlag: Int32 { secretfield_get_dumpable() }

  // MARK: Secret memory

  /// The `errno` every `memfd_secret` call fails with instead of being made,
  /// or 0 to make the call. A seam for tests that need a kernel without the call
  /// (`ENOSYS`); `EAGAIN` fails the mapping instead, as the locked-memory
  /// limit does. Nothing in product code sets it.
  static let simulatedSecretMemoryFailure = Atomic<Int32>(0)

  /// `memfd_secret(O_CLOEXEC)`: a new, empty secret-memory file.
  static func createSecretMemoryFile() -> Result<Int32, KernelFailure> {
    let simulated = simulatedSecretMemoryFailure.load(ordering: .relaxed)
    // EAGAIN is the lock limit's, which the kernel reports at the mapping.
    if simulated != 0 && simulated != EAGAIN { return .failure(KernelFailure(errno: simulated)) }
    let descriptor = secretfield_memfd_secret(UInt32(O_CLOEXEC))
    return descriptor >= 0 ? .success(descriptor) : .failure(KernelFailure(errno: errno))
  }

  /// `ftruncate(2)`: sets the file's size, the most a mapping of it may cover.
  static func resize(_ descriptor: Int32, to count: Int) -> Int32? {
    ftruncate(descriptor, off_t(count)) == 0 ? nil : errno
  }

  static func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
  }

  /// `mmap(PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)`: address
  /// space that nothing can touch and that costs no memory, for guard pages and
  /// for a mapping to be placed inside.
  static func reserveAddressSpace(_ count: Int) -> Result<UnsafeMutableRawPointer, KernelFailure> {
    let address = mmap(nil, count, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
    guard let address, address != MAP_FAILED else { return .failure(KernelFailure(errno: errno)) }
    return .success(address)
  }

  /// `mmap(PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED)` of `descriptor` at
  /// `address`, replacing what was reserved there.
  static func mapShared(
    _ descriptor: Int32, at address: UnsafeMutableRawPointer, _ count: Int
  ) -> Int32? {
    let mapped = mmap(
      address, count, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, descriptor, 0)
    return mapped == address ? nil : errno
  }

  static func unmap(_ start: UnsafeMutableRawPointer, _ count: Int) {
    _ = munmap(start, count)
  }

  /// `madvise(MADV_DONTFORK)`: a forked child gets no mapping here at all. The
  /// only way to keep a shared mapping from a child: the kernel refuses
  /// `MADV_WIPEONFORK` on shared mappings.
  static func omitFromFork(_ start: UnsafeMutableRawPointer, _ count: Int) -> Int32? {
    madvise(start, count, MADV_DONTFORK) == 0 ? nil : errno
  }

  /// `mprotect(2)` with `PROT_NONE`, `PROT_READ` or `PROT_READ | PROT_WRITE`.
  static func protect(
    _ start: UnsafeMutableRawPointer, _ count: Int, readable: Bool, writable: Bool
  ) -> Bool {
    let access = (readable ? PROT_READ : 0) | (writable ? PROT_WRITE : 0)
    return mprotect(start, count, access) == 0
  }

  /// Whether the kernel can read the byte at `address` on another reader's
  /// behalf: the `errno` of a failed read, nil when the read succeeded.
  ///
  /// Reads one byte of this process with `process_vm_readv`, the call a root
  /// or `CAP_SYS_PTRACE` reader makes from outside. It looks the page up as
  /// `/proc/PID/mem` and `ptrace` do (`get_user_pages`), which refuses secret
  /// memory: `EFAULT` here, `EIO` from `/proc/PID/mem`. Unlike opening
  /// `/proc/self/mem` it needs no descriptor (about 4 µs less per buffer) and
  /// works in a process that is not dumpable and not root, whose
  /// `/proc/self/mem` then belongs to root. It does not force access, so
  /// `address` must be readable when asked.
  static func kernelReadError(at address: UnsafeRawPointer) -> Int32? {
    var byte: UInt8 = 0
    let got = secretfield_read_own_byte(address, &byte)
    return got == 1 ? nil : (got < 0 ? errno : EIO)
  }

  /// `getrandom(2)`: fills `count` bytes at `start` from the kernel's generator.
  static func fillRandom(_ start: UnsafeMutableRawPointer, _ count: Int) {
    var filled = 0
    while filled < count {
      let got = getrandom(start + filled, count - filled, 0)
      if got > 0 { filled += got } else { precondition(errno == EINTR, "getrandom failed") }
    }
  }

  // MARK: Limits the doctor reports

  /// `keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0)`: the serial of the
  /// user keyring, or the `errno` when the kernel keyring cannot be reached.
  static func userKeyringID() -> Result<Int32, KernelFailure> {
    let serial = secretfield_keyctl_get_keyring_id(-4, 0)
    return serial >= 0
      ? .success(Int32(truncatingIfNeeded: serial)) : .failure(KernelFailure(errno: errno))
  }

  static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

/// A kernel call's `errno`, as the failure of a `Result`.
struct KernelFailure: Error {
  let errno: Int32
}

/// The ID behind ``Kernel/processID``; global because a C fork handler cannot
/// capture context.
private let cachedProcessID = Atomic<Int32>(0)
