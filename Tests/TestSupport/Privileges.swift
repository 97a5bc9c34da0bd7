import Glibc

/// The user and group ID of `nobody` on Debian and most Linux systems.
public let nobodyID: UInt32 = 65534

/// Drops this process to `nobody`: no supplementary groups, then the group, then
/// the user, so that no capability (`CAP_IPC_LOCK`, `CAP_SYS_PTRACE`) is left.
/// Call it only in an exit-test child. Returns false when any step failed.
///
/// Changing the user ID clears the dumpable flag (`fs.suid_dumpable` is 0 by
/// default); a test that needs an ordinary dumpable process sets it again.
public func dropToNobody() -> Bool {
  guard setgroups(0, nil) == 0, setgid(nobodyID) == 0, setuid(nobodyID) == 0 else { return false }
  // The drop is real only if it cannot be undone.
  return getuid() == nobodyID && geteuid() == nobodyID && setuid(0) != 0
}

/// `prctl(PR_GET_DUMPABLE)` and `prctl(PR_SET_DUMPABLE)`, called through a pointer
/// found with `dlsym`: Swift does not import the variadic `prctl`, and the tests
/// must not lean on the code under test to read the flag.
public enum Dumpable {
  private typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
  private static let getDumpable: Int32 = 3
  private static let setDumpable: Int32 = 4

  private static let prctl: Prctl = {
    let handle = dlopen(nil, RTLD_NOW)
    guard let symbol = dlsym(handle, "prctl") else { fatalError("prctl not found") }
    return unsafeBitCast(symbol, to: Prctl.self)
  }()

  /// Resolves `prctl` now, so a forked child that reads the flag calls no
  /// dynamic linker.
  public static func prepare() { _ = prctl }

  /// 0 when not dumpable, 1 when dumpable, -1 when the call failed.
  public static var current: Int32 { prctl(getDumpable, 0, 0, 0, 0) }

  /// Sets the flag (0 or 1); true when the kernel accepted it.
  @discardableResult
  public static func set(_ value: UInt) -> Bool { prctl(setDumpable, value, 0, 0, 0) == 0 }
}

/// True when this process may read the memory of a process that is not
/// dumpable: root with `CAP_SYS_PTRACE` in its effective set.
public let canReadHardenedProcesses: Bool = {
  guard getuid() == 0, let status = try? readText("/proc/self/status") else { return false }
  let line = status.split(separator: "\n").first { $0.hasPrefix("CapEff:") }
  let mask = line.flatMap {
    UInt64($0.dropFirst("CapEff:".count).drop { $0 == "\t" || $0 == " " }, radix: 16)
  }
  let systemPtrace: UInt64 = 1 << 19
  return (mask ?? 0) & systemPtrace != 0
}()
