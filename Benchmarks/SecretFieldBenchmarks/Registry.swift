/// Every benchmark group, in the order the table lists them.
///
/// A new group is one file under `Groups/` and one line here.
enum Registry {
  static let groups: [any BenchmarkGroup] = [
    AllocationBenchmarks(),
    AllocationStepBenchmarks(),
    WindowBenchmarks(),
    ArenaBenchmarks(),
    EqualityBenchmarks(),
    KeystrokeBenchmarks(),
    MiddleKeystrokeBenchmarks(),
    PasteBenchmarks(),
    RenderBenchmarks(),
    LockedMemoryBenchmarks(),
    ArenaFootprintBenchmarks(),
    PasswordHashBenchmarks(),
    KeyDerivationBenchmarks(),
    SecretStreamBenchmarks(),
    TerminalStartupBenchmarks(),
    KeystrokeEchoBenchmarks(),
    KeyPathBenchmarks(),
    ColdWindowBenchmarks(),
    SecretTableBenchmarks(),
    SealedBenchmarks(),
    ScreencastLookBenchmarks(),
    StrengthBenchmarks(),
  ]
}
