import SecretField
import SecureMemory
import Testing

// Tests may hold text in Strings and arrays: they are the oracle, not the product.

extension SecretFieldState {
  /// Types `text` as one insert.
  mutating func insert(_ text: String, at now: ContinuousClock.Instant? = nil) throws(FieldError) {
    try withBytes(of: text) { bytes throws(FieldError) in try insert(bytes, at: now) }
  }

  /// Types `text` one scalar at a time, as separate keystrokes.
  mutating func typeScalars(_ text: String, at now: ContinuousClock.Instant? = nil)
    throws(FieldError)
  {
    for scalar in text.unicodeScalars { try insert(String(scalar), at: now) }
  }

  mutating func paste(_ text: String) throws(FieldError) {
    try withBytes(of: text) { bytes throws(FieldError) in try paste(bytes) }
  }

  mutating func insert(bytes: [UInt8]) throws(FieldError) {
    try withBytes(of: bytes) { raw throws(FieldError) in try insert(raw) }
  }

  mutating func paste(bytes: [UInt8]) throws(FieldError) {
    try withBytes(of: bytes) { raw throws(FieldError) in try paste(raw) }
  }

  /// The field's bytes, copied out.
  var bytes: [UInt8] { withSecret { Array($0) } }

  /// The field's text, copied out.
  var string: String { withSecret { String(decoding: $0, as: UTF8.self) } }

  /// Everything a refused call must leave alone.
  var snapshot: FieldSnapshot {
    let line = render(at: testEpoch + .seconds(0.5))
    return FieldSnapshot(
      bytes: bytes, count: count, caret: caret, selection: selection, mode: obfuscationMode,
      line: line)
  }

  /// A field for a residue scan's session of edits: room for a long paste,
  /// the last typed character shown, in `storage`.
  static func forEditSession(storage: SecureStorage) throws(SecureMemoryError) -> SecretFieldState {
    try SecretFieldState(
      policy: [], limits: FieldLimits(maxCharacters: 200_000, maxBytes: 1 << 20),
      obfuscationMode: .revealLastTyped(), storage: storage)
  }

  /// Types `plain` one byte a key, 150 ms apart from `now` on, each shown as
  /// last typed: rendered, and its revealed cells read, as a host draws the
  /// field while the user types.
  mutating func typeShowingEach(
    _ plain: UnsafeRawBufferPointer, now: inout ContinuousClock.Instant
  ) throws(FieldError) {
    for offset in plain.indices {
      now += .milliseconds(150)
      try insert(UnsafeRawBufferPointer(rebasing: plain[offset..<offset + 1]), at: now)
      readRevealedCells(at: now)
    }
  }

  /// Reveals the text, selects the word before the caret (word moves decode
  /// scalars from the text), draws it with its revealed cells read, and
  /// masks it again.
  mutating func revealSelectingWord(at now: ContinuousClock.Instant) throws(FieldError) {
    try toggleReveal()
    moveCaret(.wordLeft)
    moveCaret(.wordRight, extendingSelection: true)
    readRevealedCells(at: now)
    try toggleReveal()
  }

  /// Renders the field and reads every revealed cell's bytes, as a host
  /// drawing them would.
  func readRevealedCells(at now: ContinuousClock.Instant) {
    let line = render(at: now)
    for cell in line.cells { _ = withRevealedBytes(of: cell) { $0.count } }
  }

  /// The text of every revealed cell in `line`, in order.
  func revealedTexts(_ line: DisplayLine) -> [String] {
    line.cells.compactMap { cell in
      withRevealedBytes(of: cell) { String(decoding: $0, as: UTF8.self) }
    }
  }
}

struct FieldSnapshot: Equatable {
  var bytes: [UInt8]
  var count: Int
  var caret: Int
  var selection: Range<Int>
  var mode: ObfuscationMode
  var line: DisplayLine
}

/// A fixed instant to measure test time from: the model never reads a clock.
let testEpoch = ContinuousClock().now

/// Calls `body` with the UTF-8 of `text`, without the typed-throws closure that
/// crashes the compiler inside `Array.withUnsafeBytes`.
func withBytes<Result>(
  of text: String, _ body: (UnsafeRawBufferPointer) throws(FieldError) -> Result
) throws(FieldError) -> Result {
  try withBytes(of: Array(text.utf8), body)
}

func withBytes<Result>(
  of bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(FieldError) -> Result
) throws(FieldError) -> Result {
  let outcome: Swift.Result<Result, FieldError> = bytes.withUnsafeBytes { raw in
    do throws(FieldError) { return .success(try body(raw)) } catch { return .failure(error) }
  }
  return try outcome.get()
}

/// Runs `body` and returns the FieldError it throws, or nil.
func fieldError(_ body: () throws(FieldError) -> Void) -> FieldError? {
  do throws(FieldError) {
    try body()
    return nil
  } catch {
    return error
  }
}

func makeField(
  _ text: String = "", policy: FieldPolicy = .default, limits: FieldLimits = .default,
  mode: ObfuscationMode = .hidden
) throws -> SecretFieldState {
  var field = try SecretFieldState(policy: policy, limits: limits, obfuscationMode: mode)
  if !text.isEmpty { try field.insert(text) }
  return field
}
