/// The command line: `[--quick] [--filter NAME] [--json PATH] [--help]`.
///
/// Parsed by hand: the target has no dependency outside the package, so that
/// nothing but SecretField, SecureMemory and libsodium sits in what it measures.
struct BenchmarkOptions: Equatable {
  /// Run every benchmark briefly (``SamplingPlan/quick``).
  var quick = false
  /// Run only figures whose name contains one of these (all when empty).
  var filters: [String] = []
  /// Where to write the JSON results, if anywhere.
  var jsonPath: String?
  /// Print the usage and exit.
  var help = false

  static let usage = """
    USAGE: SecretFieldBenchmarks [--quick] [--filter NAME]... [--json PATH]

    Measures what SecretField's protections cost, each beside its raw libsodium
    baseline, interleaved in one process. Prints a table; times are per iteration.

    OPTIONS:
      --quick         a smoke run of every benchmark in a few seconds (rough figures)
      --filter NAME   run only figures whose name contains NAME (repeatable)
      --json PATH     also write the results as JSON to PATH
      -h, --help      show this help

    Build with -c release: `swift run -c release SecretFieldBenchmarks`. The
    terminal benchmarks start the tools built beside this binary, or those in
    the directory SECRETFIELD_BENCHMARK_TOOLS names (/usr/bin: the installed
    package's).
    """

  /// Whether the figure `name` is selected by the filters.
  func selects(_ name: String) -> Bool {
    filters.isEmpty || filters.contains { name.contains($0) }
  }

  /// Parses `arguments` (without the program name).
  ///
  /// - Throws: ``UsageError`` for an unknown option or a missing value.
  init(parsing arguments: [String]) throws(UsageError) {
    var remaining = arguments[...]
    func value(for option: String) throws(UsageError) -> String {
      guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
        throw UsageError("\(option) needs a value")
      }
      return value
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--quick": quick = true
      case "--filter": filters.append(try value(for: argument))
      case "--json": jsonPath = try value(for: argument)
      case "-h", "--help": help = true
      default:
        if argument.hasPrefix("--filter=") {
          filters.append(String(argument.dropFirst("--filter=".count)))
        } else if argument.hasPrefix("--json=") {
          jsonPath = String(argument.dropFirst("--json=".count))
        } else {
          throw UsageError("unknown argument '\(argument)'")
        }
      }
    }
  }
}

/// The command line could not be understood.
struct UsageError: Error, CustomStringConvertible {
  /// What was wrong, for the user.
  let description: String

  init(_ description: String) { self.description = description }
}
