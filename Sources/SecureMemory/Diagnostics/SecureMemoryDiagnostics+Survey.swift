import SystemCalls

extension SecureMemoryDiagnostics {
  /// What protection a password gets in this process on this machine, each
  /// line measured now rather than assumed from the kernel's version: secret
  /// memory, the locked-memory limit, `vm.max_map_count`, the ptrace scope,
  /// core dumps, `fs.suid_dumpable`, the process hardening, the kernel keyring.
  ///
  /// Applies ``ProcessHardening`` (idempotent) to read back what holds.
  ///
  /// - Parameter secretsNeeded: the fewest secrets (one locked page and three
  ///   mappings each) the limits must leave room for.
  /// - Complexity: one secret-memory buffer, a few `/proc` reads, one
  ///   `keyctl`.
  public static func survey(secretsNeeded: Int = 16) -> [ProtectionFinding] {
    let hardening = ProcessHardening.apply()
    return [
      secretMemory(), lockedMemory(secretsNeeded: secretsNeeded),
      mappings(secretsNeeded: secretsNeeded), ptraceScope(hardening: hardening),
      coreDumps(hardening: hardening), suidDumpable(), hardeningFinding(hardening), keyring(),
    ]
  }

  /// Allocates one secret-memory buffer and reads what its protection proved.
  static func secretMemory() -> ProtectionFinding {
    let subject = "secret memory"
    let protection: Protection
    do {
      protection = try SecureBuffer(capacity: 1, storage: .secretMemory).protection
    } catch {
      return ProtectionFinding(
        subject, .fallsShort, "\(error.description); root can read passwords held here")
    }
    guard protection.isComplete && protection.isHiddenFromKernel else {
      return ProtectionFinding(subject, .fallsShort, "only partly protected: \(protection)")
    }
    return ProtectionFinding(
      subject, .holds,
      "memfd_secret works: the kernel refuses to read a secret for root or ptrace "
        + "(/proc/PID/mem fails); locked, not dumped, not inherited")
  }

  /// `RLIMIT_MEMLOCK` against what is locked now (`VmLck`).
  static func lockedMemory(secretsNeeded: Int) -> ProtectionFinding {
    let subject = "locked memory"
    let pageSize = UInt64(pageSize)
    let status = kernelText(of: "/proc/self/status", limit: 1 << 16) ?? ""
    let lockedBytes = (statusField("VmLck", in: status).flatMap { UInt64($0) } ?? 0) * 1024
    let hasLockCapability =
      statusField("CapEff", in: status).flatMap { UInt64($0, radix: 16) }.map {
        $0 & (1 << 14) != 0
      } ?? false
    guard let limit = lockedMemoryLimit else {
      return ProtectionFinding(subject, .holds, "RLIMIT_MEMLOCK unlimited")
    }
    let fit = limit > lockedBytes ? (limit - lockedBytes) / pageSize : 0
    let measured =
      "RLIMIT_MEMLOCK \(bytes(limit)), \(bytes(lockedBytes)) locked: \(fit) more secrets fit"
    if hasLockCapability {
      return ProtectionFinding(
        subject, .doesNotApply, "\(measured), but CAP_IPC_LOCK lifts the limit for this process")
    }
    guard fit >= UInt64(secretsNeeded) else {
      return ProtectionFinding(
        subject, .fallsShort,
        "\(measured) (the tools need \(secretsNeeded)); raise it with `ulimit -l` or in "
          + "/etc/security/limits.conf (8 MiB is the usual default)")
    }
    return ProtectionFinding(subject, .holds, "\(measured) (one page each)")
  }

  /// `vm.max_map_count` against the mappings this process has.
  static func mappings(secretsNeeded: Int) -> ProtectionFinding {
    let subject = "vm.max_map_count"
    guard let maximum = kernelNumber(of: "/proc/sys/vm/max_map_count") else {
      return ProtectionFinding(subject, .doesNotApply, "/proc/sys/vm/max_map_count cannot be read")
    }
    let used =
      kernelText(of: "/proc/self/maps", limit: 1 << 24)?
      .split(separator: "\n").count ?? 0
    let fit = max(0, maximum - used) / 3
    let measured = "\(maximum), \(used) in use: \(fit) more secrets fit (three mappings each)"
    guard fit >= secretsNeeded else {
      return ProtectionFinding(
        subject, .fallsShort, "\(measured); raise it with `sysctl vm.max_map_count=65530`")
    }
    return ProtectionFinding(subject, .holds, measured)
  }

