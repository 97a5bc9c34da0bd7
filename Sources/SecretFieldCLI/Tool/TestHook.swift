/// Hooks for the package's own tests, and nothing else.
public enum TestHook {
  /// The variable that asks for ``stopBeforeExitIfAsked()``.
  public static let stopBeforeExitVariable = "SECRETFIELD_TEST_STOP_BEFORE_EXIT"

  /// For tests only: when `SECRETFIELD_TEST_STOP_BEFORE_EXIT` is set, stops
  /// the process (`SIGSTOP`) once the command is done and before it exits, so
  /// that a test can scan its memory for what the command left behind, then
  /// continue it (`SIGCONT`). Reading a hardened process's memory takes root
  /// with `CAP_SYS_PTRACE` anyway, so this opens nothing: whoever can set the
  /// variable can stop the process with a signal.
  ///
  /// - Complexity: one `getenv`; one `raise` when set.
  public static func stopBeforeExitIfAsked() {
    guard System.environmentValue(stopBeforeExitVariable) != nil else { return }
    System.stopThisProcess()
  }
}
