/// Opt-in hardening of the whole process against its memory being read from
/// outside: no core file, and no same-user debugger or `/proc/PID/mem` reader.
///
/// Secure buffers keep their own pages out of core dumps and swap; hardening
/// closes the rest of the process too (the terminal's input buffers, a
/// `String` a host framework handed over). Tools call ``apply()`` first thing,
/// before any secret arrives.
///
/// What it does not cover: root, or any process with `CAP_SYS_PTRACE`; a
/// debugger attached before the call. It lasts until the process calls `execve`
/// or changes its user or group IDs, either of which resets the dumpable flag.
/// A non-root process that is not dumpable cannot read its own `/proc/self/mem`
/// either, so memory scans of it need root.
public enum ProcessHardening {
  /// Sets `RLIMIT_CORE` to 0 (soft and hard) and `PR_SET_DUMPABLE` to 0, then
  /// reads both back and reports what holds.
  ///
  /// Idempotent. Lowering the hard core limit cannot be undone by the process
  /// without `CAP_SYS_RESOURCE`.
  ///
  /// - Returns: what took effect, each read back with `getrlimit` and
  ///   `prctl(PR_GET_DUMPABLE)`.
  /// - Complexity: four system calls.
  @discardableResult
  public static func apply() -> HardeningReport {
    let coreFileError = Kernel.disableCoreFiles()
    let dumpableError = Kernel.makeUndumpable()
    let coreLimit = Kernel.coreFileLimit
    let dumpable = Kernel.dumpableFlag
    return HardeningReport(
      coreDumpsDisabled: coreLimit == Kernel.ResourceLimit(soft: 0, hard: 0),
      isNotDumpable: dumpable == 0,
      failureErrno: coreFileError ?? dumpableError)
  }
}
