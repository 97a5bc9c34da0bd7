/// Splits a command's arguments into options and positional arguments, by the
/// usual rules: `--name value` or `--name=value`, `--` ends the options, `-`
/// alone is an argument.
package struct ArgumentScanner {
  /// One option or argument.
  package enum Item: Equatable {
    /// `--name` or `-n`, with the value written after `=` if there was one.
    case option(String, inlineValue: String?)
    /// Anything else, or anything after `--`.
    case argument(String)
  }

  private var remaining: ArraySlice<String>
  private var optionsEnded = false

  package init(_ arguments: [String]) {
    remaining = arguments[...]
  }

  /// The next item, or nil at the end.
  package mutating func next() -> Item? {
    guard let word = remaining.popFirst() else { return nil }
    if optionsEnded || word == "-" || !word.hasPrefix("-") { return .argument(word) }
    if word == "--" {
      optionsEnded = true
      return next()
    }
    if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
      return .option(
        String(word[..<equals]), inlineValue: String(word[word.index(after: equals)...]))
    }
    return .option(word, inlineValue: nil)
  }

  /// The value of `option`: the inline one, or the next word.
  ///
  /// - Throws: ``UsageError`` with code `missingValue`, saying `what` it takes.
  package mutating func value(
    of option: String, inline: String?, describedAs what: String
  ) throws(UsageError) -> String {
    if let inline { return inline }
    guard let word = remaining.popFirst() else { throw .missingValue(option, what) }
    return word
  }

  /// The value of `option` as a wait: a number of seconds above 0 and up to
  /// a year, fractions allowed.
  ///
  /// - Throws: ``UsageError`` with code `missingValue`, or `invalidValue`
  ///   naming `examples` ("30 or 2.5") of what it takes.
  package mutating func seconds(
    of option: String, inline: String?, examples: String
  ) throws(UsageError) -> Duration {
    let value = try value(of: option, inline: inline, describedAs: "a number of seconds")
    guard let wait = Self.wait(seconds: value) else {
      throw .invalidValue(option, value, "a number of seconds above 0, such as \(examples)")
    }
    return wait
  }

  /// `text` as a wait: a number of seconds above 0 and up to a year,
  /// fractions allowed; nil for anything else (`inf`, `nan`, `1e300`).
  package static func wait(seconds text: String) -> Duration? {
    guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 31_536_000 else {
      return nil
    }
    return .seconds(seconds)
  }

  /// True when `flag` (or one of `aliases`) appears before `--`.
  package static func contains(_ flags: Set<String>, in arguments: [String]) -> Bool {
    for word in arguments {
      if word == "--" { return false }
      if flags.contains(word) { return true }
    }
    return false
  }
}
