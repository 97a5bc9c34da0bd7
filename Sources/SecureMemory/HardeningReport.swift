/// What ``ProcessHardening/apply()`` achieved, each item read back from the
/// kernel after the change rather than assumed from the call's result.
public struct HardeningReport: Sendable, Hashable, CustomStringConvertible {
  /// `getrlimit(RLIMIT_CORE)` reads 0 for both the soft and the hard limit: the
  /// kernel writes no core file for this process, and the process cannot raise
  /// the limit again.
  public var coreDumpsDisabled: Bool
  /// `prctl(PR_GET_DUMPABLE)` reads 0: a process of the same user without
  /// `CAP_SYS_PTRACE` can neither attach with `ptrace` nor open `/proc/PID/mem`,
  /// and no core dump is written even where the limit allows one.
  public var isNotDumpable: Bool
  /// The `errno` of the first hardening call that failed, if one did.
  public var failureErrno: Int32?

  /// Everything took effect.
  public var isComplete: Bool { coreDumpsDisabled && isNotDumpable }

  /// A line such as `core dumps off, not dumpable`, with what is missing spelled
  /// out.
  public var description: String {
    [
      coreDumpsDisabled ? "core dumps off" : "core dumps still possible (RLIMIT_CORE is not 0)",
      isNotDumpable ? "not dumpable" : "still dumpable (PR_SET_DUMPABLE did not hold)",
    ].joined(separator: ", ") + (failureErrno.map { ": \(Kernel.describe($0))" } ?? "")
  }
}
