import SecretField
import SecureMemory

// What the snippets take from around them: a drawing surface, a store, a
// place to show a message. None of it is part of the examples.

/// Draws revealed bytes of the password (a real front end writes them to its
/// screen from inside the window).
func draw(_ bytes: UnsafeRawBufferPointer) { _ = bytes.count }

/// Draws one mask glyph.
func draw(_ glyph: Character) { print(glyph, terminator: "") }

/// Checks a password where it lies (a real caller hashes or compares it).
func verify(_ password: UnsafeRawBufferPointer) -> Bool { !password.isEmpty }

/// Keeps a password hash (not secret).
func store(_ hash: String) { print(hash) }

/// Shows a message to the user.
func show(_ message: String) { print(message) }

/// Warns on standard error.
func warn(_ message: String) { print("warning:", message) }

/// A failure of the example tool, with what to tell the user.
struct ToolFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
