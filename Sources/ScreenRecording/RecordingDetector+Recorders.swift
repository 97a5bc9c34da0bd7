extension RecordingDetector {
  /// The programs that record a terminal session, by the names their processes
  /// carry: util-linux `script`, `asciinema`, `ttyrec`, `termrec`, charmbracelet
  /// `vhs`, and tlog's `tlog-rec` and `tlog-rec-session` (session recording on
  /// Red Hat systems).
  public static let knownRecorders = [
    "script", "asciinema", "ttyrec", "termrec", "vhs", "tlog-rec", "tlog-rec-session",
  ]

  /// Environment variables a recorder sets for the programs it records, and
  /// the recorder. Set and not empty counts.
  public static let recorderEnvironmentVariables = ["ASCIINEMA_REC": "asciinema"]

  /// Every environment variable the detector reads: the recorders' and tmux's
  /// `TMUX` and `TMUX_PANE`. An inspector need not keep any other.
  public static var consultedVariables: Set<String> {
    Set(recorderEnvironmentVariables.keys).union(["TMUX", "TMUX_PANE"])
  }

  /// The recorder that sets `name` in the environment it records.
  static func recorderSetting(environmentVariable name: String) -> String? {
    recorderEnvironmentVariables[name]
  }

  /// The one of `recorders` (the known terminal recorders unless given) that
  /// `entry` is, if any: by its kernel name (`comm`, cut to 15 bytes), the
  /// program of its command line, or, when that program is an interpreter,
  /// the script or `-m` module it runs.
  ///
  /// - Complexity: O(length of the command line up to the script).
  package static func recorder(
    in entry: ProcessEntry, among recorders: [String] = knownRecorders
  ) -> String? {
    var candidates = [entry.name]
    if let program = entry.arguments.first.map(fileName) {
      candidates.append(program)
      if isInterpreter(program) || isInterpreter(entry.name),
        let script = scriptName(in: entry.arguments.dropFirst())
      {
        candidates.append(script)
      }
    }
    for candidate in candidates where !candidate.isEmpty {
      if let recorder = recorders.first(where: { namesMatch($0, candidate) }) {
        return recorder
      }
    }
    return nil
  }

  /// Equal, or `candidate` is the kernel's 15-byte cut of a longer name.
  private static func namesMatch(_ recorder: String, _ candidate: String) -> Bool {
    recorder == candidate
      || (recorder.utf8.count > 15 && candidate.utf8.count == 15 && recorder.hasPrefix(candidate))
  }

  /// The last component of a path.
  package static func fileName(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
  }

  /// `python3.11`, `perl5.36`, `bash`, ...: a program that runs a script named
  /// in its arguments.
  package static func isInterpreter(_ name: String) -> Bool {
    let base = name.prefix { !$0.isNumber && $0 != "." }
    return ["python", "pypy", "perl", "ruby", "node", "sh", "bash", "dash", "zsh"]
      .contains(String(base))
  }

  /// The script an interpreter runs: the first argument that is not an
  /// option, or the module after `-m`; nil after `-c` (code on the command
  /// line).
  private static func scriptName(in arguments: ArraySlice<String>) -> String? {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "-m":
        return remaining.first.map { String($0.prefix { $0 != "." }) }
      case "-c", "--":
        return argument == "--" ? remaining.first.map(fileName) : nil
      default:
        if argument.hasPrefix("-") { continue }
        return fileName(argument)
      }
    }
    return nil
  }
}
