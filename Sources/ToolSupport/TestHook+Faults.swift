import SystemCalls
extension TestHook {
  /// The variable that makes a debug build fault for real while its prompt
  /// is up: its value names a ``Fault``.
  package static let faultVariable = "SECRETFIELD_TEST_FAULT"

  /// The signal that sets the fault off: `SIGURG`, whose default action is
  /// to ignore it, which no relay takes, so a test can send it with `kill`
  /// once the prompt is on the screen.
  package static let faultTrigger = System.urgentSignal

  /// A real fault a debug build can be made to commit, for the tests of the
  /// fault handler: each is what the processor or the kernel does, not a
  /// signal sent with `kill`.
  package enum Fault: String, CaseIterable, Sendable {
    /// A store through a null pointer (`SIGSEGV`).
    case nullDereference = "null-dereference"
    /// A recursion that runs off the main thread's stack (`SIGSEGV`), which
    /// only an alternate signal stack can handle.
    case stackOverflow = "stack-overflow"
    /// The control of ``stackOverflow``: the same recursion with the main
    /// thread's alternate signal stack taken away first, so the handler cannot
    /// run and the terminal stays raw.
    case stackOverflowWithoutAlternateStack = "stack-overflow-without-alternate-stack"
    /// Swift's trap on an arithmetic overflow, `ud2` (`SIGILL`).
    case overflowTrap = "overflow-trap"
    /// `abort(3)` (`SIGABRT`).
    case abort
    /// An integer division by zero in C, glibc's `div(3)` (`SIGFPE`).
    case divisionByZero = "division-by-zero"
    /// A read of a shared mapping past the end of its truncated file (`SIGBUS`).
    case truncatedMapping = "truncated-mapping"
    /// An `int3` instruction executed (`SIGTRAP`).
    case breakpoint
    /// A system call that a seccomp filter, installed just before, forbids
    /// with `SECCOMP_RET_TRAP` (`SIGSYS`): what a sandbox does to a tool that
    /// makes a call it did not allow.
    case forbiddenSystemCall = "forbidden-system-call"
    /// The signal each ends the process by.
    package var signal: Int32 {
      switch self {
      case .nullDereference, .stackOverflow, .stackOverflowWithoutAlternateStack:
        System.segmentationFault
      case .overflowTrap: System.illegalInstruction
      case .abort: System.abortSignal
      case .divisionByZero: System.floatingPointException
      case .truncatedMapping: System.busError
      case .breakpoint: System.breakpointTrap
      case .forbiddenSystemCall: System.badSystemCall
      }
    }
  }

  /// In a debug build, when `SECRETFIELD_TEST_FAULT` names a ``Fault``:
  /// arranges that ``faultTrigger`` commits it, on the main thread, from a
  /// handler on the main thread's own stack (so a recursion exhausts that
  /// stack, as a runaway one in the prompt would). Call it after
  /// `FaultHandler.install()`.
  ///
  /// A release build reads no variable and does nothing: the shipped tools
  /// have no way to be made to fault.
  package static func armFaultIfAsked() {
    #if DEBUG
      guard let name = System.environmentValue(faultVariable), let fault = Fault(rawValue: name)
      else { return }
      System.commitOnTrigger(fault, trigger: faultTrigger)
    #endif
  }
}
