/// `keystroke_echo_askpass`, `keystroke_echo_secretfield` and
/// `keystroke_echo_pinentry`, on a pty: from one key (`a`) written to the
/// master to its mask glyph read back from it, beside the baseline program
/// where it is installed (`systemd-ask-password` for the first two,
/// `pinentry-curses` for the pinentry).
///
/// Each variant keeps one program at its prompt and types into it; after
/// every key the master is drained until it has been quiet for 10 ms (outside
/// the clock), so the next key starts from an idle program and no glyph of
/// the previous redraw is counted. After 32 keys the program is killed and a
/// new one started, so the field never scrolls. The floor is two trips
/// through the pty and two wake-ups: the key to the program, the glyph back.
struct KeystrokeEchoBenchmarks: BenchmarkGroup {
  let names = ["keystroke_echo_askpass", "keystroke_echo_secretfield", "keystroke_echo_pinentry"]

  /// Keys typed into one program before it is replaced by a fresh one.
  static let keysPerProcess = 32

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let comparisons = [
      TerminalComparison.available(
        "keystroke_echo_askpass", subject: .secretFieldAskpass, baseline: .systemdAskPassword),
      TerminalComparison.available(
        "keystroke_echo_secretfield", subject: .secretFieldPrompt, baseline: .systemdAskPassword),
      TerminalComparison.available(
        "keystroke_echo_pinentry", subject: .secretFieldPinentry, baseline: .pinentryCurses),
    ].compactMap { $0 }
    var results: [BenchmarkResult] = []
    for comparison in comparisons {
      let glyphs = comparison.programs.map { program in
        program.label + " "
          + program.maskGlyphs.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " or ")
      }
      let note =
        "\"a\" written to the pty master to the mask glyph ("
        + glyphs.joined(separator: ", ") + ") read back; quiet for 10 ms between keys,"
        + " a new process every \(Self.keysPerProcess) keys"
      results.append(
        comparison.result(try Self.measureEcho(of: comparison, with: sampler), note: note))
    }
    return results
  }

  private static func measureEcho(
    of comparison: TerminalComparison, with sampler: Sampler
  ) throws -> [Sampler.Measurement] {
    let programs = comparison.programs
    var processes: [PseudoTerminalProcess?] = Array(repeating: nil, count: programs.count)
    var keysTyped = Array(repeating: 0, count: programs.count)
    var offsets = Array(repeating: 0, count: programs.count)
    var failure: TerminalBenchmarkError? = nil
    defer { for process in processes { process?.end() } }
    let key: [UInt8] = Array("a".utf8)
    let measurements = sampler.forSlowOperations.measureSingleIterations(
      programs.map(\.label),
      prepare: { variant in
        guard failure == nil else { return }
        if processes[variant] == nil || keysTyped[variant] >= keysPerProcess {
          processes[variant]?.end()
          processes[variant] = nil
          do throws(TerminalBenchmarkError) {
            processes[variant] = try programs[variant].startToPrompt()
            keysTyped[variant] = 0
          } catch {
            failure = error
            return
          }
        }
        offsets[variant] = processes[variant]!.terminalOutput.count
      },
      run: { variant in
        guard failure == nil, let process = processes[variant] else { return }
        process.type(key)
        if !process.waitForTerminalOutput(
          anyOf: programs[variant].maskGlyphs, after: offsets[variant],
          deadline: MonotonicClock.now() + TerminalProgram.patience)
        {
          failure = TerminalBenchmarkError(
            message: "\(programs[variant].label) did not echo a mask glyph")
        }
      },
      finish: { variant in
        guard let process = processes[variant] else { return }
        keysTyped[variant] += 1
        process.waitForQuiet(
          quietMilliseconds: 10, deadline: MonotonicClock.now() + TerminalProgram.patience)
        blackhole(process.terminalOutput.count)
      })
    if let failure { throw failure }
    return measurements
  }
}
