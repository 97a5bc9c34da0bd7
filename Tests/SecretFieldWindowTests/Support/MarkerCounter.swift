import Foundation
import Glibc
import TestSupport

/// What a scan of another process found of one typed password: its whole
/// copies, and its 4-character runs.
struct MarkerCounts: Equatable, CustomStringConvertible {
  /// Whole copies, anywhere in the process's mappings.
  var copies: Int
  /// Places that hold some 4 consecutive characters of the password, counted
  /// without overlap (a whole copy of 24 characters is 6), outside pages
  /// mapped read-only from a file, which hold what the file holds.
  var runs: Int

  var description: String { "\(copies) copies, \(runs) 4-character runs" }
}

/// `marker-counter`, a C program the tests compile: it counts a password's
/// copies and runs in another process through `/proc/PID/maps` and
/// `/proc/PID/mem`, at once or at the moment that process exits.
///
/// To hold a process at its exit it attaches with `PTRACE_SEIZE` and
/// `PTRACE_O_TRACEEXIT` (ptrace is variadic in glibc, so Swift cannot call
/// it) and waits for the `PTRACE_EVENT_EXIT` stop, which comes in `do_exit`
/// before the address space is released: everything the program left behind
/// is still there, after its last write and its `exit` handlers. It counts,
/// detaches, and the process ends as it would have; its parent reaps it.
/// Reading another process's memory needs root (`CAP_SYS_PTRACE`).
final class MarkerCounter {
  private let program: CompiledProgram

  init() throws {
    program = try CompiledProgram(name: "marker-counter", source: Self.source)
  }

  /// Counts each of `passwords` in the running process `processID` now.
  func countNow(in processID: pid_t, passwords: [String]) throws -> [MarkerCounts] {
    let run = try TestProcess(
      [program.path, "now", String(processID)],
      standardInput: .text(passwords.map { $0 + "\n" }.joined())
    ).finish()
    return try Self.parse(run, expecting: passwords.count)
  }

  /// A password of 24 letters and digits (which every keyboard map xdotool
  /// uses can type) none of whose 4-character runs is in `processID` yet, so
  /// that a run found later was made from what was typed.
  func absentPassword(in processID: pid_t) throws -> String {
    let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
    let candidates = (0..<16).map { _ in String((0..<24).map { _ in letters.randomElement()! }) }
    let counts = try countNow(in: processID, passwords: candidates)
    guard let index = counts.firstIndex(of: MarkerCounts(copies: 0, runs: 0)) else {
      throw WindowTestError(description: "every candidate's runs were in memory: \(counts)")
    }
    return candidates[index]
  }

  /// Attaches to `processID` and holds it at its exit; ``ExitHold/counts()``
  /// gives what it held of `password` there.
  func holdAtExit(_ processID: pid_t, password: String) throws -> ExitHold {
    let tracer = try TestProcess(
      [program.path, "exit", String(processID)], standardInput: .text(password + "\n"))
    let hold = ExitHold(tracer: tracer)
    let deadline = ContinuousClock.now + .seconds(30)
    while try Self.tracer(of: processID) != tracer.processID {
      guard tracer.isRunning, ContinuousClock.now < deadline else {
        let run = try tracer.finish(within: .seconds(10))
        throw WindowTestError(description: "marker-counter did not attach: \(run.error)")
      }
      usleep(10_000)
    }
    return hold
  }

  /// A process held at its exit by `marker-counter`.
  final class ExitHold {
    fileprivate let tracer: TestProcess

    fileprivate init(tracer: TestProcess) { self.tracer = tracer }

    /// Waits for the process to exit, and what it held of the password then.
    func counts() throws -> MarkerCounts {
      try MarkerCounter.parse(tracer.finish(), expecting: 1)[0]
    }
  }

  /// The `TracerPid` of `/proc/PID/status`.
  private static func tracer(of processID: pid_t) throws -> pid_t {
    let status = try String(contentsOfFile: "/proc/\(processID)/status", encoding: .utf8)
    let line = status.split(separator: "\n").first { $0.hasPrefix("TracerPid:") } ?? ""
    return pid_t(line.split(separator: "\t").last ?? "") ?? 0
  }

  fileprivate static func parse(_ run: ProgramRun, expecting count: Int) throws -> [MarkerCounts] {
    let counts = run.output.split(separator: "\n").compactMap { line -> MarkerCounts? in
      let fields = line.split(separator: " ")
      guard fields.count == 4, let copies = Int(fields[1]), let runs = Int(fields[3]) else {
        return nil
      }
      return MarkerCounts(copies: copies, runs: runs)
    }
    guard run.status == 0, counts.count == count else {
      throw WindowTestError(
        description: "marker-counter failed (\(run.status)): \(run.output) \(run.error)")
    }
    return counts
  }

