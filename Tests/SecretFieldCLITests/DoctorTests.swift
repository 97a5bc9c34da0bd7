import Glibc
@_spi(Testing) import SecureMemory
import SecretFieldCLI
import Testing

/// The lines `secretfield doctor` printed, by subject, with their mark.
struct DoctorReport {
  var status: Int32
  var marks: [String: String] = [:]
  var text: String

  init(_ run: ProgramRun) {
    self.init(status: run.status, text: run.output)
  }

  init(status: Int32, text: String) {
    self.status = status
    self.text = text
    for line in text.split(separator: "\n") where line.hasPrefix("  ") {
      let words = line.split(separator: " ", maxSplits: 1)
      guard words.count == 2 else { continue }
      let subject = words[1].trimmingPrefix(while: { $0 == " " })
      for name in DoctorReport.subjects where subject.hasPrefix(name) {
        marks[name] = String(words[0])
      }
    }
  }

  static let subjects = [
    "secret memory", "locked memory", "vm.max_map_count", "ptrace scope", "core dumps",
    "hardening", "kernel keyring",
  ]
}

/// Runs `secretfield doctor` under `RLIMIT_MEMLOCK` of `lockLimit` bytes, as
/// `nobody` (root's CAP_IPC_LOCK would lift the limit), through util-linux's
/// `prlimit` and `setpriv`.
func doctorAsNobody(lockLimit: Int) throws -> DoctorReport {
  DoctorReport(
    try runProgram(
      "/usr/bin/prlimit",
      [
        "--memlock=\(lockLimit):\(lockLimit)", "/usr/bin/setpriv", "--reuid=65534",
        "--regid=65534", "--clear-groups", secretfield, "doctor",
      ], environment: ["PATH": "/usr/bin:/bin"]))
}

@Suite("secretfield doctor: each line measured; exit 1 only for a shortfall")
struct DoctorTests {
  @Test("on this machine every line holds or does not apply, and it exits 0")
  func thisMachine() throws {
    let report = DoctorReport(try runProgram(secretfield, ["doctor"], environment: [:]))
    #expect(report.status == 0, "\(report.text)")
    #expect(report.marks.keys.sorted() == DoctorReport.subjects.sorted(), "\(report.text)")
    #expect(report.marks.values.allSatisfy { $0 == "ok" || $0 == "n/a" }, "\(report.text)")
    #expect(report.marks["secret memory"] == "ok", "this kernel has memfd_secret")
    #expect(report.text.contains("The strongest protection holds."))
  }

  @Test(
    "under a 32 KiB lock limit as nobody the locked-memory line falls short and it exits 1; at 8 MiB (the control) it holds",
    .enabled(if: getuid() == 0, "needs root to become nobody"))
  func lowLockLimit() throws {
    let low = try doctorAsNobody(lockLimit: 32 * 1024)
    #expect(low.status == 1, "\(low.text)")
    #expect(low.marks["locked memory"] == "SHORT", "\(low.text)")
    #expect(low.text.contains("RLIMIT_MEMLOCK 32 KiB") && low.text.contains("ulimit -l"))
    #expect(low.text.contains("1 of 7 lines fall short: locked memory."), "\(low.text)")
    let usual = try doctorAsNobody(lockLimit: 8 * 1024 * 1024)
    #expect(usual.status == 0, "\(usual.text)")
    #expect(usual.marks["locked memory"] == "ok", "\(usual.text)")
  }

  @Test("on a kernel without memfd_secret (the ENOSYS seam) the secret-memory line falls short")
  func withoutSecretMemory() async {
    await #expect(processExitsWith: .success) {
      var pipe: [Int32] = [0, 0]
      #expect(Glibc.pipe(&pipe) == 0)
      var context = CommandContext()
      context.standardOutput = pipe[1]
      SecureStorage.simulateSecretMemoryFailure(errno: ENOSYS)
      let status = DoctorCommand().run(in: context)
      close(pipe[1])
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let got = chunk.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress, $0.count) }
        if got <= 0 { break }
        bytes += chunk[..<got]
      }
      let report = DoctorReport(status: status.code, text: String(decoding: bytes, as: UTF8.self))
      #expect(report.status == 1, "\(report.text)")
      #expect(report.marks["secret memory"] == "SHORT", "\(report.text)")
      #expect(report.text.contains("memfd_secret") && report.text.contains("5.14"))
    }
  }
}
