/// Splits a command line into words as a POSIX shell does, without running
/// one: for `cmd:` sources, whose program is started directly.
///
/// Blanks (space, tab, line feed) separate words. Inside single quotes every
/// character is itself. Inside double quotes a backslash escapes only `$`,
/// the backquote, `"`, `\` and a line feed (which it removes), as in the shell.
/// Outside quotes a backslash makes the next character itself (and removes a
/// line feed). `''` and `""` make an empty word. Nothing is expanded: `$HOME`,
/// `~`, `*` and backquoted commands stay as they are written, and `;`, `|`, `&`, `>`
/// are ordinary characters.
public enum ShellWords {
  /// The words of `line`.
  ///
  /// - Throws: ``SecretSourceError`` with code
  ///   ``SecretSourceError/Code/invalidSpecification`` for a quote left open or
  ///   a backslash at the end.
  /// - Complexity: O(`line.count`).
  public static func split(_ line: String) throws(SecretSourceError) -> [String] {
    enum Quoting { case none, single, double }
    var words: [String] = []
    var word = ""
    var inWord = false
    var quoting = Quoting.none
    var escaped = false
    for character in line {
      if escaped {
        escaped = false
        if character == "\n" || character == "\r\n" { continue }
        if quoting == .double && !"$`\"\\".contains(character) { word.append("\\") }
        word.append(character)
        inWord = true
        continue
      }
      switch quoting {
      case .single:
        if character == "'" { quoting = .none } else { word.append(character) }
      case .double:
        switch character {
        case "\"": quoting = .none
        case "\\": escaped = true
        default: word.append(character)
        }
      case .none:
        switch character {
        case " ", "\t", "\n", "\r\n":
          if inWord { words.append(word) }
          word = ""
          inWord = false
        case "'":
          quoting = .single
          inWord = true
        case "\"":
          quoting = .double
          inWord = true
        case "\\":
          escaped = true
        default:
          word.append(character)
          inWord = true
        }
      }
    }
    if escaped {
      throw .invalidSpecification(line, "it ends with a backslash that escapes nothing")
    }
    if quoting != .none {
      throw .invalidSpecification(
        line, "a \(quoting == .single ? "single" : "double") quote is not closed")
    }
    if inWord { words.append(word) }
    return words
  }
}