  /// `kernel.yama.ptrace_scope`, where the Yama module is loaded.
  static func ptraceScope(hardening: HardeningReport) -> ProtectionFinding {
    let subject = "ptrace scope"
    guard let scope = kernelNumber(of: "/proc/sys/kernel/yama/ptrace_scope") else {
      return ProtectionFinding(
        subject, .doesNotApply,
        "no Yama module (no /proc/sys/kernel/yama/ptrace_scope); the hardening below decides")
    }
    let meaning =
      switch scope {
      case 0: "any process of the same user may attach"
      case 1: "only a parent may attach"
      case 2: "only CAP_SYS_PTRACE may attach"
      default: "no process may attach"
      }
    guard scope > 0 || hardening.isNotDumpable else {
      return ProtectionFinding(
        subject, .fallsShort,
        "kernel.yama.ptrace_scope = 0: \(meaning), and this process is dumpable; "
          + "`sysctl kernel.yama.ptrace_scope=1`")
    }
    let note = scope == 0 ? " (this process is not dumpable, so it is spared)" : ""
    return ProtectionFinding(
      subject, .holds, "kernel.yama.ptrace_scope = \(scope): \(meaning)\(note)")
  }

  /// `kernel.core_pattern`, and whether the kernel would write a core of this
  /// process: not while it is not dumpable; otherwise a pipe handler gets one
  /// whatever `RLIMIT_CORE` says, a file only when the limit allows it.
  static func coreDumps(hardening: HardeningReport) -> ProtectionFinding {
    let subject = "core dumps"
    let pattern =
      kernelText(of: "/proc/sys/kernel/core_pattern", limit: 4096)?
      .trimmingWhitespace ?? "?"
    let isPipe = pattern.hasPrefix("|")
    let wouldWrite = !hardening.isNotDumpable && (isPipe || !hardening.coreDumpsDisabled)
    let target = isPipe ? "piped to a handler" : "written to a file"
    guard !wouldWrite else {
      return ProtectionFinding(
        subject, .fallsShort,
        "core_pattern '\(pattern)': a crash's core would be \(target), with whatever the "
          + "process held outside secure memory; see the hardening line")
    }
    return ProtectionFinding(
      subject, .holds,
      "core_pattern '\(pattern)' (\(target)), but no core would be written: not dumpable")
  }

  /// `fs.suid_dumpable`: what the kernel makes of a process that changes its
  /// user or group (a set-user-ID program such as sudo, or a tool that drops
  /// privileges) after it made itself not dumpable. At 1 it is dumpable again:
  /// same-user processes may read it and a crash dumps it.
  static func suidDumpable() -> ProtectionFinding {
    let subject = "fs.suid_dumpable"
    guard let mode = kernelNumber(of: "/proc/sys/fs/suid_dumpable") else {
      return ProtectionFinding(
        subject, .doesNotApply, "/proc/sys/fs/suid_dumpable cannot be read")
    }
    switch mode {
    case 0:
      return ProtectionFinding(
        subject, .holds, "0: a process that changes its user stays not dumpable")
    case 2:
      return ProtectionFinding(
        subject, .holds,
        "2: a process that changes its user is dumped for root alone, and not readable by "
          + "its old user")
    default:
      return ProtectionFinding(
        subject, .fallsShort,
        "\(mode): a process that changes its user becomes dumpable again (same-user "
          + "readers, core dumps); `sysctl fs.suid_dumpable=0`")
    }
  }

  static func hardeningFinding(_ hardening: HardeningReport) -> ProtectionFinding {
    guard hardening.isComplete else {
      return ProtectionFinding(
        "hardening", .fallsShort,
        "\(hardening): same-user processes may read this process's memory")
    }
    return ProtectionFinding(
      "hardening", .holds,
      "\(hardening) (PR_SET_DUMPABLE 0, RLIMIT_CORE 0, read back): no same-user reader")
  }

  /// `keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING)`.
  static func keyring() -> ProtectionFinding {
    guard let errno = userKeyringError() else {
      return ProtectionFinding("kernel keyring", .holds, "the user keyring answers (keyctl)")
    }
    return ProtectionFinding(
      "kernel keyring", .fallsShort,
      "keyctl on the user keyring failed: \(Errno(errno).description); a sandbox or a "
        + "kernel without CONFIG_KEYS keeps secrets from being cached there")
  }

  /// The number in a sysctl file of the kernel's, or nil when it cannot be
  /// read.
  private static func kernelNumber(of path: String) -> Int? {
    kernelText(of: path, limit: 64).flatMap { Int($0.trimmingWhitespace) }
  }

  /// The text of a small file of the kernel's, or nil when it cannot be read.
  private static func kernelText(of path: String, limit: Int) -> String? {
    try? System.readFile(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }.get()
  }

  private static func statusField(_ key: String, in status: String) -> String? {
    for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
      return line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" })
        .first.map(String.init)
    }
    return nil
  }

  private static func bytes(_ count: UInt64) -> String {
    if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
    if count >= 1 << 10 && count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
    return "\(count) bytes"
  }
}

extension String {
  fileprivate var trimmingWhitespace: String {
    String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }
}
