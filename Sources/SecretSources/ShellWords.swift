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
  ///   `SecretSourceError.Code.invalidSpecification` for a quote left open or
  ///   a backslash at the end.
  /// - Complexity: O(`line.unicodeScalars.count`).
  public static func split(_ line: String) throws(SecretSourceError) -> [String] {
    enum Quoting { case none, single, double }
    // By scalars, as a shell reads bytes: by `Character`, a quote, blank or
    // backslash followed by a combining mark would be one character that is
    // none of them.
    let scalars = Array(line.unicodeScalars)
    var words: [String] = []
    var word = String.UnicodeScalarView()
    var inWord = false
    var quoting = Quoting.none
    var escaped = false
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      // A CR before a LF goes with it: "\r\n" is one line end, as "\n" is.
      let isLineEnd =
        scalar == "\n" || (scalar == "\r" && index < scalars.count && scalars[index] == "\n")
      if escaped {
        escaped = false
        if isLineEnd {
          if scalar == "\r" { index += 1 }
          continue
        }
        if quoting == .double && !"$`\"\\".unicodeScalars.contains(scalar) { word.append("\\") }
        word.append(scalar)
        inWord = true
        continue
      }
      switch quoting {
      case .single:
        if scalar == "'" { quoting = .none } else { word.append(scalar) }
      case .double:
        switch scalar {
        case "\"": quoting = .none
        case "\\": escaped = true
        default: word.append(scalar)
        }
      case .none:
        if scalar == " " || scalar == "\t" || isLineEnd {
          if scalar == "\r" { index += 1 }
          if inWord { words.append(String(word)) }
          word = String.UnicodeScalarView()
          inWord = false
          continue
        }
        switch scalar {
        case "'":
          quoting = .single
          inWord = true
        case "\"":
          quoting = .double
          inWord = true
        case "\\":
          escaped = true
        default:
          word.append(scalar)
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
    if inWord { words.append(String(word)) }
    return words
  }
}
