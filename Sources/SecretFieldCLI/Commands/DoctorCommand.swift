import SecureMemory
package import ToolSupport

/// `secretfield doctor`: one screen that says what protection this machine and
/// this user give a password, each line measured in this process rather than
/// assumed from the kernel's version.
///
/// Exit status 0 when the strongest protection holds, 1 when a line falls
/// short (marked `SHORT`, with what to do); a line that does not apply here
/// (`n/a`, such as the ptrace scope without the Yama module) is not a shortfall.
package struct DoctorCommand: Command {
  /// `doctor`.
  package static let name = "doctor"
  /// One line for the tool's list.
  package static let summary = "measure what protection this machine gives a password"
  /// The text of `--help`.
  package static let help = """
    Usage: secretfield doctor

    Measures, in this process, what protection a password gets on this machine
    and for this user: whether secret memory (memfd_secret) hides it from root,
    how many secrets the locked-memory limit (RLIMIT_MEMLOCK) and vm.max_map_count
    leave room for, the ptrace scope (Yama), whether a core dump would be
    written (core_pattern), whether the hardening (PR_SET_DUMPABLE, RLIMIT_CORE)
    holds, and whether the kernel keyring can be reached. Each line says ok,
    SHORT (with what to do) or n/a (does not apply here, not a shortfall).

    Exit status: 0 the strongest protection holds; 1 a line falls short; 2 usage
    error.
    """

  /// The fewest secrets, one locked page and three mappings each, that the
  /// limits must leave room for: a prompt holds about ten (the field, the key
  /// decoder's two buffers, the copy it returns, a pinentry's Assuan buffers).
  package static let secretsNeeded = 16

  /// The command; it takes no arguments.
  package init() {}

  /// Accepts no arguments.
  package init(arguments: [String]) throws(UsageError) {
    if let first = arguments.first {
      throw first.hasPrefix("-")
        ? .unknownOption(first) : .unexpectedArgument(first, "doctor takes no arguments")
    }
  }

  /// Measures every line, prints them, and returns 0 when none falls short.
  package func run(in context: CommandContext) -> ExitStatus {
    let findings = SecureMemoryDiagnostics.survey(secretsNeeded: Self.secretsNeeded)
    let short = findings.filter { $0.verdict == .fallsShort }
    var text = "What protection a password gets here, each line measured:\n\n"
    text += findings.map { "  \($0)\n" }.joined()
    text +=
      short.isEmpty
      ? "\nThe strongest protection holds.\n"
      : "\n\(short.count) of \(findings.count) lines fall short: "
        + short.map(\.subject).joined(separator: ", ") + ".\n"
    context.printOutput(text)
    return short.isEmpty ? .success : .cancelled
  }
}
