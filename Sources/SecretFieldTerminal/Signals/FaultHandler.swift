import Glibc
import Synchronization

/// Restores the terminal when the process dies of a fault, then lets it die.
///
/// The synchronous faults (`SIGSEGV`, `SIGBUS`, `SIGILL`, `SIGFPE`, `SIGABRT`,
/// `SIGTRAP`, `SIGSYS`, from a real fault or from `kill`) cannot go through the
/// ``SignalRelay``: a real fault happens again as soon as its handler returns,
/// so the main loop never runs. Their handler does the restore itself, with
/// async-signal-safe calls only (`signal-safety(7)`): `write(2)` of the
/// masked redraw of a line that shows revealed text, then of the sequences
/// that turn off what ``TerminalDevice`` turned on (keyboard flags, focus
/// reporting, bracketed paste), and `tcsetattr(3)` of the termios it saved
/// when it entered raw mode. The modes were recorded when raw mode was
/// entered, and the masked redraw by the prompt whenever it drew a revealed
/// frame (``FaultRestore/publishMask(_:)``), in memory made before any handler
/// was installed; the handler allocates nothing and takes no lock. It is
/// installed with `SA_RESETHAND` and
/// `SA_NODEFER`, so the default action is back when it runs, and it raises the
/// signal again: the process dies by the same signal (a real fault, returning
/// into the faulting instruction, dies the same way).
///
/// It runs on an alternate signal stack (`sigaltstack(2)`, `SA_ONSTACK`): a
/// stack overflow leaves no room on the thread's own stack for any handler.
/// The main thread gets one at ``install()``; a thread that runs while the
/// terminal is raw gets one with ``withAlternateStack(_:)``. The kernel saves
/// the faulting thread's registers, the vector registers included, in the
/// frame it builds there, and a register may hold secret bytes (a fault in
/// the middle of an edit): before it raises the signal again, the handler
/// zeroes that frame, from the saved context to the top of the stack. What
/// it cannot zero are the few callee-saved general registers (at most six
/// words) that its own prologues push below the frame; they are gone a
/// moment later with the process, which writes no core file (the process
/// hardening, and the alternate stack is `MADV_DONTDUMP`).
///
/// Installing it replaces the Swift runtime's backtracer for those signals,
/// which prints memory near the registers to standard error: a password tool
/// must not. In a debug build, `SWIFT_BACKTRACE` in the environment keeps the
/// runtime's backtracer instead (and the terminal is then not restored on a
/// fault).
///
/// - Cost: an alternate signal stack for the main thread (about 70 KiB of
///   address space, 64 KiB of it locked), seven `sigaction` calls and a
///   `pthread_sigmask` (unblocking them) at install; a few atomic stores each
///   time raw mode is entered or left.
package enum FaultHandler {
  /// The signals whose default action ends the process and that may come
  /// from the process's own fault.
  package static let faults: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]

  /// Installs the handler for ``faults``, and keeps the signals the C library
  /// reserves for itself (32 and 33 with glibc) from ending the process: no
  /// handler can take those, so they are ignored. Call it once, first thing
  /// in `main`, before any thread starts.
  ///
  /// - Returns: false when it left the runtime's backtracer in place (a debug
  ///   build with `SWIFT_BACKTRACE` set).
  @discardableResult
  package static func install() -> Bool {
    #if DEBUG
      if getenv("SWIFT_BACKTRACE") != nil { return false }
    #endif
    // Make the storage before a handler can read it.
    _ = FaultRestore.savedAttributes
    _ = FaultRestore.maskSlots
    FaultRestore.withdrawMask()
    // A parent may start the tool with some of them blocked (a test runner's
    // thread, gpg-agent's): one sent with `kill` would then wait for ever.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for signal in faults { sigaddset(&unblocked, signal) }
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    LibraryInternalSignals.ignore()
    // The main thread runs the prompt; its stack is the one a runaway
    // recursion exhausts. (This replaces the Swift runtime's own.)
    AlternateSignalStack().keepForLife()
    for signal in faults {
      var action = sigaction()
      action.__sigaction_handler.sa_sigaction = restoreWipeAndDie
      sigemptyset(&action.sa_mask)
      action.sa_flags = Int32(
        bitPattern: UInt32(SA_SIGINFO) | UInt32(SA_ONSTACK) | UInt32(SA_RESETHAND)
          | UInt32(SA_NODEFER))
      sigaction(signal, &action, nil)
    }
    return true
  }

  /// Runs `body` with an alternate signal stack for the calling thread, so
  /// that a fault on it, a stack overflow included, still restores the
  /// terminal. Call it at the top of every thread the tool starts that runs
  /// while the terminal is raw; the stack is unmapped when `body` returns.
  ///
  /// - Cost: about 70 KiB of address space and one `mmap`, `mlock` and
  ///   `sigaltstack` (and their undoing) per call.
  package static func withAlternateStack<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let stack = AlternateSignalStack()
    do {
      let result = try body()
      stack.takeDown()
      return result
    } catch {
      stack.takeDown()
      throw error
    }
  }
}