  /// `marker-counter now|exit PID`, the passwords on standard input, one a
  /// line; prints `copies N runs M` for each.
  static let source = #"""
    #define _GNU_SOURCE
    #include <errno.h>
    #include <fcntl.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/ptrace.h>
    #include <sys/wait.h>
    #include <unistd.h>

    enum { most = 32, longest = 256 };
    static char markers[most][longest];
    static size_t lengths[most], count;
    static long copies[most], runs[most];
    static unsigned char starts[65536]; /* the first two bytes of every run */

    static void scan(pid_t pid) {
      char path[64], line[4096];
      snprintf(path, sizeof path, "/proc/%d/maps", pid);
      FILE *maps = fopen(path, "r");
      snprintf(path, sizeof path, "/proc/%d/mem", pid);
      int mem = open(path, O_RDONLY);
      if (!maps || mem < 0) { perror(path); exit(2); }
      size_t size = 1 << 20, overlap = longest;
      unsigned char *chunk = malloc(size);
      long bytes = 0;
      while (fgets(line, sizeof line, maps)) {
        unsigned long low, high;
        char permissions[8] = "", name[4096] = "";
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095[^\n]", &low, &high, permissions, name) < 3)
          continue;
        /* Pages mapped read-only from a file (libraries, fonts, locale data)
           hold what the file holds: runs are not counted there, copies are. */
        int file_read_only = name[0] == '/' && permissions[1] != 'w' && !strstr(name, "(deleted)");
        unsigned long copy_free[most], run_free[most];
        for (size_t m = 0; m < count; m++) copy_free[m] = run_free[m] = low;
        for (unsigned long address = low; address < high;) {
          size_t want = high - address < size ? high - address : size;
          ssize_t got = pread(mem, chunk, want, (off_t)address);
          if (got <= 0) break; /* [vvar] and the like */
          bytes += got;
          for (ssize_t i = 0; i + 4 <= got; i++) {
            if (!starts[chunk[i] | chunk[i + 1] << 8]) continue;
            unsigned long at = address + i;
            for (size_t m = 0; m < count; m++) {
              if (at >= copy_free[m] && i + (ssize_t)lengths[m] <= got
                  && memcmp(chunk + i, markers[m], lengths[m]) == 0) {
                copies[m]++;
                copy_free[m] = at + lengths[m];
              }
              if (file_read_only || at < run_free[m]) continue;
              for (size_t r = 0; r + 4 <= lengths[m]; r++)
                if (memcmp(chunk + i, markers[m] + r, 4) == 0) {
                  runs[m]++;
                  run_free[m] = at + 4;
                  break;
                }
            }
          }
          if ((size_t)got <= overlap || address + got >= high) break;
          address += got - overlap;
        }
      }
      memset(chunk, 0, size);
      for (size_t m = 0; m < count; m++) printf("copies %ld runs %ld\n", copies[m], runs[m]);
      fprintf(stderr, "%ld bytes read\n", bytes);
      fflush(stdout);
    }

    int main(int argc, char **argv) {
      if (argc != 3) return 2;
      while (count < most && fgets(markers[count], longest, stdin)) {
        lengths[count] = strcspn(markers[count], "\n");
        if (lengths[count] < 4) return 2;
        for (size_t r = 0; r + 4 <= lengths[count]; r++)
          starts[(unsigned char)markers[count][r] | (unsigned char)markers[count][r + 1] << 8] = 1;
        count++;
      }
      pid_t pid = atoi(argv[2]);
      if (strcmp(argv[1], "now") == 0) {
        scan(pid);
        return 0;
      }
      if (ptrace(PTRACE_SEIZE, pid, 0, (void *)(long)PTRACE_O_TRACEEXIT) != 0) {
        perror("PTRACE_SEIZE");
        return 2;
      }
      for (;;) {
        int status;
        if (waitpid(pid, &status, __WALL) < 0) {
          if (errno == EINTR) continue;
          perror("waitpid");
          return 2;
        }
        if (!WIFSTOPPED(status)) {
          fprintf(stderr, "it ended without stopping at its exit\n");
          return 3;
        }
        int event = (unsigned)status >> 16;
        if (event == PTRACE_EVENT_EXIT) break;
        /* Any other stop: a signal is passed on, an event stop resumed. */
        ptrace(PTRACE_CONT, pid, 0, (void *)(long)(event == 0 ? WSTOPSIG(status) : 0));
      }
      scan(pid);
      ptrace(PTRACE_DETACH, pid, 0, 0);
      return 0;
    }
    """#
}
