public import SecureMemory

/// The state of a password field, headless: the text in secure memory, the caret
/// and selection, how the text is shown, and what the host says about focus,
/// screen capture and caps lock.
///
/// The text is UTF-8 in one `SecureBuffer`, which the field reserves up front and
/// grows geometrically, never per keystroke; no other copy of it exists in the
/// field. Units are user-perceived characters (extended grapheme clusters):
/// ``count``, ``caret`` and ``selection`` count them. Boundaries come from the
/// standard library's grapheme recognizer run over scalars decoded from secure
/// memory, never from a `String`, and are kept as an index of byte offsets so a
/// caret move costs O(1). That index reveals how many bytes each character
/// takes, not which bytes; it lives in ordinary memory.
///
/// How the text is shown (``obfuscationMode``) is separate from the text: toggling
/// the reveal never touches the text, the caret or the selection. The model reads
/// no clock and does no I/O: time is an argument (``insert(_:at:)-(UnsafeRawBufferPointer,_)``,
/// ``render(at:)``), so behaviour over time is deterministic and testable.
///
/// Every method that throws ``FieldError`` leaves the field exactly as it was.
/// Ranges and positions out of bounds are programmer errors and trap.
///
/// There is no undo history: it would keep old states of the secret.
public struct SecretFieldState: ~Copyable, Sendable {
  var text: SecureBuffer
  var index: ClusterIndex
  /// The end of the selection that stays put when the caret extends it.
  var anchor = 0
  /// The last character typed while ``ObfuscationMode/revealLastTyped(_:)`` is on,
  /// and until when it shows.
  var lastTyped: LastTyped?
  /// The masked mode ``toggleReveal()`` returns to.
  var maskedMode: ObfuscationMode

  /// The caret, in characters from the start: the moving end of the selection.
  public internal(set) var caret = 0

  /// The most this field holds.
  public let limits: FieldLimits

  /// What the field refuses to do. Adding ``FieldPolicy/maskOnCapture`` while
  /// captured ends a full reveal at once.
  public var policy: FieldPolicy {
    didSet { enforceMasking() }
  }

  /// How the text is shown now. Change it with ``setObfuscationMode(_:)`` or
  /// ``toggleReveal()``.
  public internal(set) var obfuscationMode: ObfuscationMode

  /// The glyph a masked character is shown as, "•" by default. Not secret: every
  /// masked cell shows the same one.
  public var maskGlyph: Character

  /// Set by the host while the screen or session is being recorded or shared.
  ///
  /// Under ``FieldPolicy/maskOnCapture`` the field then renders fully masked,
  /// ends a full reveal (back to the masked mode) and a last-typed reveal, and
  /// refuses to reveal until capture ends.
  public var isCaptured = false {
    didSet { enforceMasking() }
  }

  /// Set by the host when the field gains or loses focus (true at first).
  ///
  /// Losing focus hides the last-typed character and, under
  /// ``FieldPolicy/remaskOnFocusLoss``, ends a full reveal.
  public var isFocused = true {
    didSet {
      if !isFocused {
        lastTyped = nil
        if policy.contains(.remaskOnFocusLoss) && obfuscationMode == .visible {
          obfuscationMode = maskedMode
        }
      }
    }
  }

  /// Set by the host: the state of caps lock, for the hint in ``render(at:)``.
  public var capsLock = CapsLockState.unknown

  /// An empty field.
  ///
  /// Reserves `min(limits.maxBytes, 8 KiB)` bytes of secure memory, so typing up
  /// to the default limit never moves the text; past that the buffer grows
  /// geometrically. (A window's `mprotect` pair costs more the more pages it
  /// covers: about 1.8 µs for one page, 4.3 µs for 64 KiB.)
  ///
  /// - Parameters:
  ///   - policy: what the field refuses; ``FieldPolicy/default`` by default.
  ///   - limits: the most it holds; ``FieldLimits/default`` by default.
  ///   - obfuscationMode: how it shows its text at first; `.hidden` by default.
  ///   - maskGlyph: the glyph of a masked character.
  ///   - locking: what the secure buffer does when a protection cannot be had.
  ///   - storage: how the text rests; sealed by default (`SecureStorage.sealed`:
  ///     ciphertext under a key in secret memory, an edit costing a decryption
  ///     and an encryption and no system call); `.sodium` lets the machine
  ///     hibernate (see `SecureStorage`).
  /// - Throws: `SecureMemoryError` when the secure buffer cannot be had.
  public init(
    policy: FieldPolicy = .default, limits: FieldLimits = .default,
    obfuscationMode: ObfuscationMode = .hidden, maskGlyph: Character = "•",
    locking: LockPolicy = .required, storage: SecureStorage = .sealed
  ) throws(SecureMemoryError) {
    let text = try SecureBuffer(
      capacity: Self.reservedByteCount(for: limits), locking: locking, storage: storage)
    self.init(
      text: text, policy: policy, limits: limits, obfuscationMode: obfuscationMode,
      maskGlyph: maskGlyph)
  }