/// What the fault handler must undo: set by ``TerminalDevice`` as it changes
/// the terminal, cleared when it restores it.
enum FaultRestore {
  /// The terminal in raw mode, or -1.
  static let descriptor = Atomic<Int32>(-1)
  /// Which reports are on: ``bracketedPaste``, ``focusReporting``,
  /// ``keyboardFlags``.
  static let modes = Atomic<UInt8>(0)
  static let bracketedPaste: UInt8 = 1
  static let focusReporting: UInt8 = 2
  static let keyboardFlags: UInt8 = 4
  /// The termios to put back; written before ``descriptor`` is published.
  nonisolated(unsafe) static let savedAttributes: UnsafeMutablePointer<termios> = {
    let pointer = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    pointer.initialize(to: termios())
    return pointer
  }()

  /// Raw mode is on for `descriptor`; `original` is what to restore.
  static func arm(descriptor: Int32, original: termios) {
    savedAttributes.pointee = original
    modes.store(0, ordering: .relaxed)
    Self.descriptor.store(descriptor, ordering: .releasing)
  }

  /// A report was turned on (or off, with `isOn` false).
  static func note(_ mode: UInt8, isOn: Bool) {
    if isOn {
      modes.bitwiseOr(mode, ordering: .releasing)
    } else {
      modes.bitwiseAnd(~mode, ordering: .releasing)
    }
  }

  /// The terminal was restored: nothing left to undo.
  static func disarm() {
    descriptor.store(-1, ordering: .releasing)
    modes.store(0, ordering: .releasing)
    withdrawMask()
  }

  // MARK: The masked redraw

  /// The most bytes a masked redraw may take: a line is one row of the
  /// terminal, prompt and masks, so 16 KiB is a row of over 5,000 columns of
  /// three-byte glyphs. A longer one is replaced by an erase of the row.
  static let maskCapacity = 16 * 1024
  /// Two slots of ``maskCapacity`` bytes: one is written while the handler
  /// may read the other.
  nonisolated(unsafe) static let maskSlots: UnsafeMutableRawPointer = {
    let pointer = UnsafeMutableRawPointer.allocate(byteCount: 2 * maskCapacity, alignment: 16)
    pointer.initializeMemory(as: UInt8.self, repeating: 0, count: 2 * maskCapacity)
    return pointer
  }()
  /// The published redraw: its length in the low 32 bits and its slot in bit
  /// 32; 0 when the line shows nothing to mask.
  static let mask = Atomic<UInt64>(0)
  /// Clears to the end of the row from its start: what masks the line when
  /// its redraw does not fit.
  static let eraseRow: StaticString = "\r\u{1B}[K"

