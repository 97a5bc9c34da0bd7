import Glibc
import PTYSupport
import TestSupport
import Testing

/// A command of a tool whose options must be documented: its `--help` says
/// which options it takes; its man page and completions must offer each.
struct DocumentedCommand: CustomTestStringConvertible, Sendable {
  /// The executable's name, as in `Documentation/man/NAME.1`.
  let tool: String
  /// The command word after the tool's name, if it has commands.
  let command: String?
  /// The man page that documents it.
  let manPage: String
  /// The bash completion file, and the zsh and fish ones.
  let bash: String
  let zsh: String
  let fish: String
  var testDescription: String { ([tool] + (command.map { [$0] } ?? [])).joined(separator: " ") }

  static func secretfield(_ command: String) -> DocumentedCommand {
    DocumentedCommand(
      tool: "secretfield", command: command, manPage: "secretfield.1", bash: "secretfield.bash",
      zsh: "_secretfield", fish: "secretfield.fish")
  }

  static func window(_ command: String) -> DocumentedCommand {
    DocumentedCommand(
      tool: "secretfield-window", command: command, manPage: "secretfield-window.1",
      bash: "secretfield-window.bash", zsh: "_secretfield-window", fish: "secretfield-window.fish")
  }

  static let all: [DocumentedCommand] =
    ["prompt", "hash", "verify", "forget", "doctor", "agent"].map(secretfield) + [
      DocumentedCommand(
        tool: "secretfield-askpass", command: nil, manPage: "secretfield-askpass.1",
        bash: "secretfield.bash", zsh: "_secretfield", fish: "secretfield-askpass.fish"),
      DocumentedCommand(
        tool: "pinentry-secretfield", command: nil, manPage: "pinentry-secretfield.1",
        bash: "secretfield.bash", zsh: "_secretfield", fish: "pinentry-secretfield.fish"),
    ] + ["askpass", "pinentry"].map(window)

  /// The options the command's `--help` lists, long and short: the first
  /// column of its option lines (`  -T, --ttyname FILE   ...`).
  func optionsFromHelp() throws -> [String] {
    let run = try runProgram([builtExecutable(tool)] + (command.map { [$0] } ?? []) + ["--help"])
    try #require(run.status == 0, "\(testDescription) --help: \(run.status)")
    var options: [String] = []
    for line in run.output.split(separator: "\n")
    where line.hasPrefix("  -") {
      let column = line.dropFirst(2).split(separator: "  ", maxSplits: 1).first ?? ""
      for match in column.matches(of: /(?:^|[ ,])(--?[A-Za-z][A-Za-z0-9-]*)/) {
        options.append(String(match.1))
      }
    }
    // Every tool answers these, whether or not its help lists them.
    for option in ["--help", "--version"]
    where !options.contains(option) && tool != "secretfield-window" {
      options.append(option)
    }
    return options
  }
}

/// The repository's `Documentation/` folder.
private let documentation: String = {
  var path = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
  path.append("Documentation")
  return path.joined(separator: "/")
}()

/// The text of `Documentation/SUBPATH`.
private func documentationText(_ subpath: String) throws -> String {
  let run = try runProgram(["/bin/cat", documentation + "/" + subpath])
  try #require(run.status == 0, "cannot read Documentation/\(subpath)")
  return run.output
}

/// True when `text` has `option` as a whole word (not inside a longer option).
private func mentions(_ text: String, _ option: String) throws -> Bool {
  let word = try Regex("(?:^|[^A-Za-z0-9-])" + option + "(?:$|[^A-Za-z0-9-])")
  return text.contains(word.anchorsMatchLineEndings())
}

/// Runs `script` with `shell -c`, standard output as text.
private func shell(_ shell: String, _ script: String) throws -> (status: Int32, output: String) {
  let run = try runProgram([shell, "-c", script])
  return (run.status, run.output)
}

