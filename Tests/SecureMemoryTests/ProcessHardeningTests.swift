import Glibc
import SecureMemory
import TestSupport
import Testing

/// A page shared between a process and the children it forks, for results a
/// child reports without allocating.
struct SharedPage {
  let bytes: UnsafeMutableRawBufferPointer

  init() {
    let page = mmap(nil, pageSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)!
    precondition(page != MAP_FAILED)
    bytes = UnsafeMutableRawBufferPointer(start: page, count: pageSize)
  }

  var text: String {
    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
  }
}

/// The soft and hard core-file limits in `/proc/PID/limits` text, as printed.
func coreLimits(in limits: String) -> [String] {
  guard
    let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max core file size") })
  else { return [] }
  return line.dropFirst("Max core file size".count)
    .split(separator: " ", omittingEmptySubsequences: true).prefix(2).map(String.init)
}

/// What the hardened (or, as a control, ordinary) process found and what its
/// same-user parent could do to it.
struct HardeningObservation {
  var childStatus: Int32?
  var childReport: UInt8
  var dumpable: Int32
  var coreLimits: [String]
  var memOpenErrno: Int32?
  var valueReadThroughMem: UInt64?
}

/// Runs in an exit-test child: drops to `nobody`, forks a target of the same
/// user that hardens itself (or not), and tries to read the target's memory
/// through `/proc/PID/mem` from the parent, the way another same-user process
/// would. The parent is the target's ancestor, so Yama's `ptrace_scope` 1 would
/// allow it; only dumpability decides.
func observeSameUserAccess(harden: Bool) -> HardeningObservation {
  // Give the hard core limit room first, so an unhardened process visibly keeps
  // a limit that hardening must lower.
  var core = rlimit(rlim_cur: 1 << 20, rlim_max: rlim_t.max)
  _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &core)
  if getuid() == 0 { precondition(dropToNobody(), "could not drop to nobody") }
  Dumpable.prepare()

  let shared = SharedPage()
  let limitsPath = strdup("/proc/self/limits")!
  var ready: [Int32] = [0, 0]
  var release: [Int32] = [0, 0]
  precondition(pipe(&ready) == 0 && pipe(&release) == 0)
  let value = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
  value.pointee = 0

  let target = fork()
  if target == 0 {
    // Changing the user ID cleared the dumpable flag; an ordinary process of
    // that user, started by exec, is dumpable. Start from there.
    Dumpable.set(1)
    value.pointee = 0x5EC2_E7ED  // in the target's copy only
    var report: UInt8 = 0
    if harden {
      let result = ProcessHardening.apply()
      if !result.isComplete { report |= 1 }
    }
    shared.bytes.storeBytes(of: Dumpable.current, toByteOffset: 0, as: Int32.self)
    let limits = open(limitsPath, O_RDONLY)
    if limits >= 0 {
      _ = read(limits, shared.bytes.baseAddress! + 8, pageSize - 9)
      close(limits)
    } else {
      report |= 2
    }
    _ = write(ready[1], &report, 1)
    var byte: UInt8 = 0
    _ = read(release[0], &byte, 1)
    _exit(0)
  }

  var report: UInt8 = 0xFF
  _ = read(ready[0], &report, 1)
  let dumpable = shared.bytes.load(as: Int32.self)
  let limitsText = String(
    decoding: UnsafeRawBufferPointer(rebasing: shared.bytes[8...]).prefix { $0 != 0 },
    as: UTF8.self)
  let mem = open("/proc/\(target)/mem", O_RDONLY)
  let memOpenErrno = mem < 0 ? errno : nil
  var seen: UInt64?
  if mem >= 0 {
    var word: UInt64 = 0
    if pread(mem, &word, 8, off_t(Int(bitPattern: value))) == 8 { seen = word }
    close(mem)
  }
  var byte: UInt8 = 0
  _ = write(release[1], &byte, 1)
  return HardeningObservation(
    childStatus: exitStatus(of: target), childReport: report, dumpable: dumpable,
    coreLimits: coreLimits(in: limitsText), memOpenErrno: memOpenErrno,
    valueReadThroughMem: seen)
}

@Suite("ProcessHardening")
struct ProcessHardeningTests {
  @Test(
    "after apply(), the process is not dumpable, its core limit is 0 0, and a same-user process cannot open its /proc/PID/mem"
  )
  func hardened() async {
    await #expect(processExitsWith: .success) {
      let seen = observeSameUserAccess(harden: true)
      #expect(seen.childStatus == 0)
      #expect(seen.childReport == 0, "apply() reported a protection missing, or limits unreadable")
      #expect(seen.dumpable == 0)
      #expect(seen.coreLimits == ["0", "0"])
      #expect(seen.memOpenErrno == EACCES || seen.memOpenErrno == EPERM, "\(seen)")
      #expect(seen.valueReadThroughMem == nil)
    }
  }

  @Test("control: without hardening, the same-user parent opens /proc/PID/mem and reads the child")
  func controlUnhardened() async {
    await #expect(processExitsWith: .success) {
      let seen = observeSameUserAccess(harden: false)
      #expect(seen.childStatus == 0)
      #expect(seen.childReport == 0)
      #expect(seen.dumpable == 1)
      #expect(seen.coreLimits.count == 2 && seen.coreLimits != ["0", "0"], "\(seen.coreLimits)")
      #expect(seen.memOpenErrno == nil, "\(seen)")
      #expect(seen.valueReadThroughMem == 0x5EC2_E7ED, "\(seen)")
    }
  }

  @Test("apply() reports both protections, and a second call changes nothing")
  func reportAndIdempotence() async {
    await #expect(processExitsWith: .success) {
      let first = ProcessHardening.apply()
      let second = ProcessHardening.apply()
      #expect(first.isComplete && first.coreDumpsDisabled && first.isNotDumpable)
      #expect(first.failureErrno == nil)
      #expect(second == first)
      #expect(first.description == "core dumps off, not dumpable")
      #expect(Dumpable.current == 0)
    }
  }
}
