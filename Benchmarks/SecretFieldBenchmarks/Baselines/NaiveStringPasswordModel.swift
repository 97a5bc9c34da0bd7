/// BASELINE ONLY: the naive password model `keystroke_append_*_vs_naive` is
/// compared with. It is neither safe nor correct, and SecretField exists to replace it.
///
/// This is the common SwiftUI workaround for a password field with a custom
/// mask: the password lives in an ordinary `String`, the text field shows a
/// string of dots, and each time the field reports new text the model rebuilds
/// the password from it: characters that are not dots were typed, fewer
/// characters than before means a deletion. It knows nothing of where the caret
/// was, so it is right only for typing and deleting at the end; an insert or a
/// deletion in the middle lands at the end instead (the fault the field model
/// fixes). The password is copied with every keystroke into `String` storage that
/// is never wiped.
///
/// It is here to show, in the same run, what the naive approach costs per
/// keystroke beside `SecretFieldState`: each keystroke counts the characters of
/// the masked string, filters it, and rebuilds the whole mask, all O(length).
struct NaiveStringPasswordModel {
  /// The glyph the field shows for each character.
  static let maskGlyph: Character = "•"

  /// The password, in plain memory: the very thing SecretField refuses to do.
  private(set) var password = ""
  /// What the text field displays: one glyph per character of the password.
  private(set) var maskedText = ""

  /// Starts with `password` already entered.
  init(password: String = "") {
    self.password = password
    maskedText = String(repeating: Self.maskGlyph, count: password.count)
  }

  /// The text a host field reports after `character` is typed at its end.
  func displayedText(afterTyping character: Character) -> String {
    var text = maskedText
    text.append(character)
    return text
  }

  /// The text a host field reports after a backspace at its end.
  func displayedTextAfterDeletingBackward() -> String {
    String(maskedText.dropLast())
  }

  /// Rebuilds the password from the text the field now displays, and the mask
  /// from the password: the `onChange(of:)` handler of the workaround.
  ///
  /// - Complexity: O(length of `displayed` + length of the password).
  mutating func fieldDidChange(to displayed: String) {
    let shown = displayed.count
    let previous = password.count
    if shown > previous {
      password += displayed.filter { $0 != Self.maskGlyph }
    } else if shown < previous {
      password = String(password.prefix(shown))
    }
    maskedText = String(repeating: Self.maskGlyph, count: password.count)
  }
}