  /// An empty field whose text is a buffer of `region`, opened together with
  /// the region's other buffers: an edit made inside a window on one of them
  /// (the bytes of a terminal's key, read into the same region) changes no
  /// page protection of its own.
  ///
  /// Reserves `reservingCapacity` bytes in `region`, by default the same room
  /// as ``init(policy:limits:obfuscationMode:maskGlyph:locking:storage:)``
  /// does in a buffer of its own (``reservedByteCount(for:)``; make the region
  /// with room for it); the lock policy and storage are the region's. Text
  /// that outgrows the room moves to a buffer of its own, and from then on
  /// opens its own windows.
  ///
  /// - Throws: `SecureMemoryError` when the region has no room left and a
  ///   buffer of its own cannot be had.
  public init(
    policy: FieldPolicy = .default, limits: FieldLimits = .default,
    obfuscationMode: ObfuscationMode = .hidden, maskGlyph: Character = "•",
    sharing region: SharedSecureRegion, reservingCapacity: Int? = nil
  ) throws(SecureMemoryError) {
    let text = try SecureBuffer(
      capacity: reservingCapacity ?? Self.reservedByteCount(for: limits), sharing: region)
    self.init(
      text: text, policy: policy, limits: limits, obfuscationMode: obfuscationMode,
      maskGlyph: maskGlyph)
  }

  /// The bytes of secure memory a field of `limits` reserves for its text:
  /// `min(limits.maxBytes, 8 KiB)`.
  public static func reservedByteCount(for limits: FieldLimits) -> Int {
    min(limits.maxBytes, 8 * 1024)
  }

  private init(
    text: consuming SecureBuffer, policy: FieldPolicy, limits: FieldLimits,
    obfuscationMode: ObfuscationMode, maskGlyph: Character
  ) {
    self.text = text
    index = ClusterIndex(reservingCapacity: min(limits.maxCharacters, 8 * 1024))
    self.policy = policy
    self.limits = limits
    self.obfuscationMode = obfuscationMode
    self.maskedMode = obfuscationMode.isMasked ? obfuscationMode : .hidden
    self.maskGlyph = maskGlyph
  }

  /// How many characters (grapheme clusters) the field holds.
  public var count: Int { index.characterCount }

  /// True when the field holds nothing.
  public var isEmpty: Bool { index.byteCount == 0 }

  /// How many bytes of UTF-8 the field holds.
  public var utf8Count: Int { index.byteCount }

  /// The selected characters; empty, at the caret, when nothing is selected.
  public var selection: Range<Int> { min(anchor, caret)..<max(anchor, caret) }

  /// The protections of the secure memory that holds the text.
  public var protection: Protection { text.protection }

  /// Calls `body` with the password's UTF-8 bytes, readable only while it runs.
  ///
  /// This is how to use the password: hash it, compare it, write it to a
  /// descriptor with no copy in between. Do not let `bytes` escape. Not subject to
  /// ``FieldPolicy``: the policy governs the user interface, not the program.
  ///
  /// - Complexity: two `mprotect` calls.
  public func withSecret<Result: ~Copyable, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try text.withUnsafeBytes(body)
  }

  /// Wipes the text (`sodium_memzero` over the whole capacity) and empties the
  /// field; the mode, policy and host state stay.
  public mutating func clear() {
    text.removeAll()
    index.removeAll()
    caret = 0
    anchor = 0
    lastTyped = nil
  }

  /// True when capture forces the field to be masked.
  var isMaskedForCapture: Bool { isCaptured && policy.contains(.maskOnCapture) }

  /// True when the content is shown as itself, so word boundaries may be used.
  var isShowingText: Bool { obfuscationMode == .visible && !isMaskedForCapture }

  private mutating func enforceMasking() {
    if isMaskedForCapture {
      lastTyped = nil
      if obfuscationMode == .visible { obfuscationMode = maskedMode }
    }
  }
}

/// The character shown unmasked after typing under `.revealLastTyped`.
struct LastTyped: Sendable {
  var index: Int
  var until: ContinuousClock.Instant
}