  /// The line on the screen shows revealed text: `bytes` (masks, the prompt,
  /// escape sequences, never a secret) redraw it masked from the row the
  /// cursor is on, should the process die of a fault before it is masked.
  ///
  /// - Complexity: O(`bytes`), one copy into the slot the handler is not
  ///   reading; allocates nothing.
  static func publishMask(_ bytes: UnsafeRawBufferPointer) {
    let current = mask.load(ordering: .acquiring)
    let slot: UInt64 = (current >> 32) & 1 == 0 ? 1 : 0
    let target = maskSlots + Int(slot) * maskCapacity
    let count: Int
    if bytes.count <= maskCapacity, let start = bytes.baseAddress {
      target.copyMemory(from: start, byteCount: bytes.count)
      count = bytes.count
    } else {
      target.copyMemory(from: eraseRow.utf8Start, byteCount: eraseRow.utf8CodeUnitCount)
      count = eraseRow.utf8CodeUnitCount
    }
    mask.store(slot << 32 | UInt64(count), ordering: .releasing)
  }

  /// The line shows nothing revealed any more.
  static func withdrawMask() {
    mask.store(mask.load(ordering: .relaxed) & (1 << 32), ordering: .releasing)
  }
}

/// The handler: async-signal-safe calls only (`write`, `tcsetattr`,
/// `sigaltstack`, `raise`) and stores of zeros.
let restoreWipeAndDie:
  @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
    number, information, context in
    let descriptor = FaultRestore.descriptor.load(ordering: .acquiring)
    if descriptor >= 0 {
      let modes = FaultRestore.modes.load(ordering: .acquiring)
      func sendAll(_ start: UnsafeRawPointer, _ count: Int) {
        var written = 0
        while written < count {
          let result = write(descriptor, start + written, count - written)
          if result > 0 {
            written += result
          } else if result < 0 && errno == EINTR {
            continue
          } else if result < 0 && errno == EAGAIN {
            // A non-blocking terminal that is full: wait for room, a while.
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            if poll(&ready, 1, 1000) <= 0 { return }
          } else {
            return
          }
        }
      }
      func send(_ sequence: StaticString) {
        sendAll(sequence.utf8Start, sequence.utf8CodeUnitCount)
      }
      // First the line: revealed text masked before anything else is done.
      let mask = FaultRestore.mask.load(ordering: .acquiring)
      let maskCount = Int(mask & 0xFFFF_FFFF)
      if maskCount > 0 {
        sendAll(
          FaultRestore.maskSlots + Int((mask >> 32) & 1) * FaultRestore.maskCapacity, maskCount)
      }
      // The same sequences as ControlSequence's, as constants: no String here.
      if modes & FaultRestore.keyboardFlags != 0 { send("\u{1B}[<u") }
      if modes & FaultRestore.focusReporting != 0 { send("\u{1B}[?1004l") }
      if modes & FaultRestore.bracketedPaste != 0 { send("\u{1B}[?2004l") }
      _ = tcsetattr(descriptor, TCSAFLUSH, FaultRestore.savedAttributes)
    }
    wipeSavedRegisters(information: UnsafeMutableRawPointer(information), context: context)
    // SA_RESETHAND put the default action back and SA_NODEFER leaves the signal
    // unblocked: this ends the process by the same signal.
    raise(number)
  }

/// Zeroes what the kernel saved on the alternate stack for this signal: the
/// `siginfo_t`, the `ucontext_t` with the general registers, and the extended
/// register state (`fpregs`, XSAVE) that the kernel places above them, up to
/// the stack's top. Only when the handler runs on the thread's alternate stack
/// and both pointers are on it: anywhere else the extent is unknown. The
/// handler's own frames are below the saved context, so they are not touched.
private func wipeSavedRegisters(
  information: UnsafeMutableRawPointer?, context: UnsafeMutableRawPointer?
) {
  guard let information, let context else { return }
  var stack = stack_t()
  guard sigaltstack(nil, &stack) == 0, stack.ss_flags & Int32(SS_ONSTACK) != 0,
    let bottom = stack.ss_sp
  else { return }
  let top = bottom + stack.ss_size
  let start = min(information, context)
  guard start >= bottom, max(information, context) < top else { return }
  explicit_bzero(start, top - start)
}
