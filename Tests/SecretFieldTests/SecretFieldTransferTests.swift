import SecretField
import SecureMemory
import TestSupport
import Testing

@Suite("SecretFieldState: text in and out of secure buffers")
struct SecretFieldTransferTests {
  @Test("insert(_: SecureBuffer) edits at the caret; takeSecret() hands the text over")
  func insertAndTake() throws {
    var field = try SecretFieldState()
    let typed = try secureText("pässwörd")
    try field.insert(typed)
    field.moveCaret(.start)
    field.moveCaret(.right)
    let middle = try secureText("👨‍👩‍👧")
    try field.insert(middle)
    #expect(field.count == 9)
    let secret = field.takeSecret()
    #expect(secret.withUnsafeBytes { Array($0) } == Array("p👨‍👩‍👧ässwörd".utf8))
  }

  @Test("insert(_: SecureBuffer) refuses what insert refuses, and the field is unchanged")
  func refused() throws {
    var field = try SecretFieldState()
    try field.insert(try secureText("ok"))
    let control = try secureText("a\n")
    let error = #expect(throws: FieldError.self) { try field.insert(control) }
    #expect(error?.code == .controlCharacter)
    #expect(field.count == 2)
  }

  @Test("Residue: takeSecret moves, it does not copy: one copy before and after, none at the end")
  func takeSecretResidue() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      do {
        var field = try! SecretFieldState(storage: .sodium)
        do {
          let typed = marker.unmaskedInSecureBuffer(capacity: 32)
          try! field.insert(typed)
        }
        let inField = try! ResidueScanner().scan(for: marker)
        #expect(inField.copies == 1, "\(inField)")
        let secret = field.takeSecret()
        let taken = try! ResidueScanner().scan(for: marker)
        #expect(taken.copies == 1, "\(taken)")
        #expect(secret.withUnsafeBytes { marker.isEqual(to: $0) })
      }
      let none = try! ResidueScanner().scan(for: marker)
      #expect(none.copies == 0, "\(none)")
    }
  }
}
