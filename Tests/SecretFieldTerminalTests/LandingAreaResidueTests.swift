import Glibc
import SecretField
@_spi(Testing) import SecretFieldTerminal
import SecureMemory
import TestSupport
import Testing

/// The decoder's landing area stays open while the prompt waits between keys,
/// so it must be empty then: the bytes a `read` brings are wiped as soon as
/// they are decoded, and half a character moves into no-access memory.
///
/// Each marker reaches the decoder through a real pipe, written from a
/// `SecureBuffer`, so the only copies in the process are the ones the decoder
/// and the field make. Sodium storage, which a root scan can read (secret
/// memory it could not, and a scan of it would find nothing either way).
@Suite("The landing area holds nothing while the prompt waits")
struct LandingAreaResidueTests {
  /// Sends `marker`'s plain bytes into `pipe` without a plain copy in ordinary
  /// memory: unmasked inside a secure buffer and written from there.
  static func send(_ marker: Marker, into pipe: Pipe) {
    let plain = marker.unmaskedInSecureBuffer(capacity: marker.count)
    try! plain.write(to: pipe.writeEnd)
  }

  /// A decoder whose buffers, the landing area included, are sodium memory.
  static func sodiumDecoder() -> KeyDecoder {
    var configuration = KeyDecoder.Configuration()
    configuration.storage = .sodium
    return try! KeyDecoder(configuration: configuration)
  }

  @Test("typed text: one copy, the field's, once the read is handled; two while it is")
  func waitsEmpty() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker()
      let pipe = try! Pipe()
      var decoder = LandingAreaResidueTests.sodiumDecoder()
      var field = try! SecretFieldState(storage: .sodium)
      LandingAreaResidueTests.send(marker, into: pipe)
      // The control: inside the handler the bytes are where they landed and in
      // the field, and the scan sees both; so the scan can see the landing area.
      var whileHandled: ResidueScanner.Report?
      let read = try! decoder.read(from: pipe.readEnd, at: .now) { event, bytes in
        #expect(event == .text)
        try! field.insert(bytes)
        whileHandled = try! ResidueScanner().scan(for: marker)
        return true
      }
      let waiting = try! ResidueScanner().scan(for: marker)
      #expect(read.outcome == .bytes(marker.count))
      #expect(whileHandled?.copies == 2, "\(String(describing: whileHandled))")
      #expect(waiting.copies == 1, "the field's alone: \(waiting)")
      #expect(decoder.pendingInputCount == 0)
      field.clear()
      let after = try! ResidueScanner().scan(for: marker)
      #expect(after.copies == 0, "\(after)")
    }
  }

  @Test("half a character waits in the no-access input, not in the landing area")
  func splitCharacterMovesOut() async {
    await #expect(processExitsWith: .success) {
      // The marker, then the first byte of "é": the read ends inside a
      // character, so the marker is handled and the lone byte must wait.
      let marker = Marker()
      let pipe = try! Pipe()
      var decoder = LandingAreaResidueTests.sodiumDecoder()
      var field = try! SecretFieldState(storage: .sodium)
      LandingAreaResidueTests.send(marker, into: pipe)
      pipe.send([0xC3])
      _ = try! decoder.read(from: pipe.readEnd, at: .now) { event, bytes in
        try! field.insert(bytes)
        return true
      }
      #expect(decoder.pendingInputCount == 1)
      let waiting = try! ResidueScanner().scan(for: marker)
      #expect(waiting.copies == 1, "\(waiting)")
      pipe.send([0xA9])
      _ = try! decoder.read(from: pipe.readEnd, at: .now) { event, bytes in
        try! field.insert(bytes)
        return true
      }
      #expect(decoder.pendingInputCount == 0)
      #expect(field.count == marker.count + 1)
    }
  }

  @Test("a key costs no protection change until the field's own edit")
  func noProtectionChangeBeforeTheEdit() async {
    await #expect(processExitsWith: .success) {
      let pipe = try! Pipe()
      var decoder = LandingAreaResidueTests.sodiumDecoder()
      var field = try! SecretFieldState(storage: .sodium)
      pipe.send([UInt8(ascii: "a")])
      var changesAtHandler = -1
      let before = ProtectionChangeCount.current
      _ = try! decoder.read(from: pipe.readEnd, at: .now) { event, bytes in
        changesAtHandler = ProtectionChangeCount.current - before
        try! field.insert(bytes)
        return true
      }
      // The read, the decoding and the hand-over: none; the field's edit: one pair.
      #expect(changesAtHandler == 0)
      #expect(ProtectionChangeCount.current - before == 2)
    }
  }
}
