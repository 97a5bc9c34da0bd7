import Glibc
import PTYSupport
@_spi(Testing) import SecureMemory
import SecretFieldCLI
import TestSupport
import Testing
import ToolSupport

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
    "fs.suid_dumpable", "hardening", "kernel keyring",
  ]
}

/// Runs `secretfield doctor` under `RLIMIT_MEMLOCK` of `lockLimit` bytes, as
/// `nobody` (root's CAP_IPC_LOCK would lift the limit), through util-linux's
/// `prlimit` and `setpriv`.
func doctorAsNobody(lockLimit: Int) throws -> DoctorReport {
  DoctorReport(
    try runProgram(
      [
        "/usr/bin/prlimit",
        "--memlock=\(lockLimit):\(lockLimit)", "/usr/bin/setpriv", "--reuid=65534",
        "--regid=65534", "--clear-groups", secretfield, "doctor",
      ],
      environment: .exactly(["PATH": "/usr/bin:/bin"])))
}

@Suite("secretfield doctor: each line measured; exit 1 only for a shortfall")
struct DoctorTests {
  @Test("on this machine every line holds or does not apply, and it exits 0")
  func thisMachine() throws {
    let report = DoctorReport(try runProgram([secretfield, "doctor"], environment: .exactly([:])))
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
    #expect(low.text.contains("1 of 8 lines fall short: locked memory."), "\(low.text)")
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

  @Test(
    "fs.suid_dumpable at 1 falls short and exits 1; at 0 and 2 (the controls) it holds",
    .enabled(if: getuid() == 0, "needs root for a private mount namespace"))
  func suidDumpable() throws {
    let directory = try TemporaryDirectory()
    for (mode, mark, status) in [("1", "SHORT", Int32(1)), ("0", "ok", 0), ("2", "ok", 0)] {
      // The machine's sysctl stays as it is: the doctor reads a file bound
      // over it in a mount namespace of its own.
      let file = directory.path + "/suid_dumpable"
      try "\(mode)\n".write(toFile: file)
      let report = DoctorReport(
        try runProgram(
          [
            "/usr/bin/unshare",
            "--mount", "--propagation", "private", "/bin/sh", "-c",
            "mount --bind \"$1\" /proc/sys/fs/suid_dumpable && exec \"$2\" doctor", "sh", file,
            secretfield,
          ],
          environment: .exactly(["PATH": "/usr/bin:/bin"])))
      #expect(report.marks["fs.suid_dumpable"] == mark, "\(mode): \(report.text)")
      #expect(report.status == status, "\(mode): \(report.text)")
      #expect(report.text.contains("\(mode): a process that changes its user"), "\(report.text)")
    }
  }

  @Test(
    "under a seccomp filter that refuses memfd_secret the line says a sandbox forbids it, not the kernel; without the filter (the control) it holds"
  )
  func secretMemoryForbiddenBySandbox() throws {
    let directory = try TemporaryDirectory()
    let launcher = try buildSeccompLauncher(in: directory.path)
    let filtered = DoctorReport(
      try runProgram(
        [launcher, secretfield, "doctor"], environment: .exactly(["PATH": "/usr/bin:/bin"])))
    #expect(filtered.status == 1, "\(filtered.text)")
    #expect(filtered.marks["secret memory"] == "SHORT", "\(filtered.text)")
    #expect(filtered.text.contains("forbidden by a sandbox"), "\(filtered.text)")
    #expect(!filtered.text.contains("5.14"), "\(filtered.text)")
    // The tools still run there, on sodium memory: .strongestAvailable falls back.
    let prompt = try runProgram(
      [launcher, secretfield, "prompt", "--password-from", "env:SF_DOCTOR_PW"],
      environment: .exactly(["PATH": "/usr/bin:/bin", "SF_DOCTOR_PW": "sandboxed"]))
    #expect(prompt.status == 0, "\(prompt.error)")
    #expect(prompt.output == "sandboxed\n")
    let control = DoctorReport(
      try runProgram([launcher, "--no-filter", secretfield, "doctor"], environment: .exactly([:])))
    #expect(control.marks["secret memory"] == "ok", "\(control.text)")
  }
}

/// Builds, with gcc, a launcher that installs a seccomp filter answering
/// `memfd_secret` with `EPERM` (as a container's default profile does), then
/// runs its arguments; `--no-filter` first runs them without it.
func buildSeccompLauncher(in directory: String) throws -> String {
  let source = directory + "/nosecret.c"
  try """
  #include <errno.h>
  #include <linux/filter.h>
  #include <linux/seccomp.h>
  #include <stddef.h>
  #include <string.h>
  #include <sys/prctl.h>
  #include <sys/syscall.h>
  #include <unistd.h>

  int main(int argc, char **argv) {
    struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_memfd_secret, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {sizeof filter / sizeof filter[0], filter};
    if (argc > 2 && strcmp(argv[1], "--no-filter") == 0) {
      execv(argv[2], argv + 2);
      return 121;
    }
    if (argc < 2 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0)
      return 120;
    execv(argv[1], argv + 1);
    return 121;
  }

  """.write(toFile: source)
  let launcher = directory + "/nosecret"
  let build = try runProgram(
    ["/usr/bin/gcc", "-O2", "-o", launcher, source],
    environment: .exactly(["PATH": "/usr/bin:/bin"]))
  guard build.status == 0 else { throw HarnessError("gcc: \(build.error)") }
  return launcher
}
