/// Every benchmark group, in the order the table lists them.
///
/// A new group is one file under `Groups/` and one line here. Planned:
/// `TerminalBenchmarks` (prompt_startup, pinentry_startup, keystroke_echo, on a
/// pty).
enum Registry {
  static let groups: [any BenchmarkGroup] = [
    AllocationBenchmarks(),
    AllocationStepBenchmarks(),
    WindowBenchmarks(),
    EqualityBenchmarks(),
    KeystrokeBenchmarks(),
    MiddleKeystrokeBenchmarks(),
    PasteBenchmarks(),
    RenderBenchmarks(),
    LockedMemoryBenchmarks(),
    PasswordHashBenchmarks(),
  ]
}
