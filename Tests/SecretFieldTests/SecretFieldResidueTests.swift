import SecretField
import SecureMemory
import TestSupport
import Testing

/// The marker is typed into the field from secure memory, where it was unmasked
/// in place, so its plain bytes exist nowhere else: every copy a scan finds is
/// one the field made. Each scan runs in an exit-test child.
@Suite("SecretField Residue: typed text leaves no copy behind")
struct SecretFieldResidueTests {
  @Test("control: a marker planted in an ordinary array is found")
  func controlFindsArray() async {
    await #expect(processExitsWith: .success) {
      ResidueControl.expectPlantedMarkerFound()
    }
  }

  @Test("after a session of edits: one copy while alive, none after clear(), none after drop")
  func sessionLeavesNoResidue() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let source = marker.unmaskedInSecureBuffer()

      var field = try! SecretFieldState.forEditSession(storage: .sodium)
      var now = testEpoch
      source.withUnsafeBytes { plain in
        func piece(_ range: Range<Int>) -> UnsafeRawBufferPointer {
          UnsafeRawBufferPointer(rebasing: plain[range])
        }
        try! field.insert("--")
        // Typed one key at a time, each shown as last typed and rendered.
        try! field.typeShowingEach(piece(0..<8), now: &now)
        try! field.insert("##")
        field.deleteBackward()
        field.deleteBackward()
        field.moveCaret(.start)
        try! field.insert("...")
        field.moveCaret(.end)
        try! field.paste(piece(8..<16))
        // Revealed: word moves and rendering decode scalars from the text.
        try! field.revealSelectingWord(at: now)
        field.moveCaret(.end)
        for offset in stride(from: 16, to: 32, by: 3) {
          try! field.insert(piece(offset..<min(offset + 3, 32)), at: now)
        }
        // A cluster typed after the marker and removed whole.
        try! field.insert(" \u{301}")
        field.deleteBackward()
        field.select(4..<20)
        _ = try! field.copy { $0.count }
        // Grow past the reserved 8 KiB (the text moves to a new region), then
        // delete the filler (the marker moves down by more than its length).
        field.moveCaret(.start)
        try! field.paste(String(repeating: "=", count: 70_000))
        field.select(0..<70_000)
        field.deleteBackward()
      }
      _ = consume source
      // Checked by length only: copying the text out would plant a copy.
      let length = field.utf8Count
      #expect(length == 37)
      let alive = try! ResidueScanner().scan(for: marker)

      field.clear()
      let cleared = try! ResidueScanner().scan(for: marker)
      let count = field.count
      _ = consume field
      let dropped = try! ResidueScanner().scan(for: marker)

      #expect(alive.copies == 1, "\(alive)")
      #expect(count == 0)
      #expect(cleared.copies == 0, "\(cleared)")
      #expect(dropped.copies == 0, "\(dropped)")
    }
  }

  @Test("typed at the end and erased by backspaces at the end, which skip the stack wipe: no copy")
  func backspacesAtTheEndLeaveNoResidue() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let source = marker.unmaskedInSecureBuffer()
      var field = try! SecretFieldState(storage: .sodium)
      source.withUnsafeBytes { plain in
        for offset in 0..<32 {
          try! field.insert(UnsafeRawBufferPointer(rebasing: plain[offset..<offset + 1]))
        }
      }
      _ = consume source
      let typed = try! ResidueScanner().scan(for: marker)
      for _ in 0..<32 { field.deleteBackward() }
      let erased = try! ResidueScanner().scan(for: marker)
      let isEmpty = field.isEmpty
      withExtendedLifetime(field) {}
      #expect(typed.copies == 1, "\(typed)")
      #expect(isEmpty)
      #expect(erased.copies == 0, "\(erased)")
    }
  }
}
