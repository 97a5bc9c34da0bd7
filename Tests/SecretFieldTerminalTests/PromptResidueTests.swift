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

/// A refused submit judges the field in place: the field's copy is the only
/// one, in any form, and none is left once the field is wiped.
@Suite("A refused submit leaves no copy of the password")
struct PromptStrengthResidueTests {
  /// The field's text after `marker` was pasted into a prompt that refuses
  /// every password (a minimum of 1,000), and Enter was pressed.
  static func refusedEditor(
    _ marker: Marker, skippingScratchWipe: Bool = false
  ) -> PromptField {
    var configuration = PromptConfiguration()
    configuration.storage = .sodium
    configuration.strength = StrengthRules(minimumLength: 1000)
    let locale = TerminalLocale(environment: ["LANG": "C.UTF-8"])
    var editor = try! PromptField(configuration: configuration, locale: locale)
    if skippingScratchWipe { editor.strengthLine.skipScratchWipeForTesting() }
    var pasted = try! SecureBuffer(capacity: marker.count)
    marker.masked.withUnsafeBytes { try! pasted.append($0) }
    pasted.withUnsafeMutableBytes { marker.unmask(in: $0) }
    _ = pasted.withUnsafeBytes { editor.handle(.paste, payload: $0, at: .now) }
    _ = editor.judgeStrength(budget: .keystroke)
    let submit = editor.handle(
      .submit, payload: UnsafeRawBufferPointer(start: nil, count: 0), at: .now)
    let message = editor.message ?? ""
    #expect(submit.outcome == nil && submit.ringsBell)
    #expect(message.hasPrefix("Not accepted: 32 characters; at least 1000"), "\(message)")
    return editor
  }

  @Test("judged after the edit and at Enter: the field's copy alone, none once wiped")
  func refusedSubmit() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      // The judge decodes the text into 32-bit scalars in its scratch.
      let scalars = marker.encoded { [$0, 0, 0, 0] }
      var editor = Self.refusedEditor(marker)
      let held = try! ResidueScanner().scan(for: marker)
      let decoded = try! ResidueScanner().scan(for: scalars)
      #expect(held.copies == 1, "\(held)")
      #expect(decoded.copies == 0, "\(decoded)")
      editor.wipe()
      let after = try! ResidueScanner().scan(for: marker)
      #expect(after.copies == 0, "\(after)")
      withExtendedLifetime(editor) {}
    }
  }

  @Test("control: without the judge's wipe, the scan finds the decoded scalars")
  func controlFindsScratch() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let scalars = marker.encoded { [$0, 0, 0, 0] }
      let editor = Self.refusedEditor(marker, skippingScratchWipe: true)
      let decoded = try! ResidueScanner().scan(for: scalars)
      #expect(decoded.copies >= 1, "\(decoded)")
      withExtendedLifetime(editor) {}
    }
  }
}
