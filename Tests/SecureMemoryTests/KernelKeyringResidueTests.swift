import SecureMemory
import TestSupport
import Testing

/// The payload goes from a buffer's window to `add_key` and from `KEYCTL_READ`
/// into a buffer's window, and the list is built in secure memory: these scans
/// find each marker only in the buffers that should hold it. The kernel's copy
/// is in kernel memory, which no scan of the process sees. Each scan runs in
/// an exit-test child; Scripts/test runs them in a release build too.
@Suite(
  "Residue: KernelKeyring keeps the payload out of ordinary memory",
  .enabled(if: KeyringOracle.isAvailable, "needs keyutils' keyctl and a user keyring"))
struct KernelKeyringResidueTests {
  /// Stores each of `markers`, unmasked in a secure buffer of its own, in one
  /// new key (the later ones appended to its list), each buffer released once
  /// stored; returns the key's name, for the test to remove.
  static func keyHolding(_ markers: [Marker], purpose: String) -> String {
    let name = KeyringOracle.uniqueName(purpose)
    let keyring = KernelKeyring()
    for marker in markers {
      let secret = marker.unmaskedInSecureBuffer(capacity: 0)
      try! keyring.store(secret, name: name, timeout: .seconds(30))
    }
    return name
  }

  @Test("control: a marker planted in an ordinary array after the keyring's work is found")
  func control() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let name = KernelKeyringResidueTests.keyHolding([marker], purpose: "residue-control")
      defer { KeyringOracle.remove(name) }
      ResidueControl.expectPlantedMarkerFound(marker)
    }
  }

  @Test(
    "store, then append a second: no copy but the caller's buffers, none once they are released")
  func nothingAfterStore() async {
    await #expect(processExitsWith: .success) {
      let first = Marker(count: 32)
      let second = Marker(count: 32)
      let name = KeyringOracle.uniqueName("residue-store")
      defer { KeyringOracle.remove(name) }
      let keyring = KernelKeyring()

      let firstSecret = first.unmaskedInSecureBuffer(capacity: 0)
      try! keyring.store(firstSecret, name: name, timeout: .seconds(30))
      let afterStore = try! ResidueScanner().scan(for: first)
      _ = consume firstSecret
      let afterFirstReleased = try! ResidueScanner().scan(for: first)

      // The append reads the first back and builds the list in secure memory.
      let secondSecret = second.unmaskedInSecureBuffer(capacity: 0)
      try! keyring.store(secondSecret, name: name, timeout: .seconds(30))
      let afterAppendFirst = try! ResidueScanner().scan(for: first)
      let afterAppendSecond = try! ResidueScanner().scan(for: second)
      _ = consume secondSecret
      let afterAllReleased = try! ResidueScanner().scan(for: second)

      #expect(afterStore.copies == 1, "only the caller's buffer: \(afterStore)")
      #expect(afterFirstReleased.copies == 0, "\(afterFirstReleased)")
      #expect(
        afterAppendFirst.copies == 0, "the list read back and built was wiped: \(afterAppendFirst)")
      #expect(afterAppendSecond.copies == 1, "only the caller's buffer: \(afterAppendSecond)")
      #expect(afterAllReleased.copies == 0, "\(afterAllReleased)")
    }
  }

  @Test(
    "read and readAll into sodium memory: one copy in the buffer while held, none after release; the default, sealed, holds none"
  )
  func readLeavesOneCopy() async {
    await #expect(processExitsWith: .success) {
      let first = Marker(count: 32)
      let second = Marker(count: 32)
      let name = KernelKeyringResidueTests.keyHolding([first, second], purpose: "residue-read")
      defer { KeyringOracle.remove(name) }
      let keyring = KernelKeyring()
      let beforeRead = try! ResidueScanner().scan(for: first)

      let sealed = try! keyring.read(name: name)
      let whileSealed = try! ResidueScanner().scan(for: first)
      _ = consume sealed

      let read = try! keyring.read(name: name, storage: .sodium)
      let whileHeld = try! ResidueScanner().scan(for: first)
      let secondWhileFirstHeld = try! ResidueScanner().scan(for: second)
      _ = consume read
      let afterRelease = try! ResidueScanner().scan(for: first)

      let all = try! keyring.readAll(name: name, storage: .sodium)
      let allFirst = try! ResidueScanner().scan(for: first)
      let allSecond = try! ResidueScanner().scan(for: second)
      _ = consume all
      let allReleasedFirst = try! ResidueScanner().scan(for: first)
      let allReleasedSecond = try! ResidueScanner().scan(for: second)

      #expect(beforeRead.copies == 0, "\(beforeRead)")
      #expect(whileSealed.copies == 0, "ciphertext only: \(whileSealed)")
      #expect(whileHeld.copies == 1, "\(whileHeld)")
      #expect(
        secondWhileFirstHeld.copies == 0, "read wiped the rest of the list: \(secondWhileFirstHeld)"
      )
      #expect(afterRelease.copies == 0, "\(afterRelease)")
      #expect(allFirst.copies == 1, "\(allFirst)")
      #expect(allSecond.copies == 1, "\(allSecond)")
      #expect(allReleasedFirst.copies == 0, "\(allReleasedFirst)")
      #expect(allReleasedSecond.copies == 0, "\(allReleasedSecond)")
    }
  }
}
