/// Measuring and cleaning the prompt's own texts (prompts, hints, messages):
/// never a secret, so ordinary `String`s.
enum DisplayText {
  /// `text` with every control character (C0, DEL, C1) replaced by `?`, so a
  /// prompt taken from elsewhere cannot move the cursor or change modes.
  static func sanitized(_ text: String) -> String {
    var clean = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let value = scalar.value
      clean.append(value < 0x20 || (0x7F..<0xA0).contains(value) ? "?" : scalar)
    }
    return String(clean)
  }

  /// The columns `text` takes on a terminal, by ``CharacterWidth``.
  static func columns(of text: some StringProtocol) -> Int {
    text.unicodeScalars.reduce(0) { $0 + CharacterWidth.columns(of: $1) }
  }

  /// The longest start of `text`, in whole characters, that fits `limit`
  /// columns.
  static func truncated(_ text: String, toColumns limit: Int) -> String {
    guard columns(of: text) > limit else { return text }
    var used = 0
    var end = text.startIndex
    for index in text.indices {
      let width = columns(of: String(text[index]))
      if used + width > limit { break }
      used += width
      end = text.index(after: index)
    }
    return String(text[..<end])
  }
}
