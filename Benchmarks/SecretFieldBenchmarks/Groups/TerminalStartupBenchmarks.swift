/// `prompt_startup` and `pinentry_startup`, on a pty, each beside the program
/// people use today where it is installed.
///
/// - `prompt_startup`: from `posix_spawn` of `secretfield-askpass Startup:`
///   (standard input and error on the terminal) to `Startup:` read back from
///   the master, beside `systemd-ask-password Startup:` started alike.
///   `prompt_startup_secretfield` times `secretfield prompt Startup:` the same
///   way, the same prompt behind the general tool, and runs before the askpass
///   exists. `prompt_startup_static` times the askpass users install, the
///   statically linked build of `Scripts/package` (`.build/static/release`,
///   or the directory `SECRETFIELD_STATIC_TOOLS` names), against the same
///   baseline.
/// - `pinentry_startup`: from `GETPIN` written to `pinentry-secretfield`, after
///   the greeting and `OPTION ttyname`, `ttytype`, `lc-ctype` and `SETPROMPT`
///   were answered, to `Startup:` read back from the master, beside
///   `pinentry-curses` given the same lines.
///
/// Every sample is a new pty and a new process; making the pty, the
/// pinentry's exchange before `GETPIN`, and killing and reaping the process
/// are outside the clock. The floor is the kernel's: `fork`/`exec`, the
/// dynamic loader, and the pty's line discipline.
struct TerminalStartupBenchmarks: BenchmarkGroup {
  let names = [
    "prompt_startup", "prompt_startup_secretfield", "prompt_startup_static", "pinentry_startup",
  ]

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let comparisons = [
      TerminalComparison.available(
        "prompt_startup", subject: .secretFieldAskpass, baseline: .systemdAskPassword),
      TerminalComparison.available(
        "prompt_startup_secretfield", subject: .secretFieldPrompt, baseline: .systemdAskPassword),
      TerminalComparison.available(
        "prompt_startup_static", subject: .staticAskpass, baseline: .systemdAskPassword),
      TerminalComparison.available(
        "pinentry_startup", subject: .secretFieldPinentry, baseline: .pinentryCurses),
    ].compactMap { $0 }
    var results: [BenchmarkResult] = []
    for comparison in comparisons {
      let note =
        comparison.subject.kind == .askpass
        ? "posix_spawn (new session, stdin/stderr on an 80x24 pty) to \"Startup:\" read back"
          + " from the master; a new pty and process per sample"
        : "GETPIN written (after the greeting, 3 OPTIONs and SETPROMPT were answered) to"
          + " \"Startup:\" read back from the master; a new pty and process per sample"
      results.append(
        comparison.result(try Self.measureStartup(of: comparison, with: sampler), note: note))
    }
    return results
  }

  /// One sample per variant per round: a new pty (and for a pinentry its
  /// exchange up to `GETPIN`), then the timed start to the prompt, then the
  /// process killed and reaped.
  private static func measureStartup(
    of comparison: TerminalComparison, with sampler: Sampler
  ) throws -> [Sampler.Measurement] {
    let programs = comparison.programs
    var processes: [PseudoTerminalProcess?] = Array(repeating: nil, count: programs.count)
    var failure: TerminalBenchmarkError? = nil
    let measurements = sampler.forSlowOperations.measureSingleIterations(
      programs.map(\.label),
      prepare: { variant in
        guard failure == nil else { return }
        do throws(TerminalBenchmarkError) {
          let process = try programs[variant].prepare()
          if programs[variant].kind == .pinentry { try programs[variant].startPinentry(process) }
          processes[variant] = process
        } catch { failure = error }
      },
      run: { variant in
        guard failure == nil, let process = processes[variant] else { return }
        if !programs[variant].drawPrompt(process) {
          failure = TerminalBenchmarkError(
            message: "\(programs[variant].label) did not draw \"\(TerminalProgram.promptText)\"")
        }
      },
      finish: { variant in
        guard let process = processes[variant] else { return }
        blackhole(process.terminalOutput.count)
        process.end()
        processes[variant] = nil
      })
    if let failure { throw failure }
    return measurements
  }
}
