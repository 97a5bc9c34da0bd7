import SecureMemory

extension DoctorCommand {
  /// Every line, measured now, in the order printed. Applies
  /// ``SecureMemory/ProcessHardening`` (idempotent; the tool has applied it
  /// already) to read back what holds.
  static func survey() -> [DoctorFinding] {
    let hardening = ProcessHardening.apply()
    return [
      secretMemory(), lockedMemory(), mappings(), ptraceScope(hardening: hardening),
      coreDumps(hardening: hardening), hardeningFinding(hardening), keyring(),
    ]
  }

  /// Allocates one secret-memory buffer and reads what its protection proved.
  static func secretMemory() -> DoctorFinding {
    let subject = "secret memory"
    let protection: Protection
    do {
      protection = try SecureBuffer(capacity: 1, storage: .secretMemory).protection
    } catch {
      return DoctorFinding(
        subject, .fallsShort, "\(error.description); root can read passwords held here")
    }
    guard protection.isComplete && protection.isHiddenFromKernel else {
      return DoctorFinding(subject, .fallsShort, "only partly protected: \(protection)")
    }
    return DoctorFinding(
      subject, .holds,
      "memfd_secret works: the kernel refuses to read a secret for root or ptrace "
        + "(/proc/PID/mem fails); locked, not dumped, not inherited")
  }

  /// `RLIMIT_MEMLOCK` against what is locked now (`VmLck`).
  static func lockedMemory() -> DoctorFinding {
    let subject = "locked memory"
    let pageSize = UInt64(SecureMemoryDiagnostics.pageSize)
    let status = (try? System.readSmallFile("/proc/self/status", limit: 1 << 16).get()) ?? ""
    let lockedBytes = (statusField("VmLck", in: status).flatMap { UInt64($0) } ?? 0) * 1024
    let hasLockCapability =
      statusField("CapEff", in: status).flatMap { UInt64($0, radix: 16) }.map {
        $0 & (1 << 14) != 0
      } ?? false
    guard let limit = SecureMemoryDiagnostics.lockedMemoryLimit else {
      return DoctorFinding(subject, .holds, "RLIMIT_MEMLOCK unlimited")
    }
    let fit = limit > lockedBytes ? (limit - lockedBytes) / pageSize : 0
    let measured =
      "RLIMIT_MEMLOCK \(bytes(limit)), \(bytes(lockedBytes)) locked: \(fit) more secrets fit"
    if hasLockCapability {
      return DoctorFinding(
        subject, .doesNotApply, "\(measured), but CAP_IPC_LOCK lifts the limit for this process")
    }
    guard fit >= UInt64(secretsNeeded) else {
      return DoctorFinding(
        subject, .fallsShort,
        "\(measured) (the tools need \(secretsNeeded)); raise it with `ulimit -l` or in "
          + "/etc/security/limits.conf (8 MiB is the usual default)")
    }
    return DoctorFinding(subject, .holds, "\(measured) (one page each)")
  }

  /// `vm.max_map_count` against the mappings this process has.
  static func mappings() -> DoctorFinding {
    let subject = "vm.max_map_count"
    guard
      let text = try? System.readSmallFile("/proc/sys/vm/max_map_count", limit: 64).get(),
      let maximum = Int(text.trimmingWhitespace)
    else {
      return DoctorFinding(subject, .doesNotApply, "/proc/sys/vm/max_map_count cannot be read")
    }
    let used =
      (try? System.readSmallFile("/proc/self/maps", limit: 1 << 24).get())?
      .split(separator: "\n").count ?? 0
    let fit = max(0, maximum - used) / 3
    let measured = "\(maximum), \(used) in use: \(fit) more secrets fit (three mappings each)"
    guard fit >= secretsNeeded else {
      return DoctorFinding(
        subject, .fallsShort, "\(measured); raise it with `sysctl vm.max_map_count=65530`")
    }
    return DoctorFinding(subject, .holds, measured)
  }

  /// `kernel.yama.ptrace_scope`, where the Yama module is loaded.
  static func ptraceScope(hardening: HardeningReport) -> DoctorFinding {
    let subject = "ptrace scope"
    guard
      let text = try? System.readSmallFile("/proc/sys/kernel/yama/ptrace_scope", limit: 64).get(),
      let scope = Int(text.trimmingWhitespace)
    else {
      return DoctorFinding(
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
      return DoctorFinding(
        subject, .fallsShort,
        "kernel.yama.ptrace_scope = 0: \(meaning), and this process is dumpable; "
          + "`sysctl kernel.yama.ptrace_scope=1`")
    }
    let note = scope == 0 ? " (this process is not dumpable, so it is spared)" : ""
    return DoctorFinding(subject, .holds, "kernel.yama.ptrace_scope = \(scope): \(meaning)\(note)")
  }

  /// `kernel.core_pattern`, and whether the kernel would write a core of this
  /// process: not while it is not dumpable; otherwise a pipe handler gets one
  /// whatever `RLIMIT_CORE` says, a file only when the limit allows it.
  static func coreDumps(hardening: HardeningReport) -> DoctorFinding {
    let subject = "core dumps"
    let pattern =
      (try? System.readSmallFile("/proc/sys/kernel/core_pattern", limit: 4096).get())?
      .trimmingWhitespace ?? "?"
    let isPipe = pattern.hasPrefix("|")
    let wouldWrite = !hardening.isNotDumpable && (isPipe || !hardening.coreDumpsDisabled)
    let target = isPipe ? "piped to a handler" : "written to a file"
    guard !wouldWrite else {
      return DoctorFinding(
        subject, .fallsShort,
        "core_pattern '\(pattern)': a crash's core would be \(target), with whatever the "
          + "process held outside secure memory; see the hardening line")
    }
    return DoctorFinding(
      subject, .holds,
      "core_pattern '\(pattern)' (\(target)), but no core would be written: not dumpable")
  }

  static func hardeningFinding(_ hardening: HardeningReport) -> DoctorFinding {
    guard hardening.isComplete else {
      return DoctorFinding(
        "hardening", .fallsShort,
        "\(hardening): same-user processes may read this process's memory")
    }
    return DoctorFinding(
      "hardening", .holds,
      "\(hardening) (PR_SET_DUMPABLE 0, RLIMIT_CORE 0, read back): no same-user reader")
  }

  /// `keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING)`.
  static func keyring() -> DoctorFinding {
    guard let errno = SecureMemoryDiagnostics.userKeyringError() else {
      return DoctorFinding("kernel keyring", .holds, "the user keyring answers (keyctl)")
    }
    return DoctorFinding(
      "kernel keyring", .fallsShort,
      "keyctl on the user keyring failed: \(SystemError(errno).description); a sandbox or a "
        + "kernel without CONFIG_KEYS keeps secrets from being cached there")
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
