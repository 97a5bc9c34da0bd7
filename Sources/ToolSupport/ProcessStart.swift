package import SecureMemory
import SecretFieldTerminal
import SystemCalls

/// The one start every executable of the package makes, the window's
/// included: what runs before any secret exists and after the program ends.
///
/// 1. The fault handler (`FaultHandler.install()`): a fault, or a fault
///    signal sent with `kill`, restores a terminal a prompt left raw, masks a
///    revealed line, and ends the process by that signal, instead of the Swift
///    runtime's backtrace (which prints memory near the registers to standard
///    error and then waits). `SIGQUIT`, which the runtime takes too, is put
///    back to its default action: it ends the process, with no core file.
/// 2. Process hardening (`ProcessHardening.apply()`): no core file, no
///    same-user debugger, before any secret exists.
/// 3. The test seams (``TestHook``): a fault a debug build can be made to
///    commit, and a stop before exit for the residue tests.
///
/// Then the program runs, and the process exits with its status.
package enum ProcessStart {
  /// Starts the process as above, runs `program` with the hardening's report,
  /// and exits with the status it returns.
  package static func run(_ program: (HardeningReport) -> ExitStatus) -> Never {
    FaultHandler.install()
    System.restoreDefaultAction(of: System.quitSignal)
    let hardening = ProcessHardening.apply()
    TestHook.armFaultIfAsked()
    let status = program(hardening)
    TestHook.stopBeforeExitIfAsked()
    System.exit(status.code)
  }
}
