import SecretField
import SecureMemory
import Testing

/// A field whose text is a buffer of a `SharedSecureRegion` edits, clears and
/// hands its secret over as a field of its own does, and moves its text to a
/// buffer of its own when it outgrows its room there.
@Suite("SecretFieldState in a shared region")
struct SecretFieldSharedRegionTests {
  @Test("edits, clears and takes the secret as a field of its own does")
  func editsAsUsual() throws {
    let region = try SharedSecureRegion(holding: [64, 16])
    var field = try SecretFieldState(sharing: region, reservingCapacity: 64)
    let neighbour = try SecureBuffer(capacity: 16, sharing: region)
    try field.insert("pa")
    try field.insert("ss")
    field.select(1..<1)
    try field.insert("é")
    field.deleteForward()
    #expect(field.withSecret { String(decoding: $0, as: UTF8.self) } == "péss")
    field.clear()
    let isEmpty = field.isEmpty
    #expect(isEmpty)
    try field.insert("word")
    let secret = field.takeSecret()
    let text = secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    let isShared = secret.isInSharedRegion
    #expect(text == "word")
    #expect(isShared)
    withExtendedLifetime(neighbour) {}
  }

  @Test("text that outgrows its room moves to a buffer of its own, whole")
  func outgrowsItsRoom() throws {
    let region = try SharedSecureRegion(holding: [16])
    var field = try SecretFieldState(sharing: region, reservingCapacity: 16)
    let typed = String(repeating: "ab👨‍👩‍👧", count: 10)
    for character in typed { try field.insert(String(character)) }
    let count = field.count
    #expect(count == typed.count)
    #expect(field.withSecret { String(decoding: $0, as: UTF8.self) } == typed)
  }

  @Test("the default room is the field's usual reservation")
  func defaultRoom() throws {
    let limits = FieldLimits(maxBytes: 100)
    let region = try SharedSecureRegion(holding: [SecretFieldState.reservedByteCount(for: limits)])
    let field = try SecretFieldState(limits: limits, sharing: region)
    let secret = field.takeSecret()
    let capacity = secret.capacity
    #expect(SecretFieldState.reservedByteCount(for: limits) == 100)
    #expect(capacity == 112)
  }
}