@Suite("Every option of every command is in its man page and its completions")
struct OptionDocumentationTests {
  @Test("in the man page", arguments: DocumentedCommand.all)
  func manPage(_ command: DocumentedCommand) throws {
    let options = try command.optionsFromHelp()
    // roff writes a hyphen as \- .
    let page = try documentationText("man/" + command.manPage).replacing("\\-", with: "-")
    // The control: an option that no page has is not found.
    #expect(try !mentions(page, "--no-such-option"))
    #expect(try !mentions(page, "--prompt-" + "text"), "a longer option does not count")
    for option in options {
      #expect(
        try mentions(page, option),
        "\(command.testDescription): \(option) is not in \(command.manPage)")
    }
  }

  @Test(
    "offered by bash's completion after the command",
    .enabled(if: access("/usr/share/bash-completion/bash_completion", R_OK) == 0),
    arguments: DocumentedCommand.all)
  func bash(_ command: DocumentedCommand) throws {
    let words = [command.tool] + (command.command.map { [$0] } ?? []) + ["-"]
    let script = """
      source /usr/share/bash-completion/bash_completion
      source '\(documentation)/completions/\(command.bash)'
      COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " ")))
      COMP_CWORD=\(words.count - 1)
      COMP_LINE="${COMP_WORDS[*]}"
      COMP_POINT=${#COMP_LINE}
      function=$(complete -p '\(command.tool)' | sed -E 's/.* -F ([^ ]+) .*/\\1/')
      "$function" '\(command.tool)' - '\(words[words.count - 2])'
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let (status, output) = try shell("/bin/bash", script)
    try #require(status == 0, "bash: \(output)")
    let offered = Set(
      output.split(separator: "\n").map { $0.hasSuffix("=") ? String($0.dropLast()) : String($0) })
    for option in try command.optionsFromHelp() where option.hasPrefix("--") {
      #expect(offered.contains(option), "\(command.testDescription): bash does not offer \(option)")
    }
  }

  @Test(
    "offered by fish's completion after the command",
    .enabled(if: access("/usr/bin/fish", X_OK) == 0), arguments: DocumentedCommand.all)
  func fish(_ command: DocumentedCommand) throws {
    let line = ([command.tool] + (command.command.map { [$0] } ?? []) + ["--"]).joined(
      separator: " ")
    let (status, output) = try shell(
      "/usr/bin/fish",
      "source '\(documentation)/completions/\(command.fish)'; complete -C '\(line)'")
    try #require(status == 0, "fish: \(output)")
    let offered = Set(
      output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") })
    for option in try command.optionsFromHelp() where option.hasPrefix("--") {
      #expect(offered.contains(option), "\(command.testDescription): fish does not offer \(option)")
    }
  }

  @Test(
    "in the zsh completion, in the command's branch or the option lists it uses",
    arguments: DocumentedCommand.all)
  func zsh(_ command: DocumentedCommand) throws {
    let text = try documentationText("completions/" + command.zsh)
    let section = zshSection(of: command, in: text)
    for option in try command.optionsFromHelp() where option.hasPrefix("--") {
      #expect(
        try mentions(section, option),
        "\(command.testDescription): \(option) is not in \(command.zsh)'s completion for it")
    }
  }

  /// The part of a zsh completion file that completes `command`: its `case`
  /// branch (a command word, or the tool's name as a `$service`), with the
  /// `local -a` option lists it names.
  func zshSection(of command: DocumentedCommand, in text: String) -> String {
    let label = command.command ?? command.tool
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var section = ""
    var inside = false
    for line in lines {
      let trimmed = line.trimmingPrefix(while: { $0 == " " })
      if !inside, trimmed.hasPrefix(label + ")") || trimmed.hasPrefix(label + " |") {
        inside = true
      }
      if inside {
        section += line + "\n"
        if trimmed.hasSuffix(";;") || trimmed == ";;" { break }
      }
    }
    // The option lists the branch expands ($prompt_options, ...).
    for list in section.matches(of: /\$([a-z_]+_options)/).map({ String($0.1) }) {
      guard let start = text.firstRange(of: "local -a \(list)=(") else { continue }
      let rest = text[start.upperBound...]
      section += rest[..<(rest.firstRange(of: "\n  )")?.lowerBound ?? rest.endIndex)]
    }
    return section
  }
}
