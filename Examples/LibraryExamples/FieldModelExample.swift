import SecretField
import SecureMemory

/// The README's password-field model.
func fieldModel(keys: borrowing SecureBuffer) throws {
  var field = try SecretFieldState(obfuscationMode: .revealLastTyped())  // policy: .default
  try field.insert(keys, at: .now)  // keys arrive in a SecureBuffer and are read in place
  field.deleteBackward()  // a whole character: 👨‍👩‍👧, 🇫🇷 or "e" + accent
  try field.toggleReveal()  // text, caret and selection stay exactly as they are
  let line = field.render(at: .now)  // cells, caret, selection, caps-lock hint; no text
  field.withSecret { text in  // draw revealed cells from inside the window
    for cell in line.cells {
      if case .revealed(let range) = cell.content {
        draw(UnsafeRawBufferPointer(rebasing: text[range]))
      } else {
        draw(line.maskGlyph)
      }
    }
  }
  let matches = field.withSecret { password in verify(password) }
  let password = field.takeSecret()  // the field ends; its buffer moves out, nothing copied
  print(matches, password.count)
}
