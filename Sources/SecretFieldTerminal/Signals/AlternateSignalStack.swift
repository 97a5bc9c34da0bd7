import Glibc
import SecureMemory

/// A thread's alternate signal stack: where the ``FaultHandler`` runs when
/// the thread's own stack cannot take it.
///
/// A stack overflow faults because the stack is full: a handler run on that
/// stack faults again at once and the kernel kills the process with the
/// terminal still raw. With an alternate stack (`sigaltstack(2)`) and the
/// handler installed with `SA_ONSTACK`, the kernel puts the handler's frame
/// here instead. Each thread has its own: the one that runs the prompt (the
/// main thread, from ``FaultHandler/install()``) and every thread that runs
/// while the terminal is raw (``FaultHandler/withAlternateStack(_:)``).
///
/// The mapping is `max(64 KiB, 4 × sysconf(_SC_SIGSTKSZ))` rounded up to
/// pages: `SIGSTKSZ` is no constant on modern glibc, the kernel's frame holds
/// the whole extended register state (13 KiB with AVX-512 on this kind of
/// machine, more with AMX), and the handler's own calls need a few KiB more.
/// Below it, the lowest page is `PROT_NONE`: a handler that ran off its stack
/// faults on it rather than writing into whatever lies below. The pages are
/// locked (`mlock`, best effort: a failure leaves them swappable) and left out
/// of core dumps (`MADV_DONTDUMP`), because the kernel's frame saves the
/// faulting thread's registers here, which may hold secret bytes; the handler
/// wipes that frame before it dies (see ``FaultHandler``).
///
/// - Cost: one `mmap`, `mprotect`, `mlock`, `madvise` and `sigaltstack`, about
///   70 KiB of address space; the same to take it down.
struct AlternateSignalStack: ~Copyable {
  /// The start of the mapping, its guard page included; nil when none could be made.
  private let mapping: UnsafeMutableRawPointer?
  private let mappingSize: Int
  /// The alternate stack `sigaltstack` had before, to put back.
  private var previous = stack_t()

  /// The usable size of every alternate stack the package makes.
  static let size: Int = {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let asked = max(Int(sysconf(Int32(_SC_SIGSTKSZ))), Int(SIGSTKSZ))
    let wanted = max(64 * 1024, 4 * asked)
    return (wanted + page - 1) / page * page
  }()

  /// What the locked-memory limit must leave for secrets beside an
  /// alternate stack, for the stack to be locked: 32 KiB, room for what a
  /// tool makes before its first key (a prompt's field, decoder and answers,
  /// a pinentry's connection, an agent's keyring read).
  static let lockReserve = 32 * 1024

  /// Whether the stack may be locked: only where `RLIMIT_MEMLOCK` (soft)
  /// leaves ``lockReserve`` beside it. Locked first, best effort, it took a
  /// 64 KiB limit whole (and a smaller one not at all), so a tool refused at
  /// 64 KiB what it did at 16. The stack holds nothing until a fault, whose
  /// handler wipes what the kernel saved there before the process dies; its
  /// pages are never in a core (`MADV_DONTDUMP`).
  static var mayLock: Bool {
    guard let limit = SecureMemoryDiagnostics.lockedMemoryLimit else { return true }
    return limit >= UInt64(size + lockReserve)
  }

  /// Maps a stack and makes it the calling thread's alternate signal stack.
  /// When no mapping can be made the thread keeps what it had: a fault then
  /// still runs the handler on the thread's own stack, unless the stack is
  /// what overflowed.
  init() {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    mappingSize = Self.size + page
    guard
      let base = mmap(
        nil, mappingSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | Int32(MAP_STACK),
        -1, 0),
      base != MAP_FAILED
    else {
      mapping = nil
      return
    }
    mapping = base
    _ = mprotect(base, page, PROT_NONE)
    let usable = base + page
    _ = madvise(usable, Self.size, MADV_DONTDUMP)
    if Self.mayLock { _ = mlock(usable, Self.size) }
    var stack = stack_t(ss_sp: usable, ss_flags: 0, ss_size: Self.size)
    if sigaltstack(&stack, &previous) != 0 {
      previous = stack_t(ss_sp: nil, ss_flags: Int32(SS_DISABLE), ss_size: 0)
    }
  }

  /// Keeps the stack for the rest of the process: the main thread's, whose
  /// signals can come until the very end.
  consuming func keepForLife() {
    discard self
  }

  /// Puts back the thread's previous alternate stack and unmaps this one.
  consuming func takeDown() {}

  deinit {
    guard let mapping else { return }
    var current = stack_t()
    // Only take down a stack that is still this thread's, and only when the
    // thread is not running on it.
    if sigaltstack(nil, &current) == 0, current.ss_sp == mapping + (mappingSize - Self.size),
      current.ss_flags & Int32(SS_ONSTACK) == 0
    {
      var restored = previous
      _ = sigaltstack(&restored, nil)
      _ = munlock(mapping + (mappingSize - Self.size), Self.size)
      _ = munmap(mapping, mappingSize)
    }
  }
}
