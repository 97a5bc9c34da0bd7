import CSodium
import Glibc

/// `alloc_free_64_step_*`: what each system call `SecureBuffer` adds to a raw
/// `sodium_malloc(64)` + `memset` + `sodium_free` costs on its own, on a fresh
/// region as in a real allocation. Each variant is the raw triple plus one step;
/// the step's cost is its median less the baseline's, both from the same run.
///
/// `span_noaccess` is not a step `SecureBuffer` takes today: it is one
/// `mprotect(PROT_NONE)` over guard page, data pages and guard page, the
/// cheaper way to both check the guards and leave the data no-access.
struct AllocationStepBenchmarks: BenchmarkGroup {
  /// One step: its figure's name, what it does, and the calls themselves.
  struct Step: Sendable {
    let name: String
    let calls: String
    let apply: @Sendable (RawSodiumRegion) -> Int32
  }

  static let size = 64

  static let steps: [Step] = {
    let page = RawSodiumRegion.pageSize
    return [
      Step(name: "mlock", calls: "mlock(data pages)") { mlock($0.dataPages, $0.dataPagesCount) },
      Step(name: "guard_pages", calls: "mprotect(PROT_NONE) on each guard page") {
        mprotect($0.dataPages - page, page, PROT_NONE)
          | mprotect($0.dataPages + $0.dataPagesCount, page, PROT_NONE)
      },
      Step(name: "dontdump", calls: "madvise(MADV_DONTDUMP)") {
        madvise($0.dataPages, $0.dataPagesCount, MADV_DONTDUMP)
      },
      Step(name: "wipeonfork", calls: "madvise(MADV_WIPEONFORK)") {
        madvise($0.dataPages, $0.dataPagesCount, MADV_WIPEONFORK)
      },
      Step(name: "noaccess", calls: "sodium_mprotect_noaccess") {
        sodium_mprotect_noaccess($0.start)
      },
      Step(name: "owner_pid", calls: "getpid() twice (SecureBuffer's init and deinit)") { _ in
        getpid() &+ getpid()
      },
      Step(
        name: "span_noaccess",
        calls: "one mprotect(PROT_NONE) over guard+data+guard (not used today; would replace"
          + " guard_pages and noaccess)"
      ) { mprotect($0.dataPages - page, $0.dataPagesCount + 2 * page, PROT_NONE) },
    ]
  }()

  var names: [String] { Self.steps.map { "alloc_free_64_step_\($0.name)" } }

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let steps = Self.steps
    let rawLabel = "sodium_malloc+memset+sodium_free"
    let measurements = sampler.measure([rawLabel] + steps.map(\.name)) { variant, iterations in
      for _ in 0..<iterations {
        let region = RawSodiumRegion(size: Self.size)
        if variant > 0 { blackhole(Int(steps[variant - 1].apply(region))) }
        region.free()
      }
    }
    let raw = measurements[0]
    return zip(steps, measurements.dropFirst()).map { step, measurement in
      let added = measurement.nanosecondsPerIteration.median - raw.nanosecondsPerIteration.median
      return .timed(
        "alloc_free_64_step_\(step.name)", measurement, baseline: (rawLabel, raw),
        note: "\(step.calls): adds \(Report.format(added, unit: "ns"))")
    }
  }
}
