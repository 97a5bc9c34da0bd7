/// Every benchmark group, in the order the table lists them.
///
/// A new group is one file under `Groups/` and one line here. Planned:
/// `KeystrokeBenchmarks` (keystroke_append_*, keystroke_middle_4096),
/// `PasteBenchmarks` (paste_64k, paste_1m), `RenderBenchmarks`
/// (render_masked_256), all over `SecretFieldState`; `PasswordHashBenchmarks`
/// (argon2id_interactive); `TerminalBenchmarks` (prompt_startup,
/// pinentry_startup, keystroke_echo, on a pty).
enum Registry {
  static let groups: [any BenchmarkGroup] = [
    AllocationBenchmarks(),
    AllocationStepBenchmarks(),
    WindowBenchmarks(),
    EqualityBenchmarks(),
    LockedMemoryBenchmarks(),
    PasswordHashBenchmarks(),
  ]
}
