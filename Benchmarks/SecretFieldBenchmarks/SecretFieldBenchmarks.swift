import Glibc

/// Runs the selected benchmark groups, prints the table, and writes the JSON.
///
/// Exit status: 0 when every selected group ran, 1 when a group failed or the
/// JSON could not be written, 2 for a usage error (as every SecretField tool).
@main
enum SecretFieldBenchmarks {
  static func main() {
    let options: BenchmarkOptions
    do {
      options = try BenchmarkOptions(parsing: Array(CommandLine.arguments.dropFirst()))
    } catch {
      printError("error: \(error)\n\n\(BenchmarkOptions.usage)")
      exit(2)
    }
    if options.help {
      print(BenchmarkOptions.usage)
      exit(0)
    }
    #if DEBUG
      printError("warning: a debug build; figures mean little. Use `swift run -c release`.")
    #endif

    if let path = options.jsonPath {
      // Find out now, not after a minute of measuring, that the file cannot be written.
      do { try Report.write("", to: path) } catch {
        printError("error: \(error)")
        exit(1)
      }
    }

    let sampler = Sampler(plan: options.quick ? .quick : .full)
    var results: [BenchmarkResult] = []
    var failed = false
    for group in Registry.groups where group.names.contains(where: options.selects) {
      printError("running \(group.names.joined(separator: ", "))")
      do {
        results += try group.run(with: sampler).filter { options.selects($0.name) }
      } catch {
        printError("error: \(group.names.joined(separator: ", ")): \(error)")
        failed = true
      }
    }
    if results.isEmpty && !failed {
      printError("error: no benchmark matches \(options.filters)")
      exit(2)
    }

    print(Report.table(results), terminator: "")
    if let path = options.jsonPath {
      do { try Report.write(Report.json(results), to: path) } catch {
        printError("error: \(error)")
        failed = true
      }
    }
    exit(failed ? 1 : 0)
  }

  private static func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
  }
}
