import Glibc
import SecretField
@_spi(Testing) import SecureMemory
import TestSupport
import Testing

/// A marker's plain bytes in a new sealed buffer, unmasked inside its window.
private func sealedSource(_ marker: Marker) -> SecureBuffer {
  var source = try! SecureBuffer(capacity: marker.count, storage: .sealed)
  marker.masked.withUnsafeBytes { try! source.append($0) }
  source.withUnsafeMutableBytes { marker.unmask(in: $0) }
  return source
}

/// Types `source`'s bytes into `field` one key at a time, inside its window.
private func type(_ source: borrowing SecureBuffer, into field: inout SecretFieldState) {
  source.withUnsafeBytes { plain in
    for offset in 0..<plain.count {
      try! field.insert(UnsafeRawBufferPointer(rebasing: plain[offset..<offset + 1]))
    }
  }
}

/// The `errno` of a one-byte read of `/proc/self/mem` at `address`; nil when
/// it read.
private func memReadError(at address: UnsafeRawPointer) -> Int32? {
  let memory = open("/proc/self/mem", O_RDONLY)
  guard memory >= 0 else { return errno }
  defer { close(memory) }
  var byte: UInt8 = 0
  let got = pread(memory, &byte, 1, off_t(Int64(bitPattern: UInt64(UInt(bitPattern: address)))))
  return got == 1 ? nil : errno
}

/// Sealed storage under a whole process's scan, as root reads it
/// (`/proc/self/mem`): a table of 20,000 sealed secrets and a password typed
/// into a sealed field. Each runs in an exit-test child.
@Suite("Sealed field Residue: a root scan reads ciphertext only")
struct SealedFieldResidueTests {
  static let tableCount = 20_000
  /// The entries of the table that hold a marker; the others random bytes.
  static let markedEntries = [0, 1, 4_999, 10_000, 19_999]

  @Test(
    "20,000 sealed secrets and a typed password: 0 plaintext copies, the key reads EIO, the ciphertext is found; the same secrets in ordinary memory are found (control)"
  )
  func tableAndFieldScan() async {
    await #expect(processExitsWith: .success) {
      let markers = Self.markedEntries.map { _ in Marker(count: 32) }
      let password = Marker(count: 24)
      let table = try! SecretTable<Int>(name: "residue")
      for index in 0..<Self.tableCount {
        if let marked = Self.markedEntries.firstIndex(of: index) {
          try! table.insert(copying: sealedSource(markers[marked]), for: index)
        } else {
          try! table.insert(copying: SecureBuffer.random(count: 32, storage: .sealed), for: index)
        }
      }
      var field = try! SecretFieldState(storage: .sealed)
      type(sealedSource(password), into: &field)
      #expect(field.utf8Count == 24)
      #expect(field.protection.storage == .sealed && field.protection.isHiddenFromKernel)

      let plain = try! (markers + [password]).map { try ResidueScanner().scan(for: $0).copies }
      let key = try! SecureStorage.sealingKeyAddressForTesting()
      let ciphertext = try! Self.markedEntries.map { index in
        let resting = table.sealedBytesForTesting(of: index)!
        let marker = Marker(maskingBytesIn: UnsafeRawBufferPointer(rebasing: resting[24...]))
        return try ResidueScanner().scan(for: marker).copies
      }
      // The control build: the same secrets and the password kept in
      // ordinary memory, as a program without the package would.
      let ordinary = (markers + [password]).map { $0.plainBytesForControl() }
      let control = try! (markers + [password]).map { try ResidueScanner().scan(for: $0).copies }
      withExtendedLifetime(ordinary) {}
      withExtendedLifetime(field) {}

      #expect(plain == Array(repeating: 0, count: markers.count + 1), "\(plain)")
      #expect(memReadError(at: key) == EIO, "the key's page")
      #expect(ciphertext == Array(repeating: 1, count: markers.count), "\(ciphertext)")
      #expect(control == Array(repeating: 1, count: markers.count + 1), "\(control)")
    }
  }

  @Test(
    "a session of edits on a sealed field, the scratch and key readable (no secret memory): 0 copies alive, 1 inside a window (control), 0 after"
  )
  func sessionLeavesOnlyCiphertext() async {
    await #expect(processExitsWith: .success) {
      SecureStorage.simulateSecretMemoryFailure(errno: ENOSYS)
      let marker = Marker(count: 32)
      let source = sealedSource(marker)
      var field = try! SecretFieldState.forEditSession(storage: .sealed)
      #expect(field.protection.storage == .sealed && !field.protection.isHiddenFromKernel)
      var now = testEpoch
      source.withUnsafeBytes { plain in
        func piece(_ range: Range<Int>) -> UnsafeRawBufferPointer {
          UnsafeRawBufferPointer(rebasing: plain[range])
        }
        try! field.insert("--")
        try! field.typeShowingEach(piece(0..<8), now: &now)
        field.moveCaret(.start)
        try! field.insert("...")
        field.moveCaret(.end)
        try! field.paste(piece(8..<16))
        try! field.revealSelectingWord(at: now)
        field.moveCaret(.end)
        try! field.paste(piece(16..<32))
        field.moveCaret(.start)
        try! field.paste(String(repeating: "=", count: 9_000))
        field.select(0..<9_000)
        field.deleteBackward()
      }
      _ = consume source
      let length = field.utf8Count
      let alive = try! ResidueScanner().scan(for: marker)
      let inWindow = field.withSecret { _ in try! ResidueScanner().scan(for: marker) }
      field.clear()
      let cleared = try! ResidueScanner().scan(for: marker)
      withExtendedLifetime(field) {}
      #expect(length == 37)
      #expect(alive.copies == 0, "\(alive)")
      #expect(inWindow.copies == 1, "control: the scan reads the scratch: \(inWindow)")
      #expect(cleared.copies == 0, "\(cleared)")
    }
  }
}
