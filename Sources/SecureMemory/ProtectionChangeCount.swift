import Synchronization

/// How many times the package has changed the protection of secure memory
/// (`sodium_mprotect_*`, `mprotect`: buffers and arena slabs alike), since the
/// process started.
///
/// A measurement seam, not an API: the package's own benchmarks and the tests
/// that count a keystroke's windows read it, through `package` access. The
/// count is process-wide and never reset; read it before and after the work.
///
/// - Complexity: one relaxed atomic add per protection change (a few
///   nanoseconds beside the system call it counts).
package enum ProtectionChangeCount {
  /// The protection changes made so far, on every thread.
  package static var current: Int { counter.load(ordering: .relaxed) }

  /// Notes one change; called by the wrappers in `Sodium` and `Kernel` alone.
  static func note() { counter.add(1, ordering: .relaxed) }

  private static let counter = Atomic<Int>(0)
}
