import SystemCalls
/// The one test seam in the shipped binaries.
///
/// It is compiled into the release executables on purpose: the residue tests
/// scan the memory of the very `secretfield` and `secretfield-askpass` a user
/// runs, stopped after the command wrote the secret and before exit, and a
/// binary built differently for the tests would prove nothing about the
/// shipped one. It opens nothing: it only stops the process, which whoever can
/// set its environment can do with a signal anyway, and reading the stopped
/// process's memory still takes root with `CAP_SYS_PTRACE` once it is hardened.
package enum TestHook {
  /// The variable that asks for ``stopBeforeExitIfAsked()``.
  package static let stopBeforeExitVariable = "SECRETFIELD_TEST_STOP_BEFORE_EXIT"
  /// The variable that makes the tools keep their secrets in sodium memory
  /// instead of secret memory: the control of the residue tests, which must
  /// show that a scan from outside finds what secret memory hides. It can only
  /// weaken a tool to what the library gives by default, and whoever sets a
  /// tool's environment can already load code into it (`LD_PRELOAD`).
  package static let sodiumMemoryVariable = "SECRETFIELD_TEST_SODIUM_MEMORY"

  /// The variable that names a file the window appends a line to after each
  /// frame it shows whose state changed: the field's cell count, caret,
  /// revealed cells, focus, and which lines under the field are shown (never
  /// a character of the text). The window tests wait for these lines, the
  /// window's own account of what it has drawn, before a screenshot or a
  /// scan, instead of waiting for a time. It tells nothing the screen does
  /// not show.
  package static let frameLogVariable = "SECRETFIELD_TEST_FRAME_LOG"

  /// For tests only: when `SECRETFIELD_TEST_STOP_BEFORE_EXIT` is set, stops
  /// the process (`SIGSTOP`) once the command is done and before it exits, so
  /// that a test can scan its memory for what the command left behind, then
  /// continue it (`SIGCONT`). Reading a hardened process's memory takes root
  /// with `CAP_SYS_PTRACE` anyway, so this opens nothing: whoever can set the
  /// variable can stop the process with a signal.
  ///
  /// - Complexity: one `getenv`; one `raise` when set.
  package static func stopBeforeExitIfAsked() {
    guard System.environmentValue(stopBeforeExitVariable) != nil else { return }
    System.stopThisProcess()
  }
}
