import Glibc
import SecretField
import SecretFieldTerminal
import SecureMemory
import TestSupport
import Testing

/// The prompt's own steps over the secret (a paste scanned for line breaks,
/// revealed characters measured and written, a line read from standard input)
/// leave no copy of it behind. Each scan runs in an exit-test child, in debug
/// and release builds.
@Suite("The prompt leaves no copy of the password")
struct PromptResidueTests {
  @Test("control: a marker planted in an ordinary array is found")
  func control() async {
    await #expect(processExitsWith: .success) {
      ResidueControl.expectPlantedMarkerFound(Marker())
    }
  }

  @Test("pasted, revealed, measured and drawn: one copy in the field, none once it is gone")
  func editedAndDrawn() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker()
      let locale = TerminalLocale(environment: ["LANG": "C.UTF-8"])
      let null = open("/dev/null", O_WRONLY)
      do {
        // Sodium memory: the scan reads the field's one copy there.
        var configuration = PromptConfiguration()
        configuration.storage = .sodium
        var editor = try! PromptField(configuration: configuration, locale: locale)
        do {
          var pasted = marker.unmaskedInSecureBuffer(capacity: marker.count + 1)
          try! pasted.append(count: 1) { $0[0] = 0x0A }
          let reaction = pasted.withUnsafeBytes {
            editor.handle(.paste, payload: $0, at: .now)
          }
          #expect(!reaction.ringsBell)
        }
        _ = editor.handle(.tab, payload: UnsafeRawBufferPointer(start: nil, count: 0), at: .now)
        var renderer = PromptRenderer(
          configuration: PromptConfiguration(), locale: locale, statusLineCapacity: 3)
        let line = editor.field.render(at: .now)
        let widths = renderer.cellColumns(of: line, in: editor.field)
        let operations = renderer.draw(
          line, cellColumns: widths, status: editor.statusLines(for: line), columns: 200)
        var writer = ScreenWriter(descriptor: null)
        try! editor.field.withSecret { bytes throws(TerminalError) in
          for operation in operations {
            switch operation {
            case .text(let text): writer.append(text)
            case .revealed(let range):
              try writer.appendRevealed(UnsafeRawBufferPointer(rebasing: bytes[range]))
            }
          }
          try writer.flush()
        }
        #expect(operations.contains { if case .revealed = $0 { true } else { false } })
        let held = try! ResidueScanner().scan(for: marker)
        #expect(held.copies == 1, "\(held)")
        editor.wipe()
      }
      let after = try! ResidueScanner().scan(for: marker)
      #expect(after.copies == 0, "\(after)")
      close(null)
    }
  }
}
