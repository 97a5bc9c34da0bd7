import AllocationCounter
import Glibc
@_spi(Testing) @_spi(Measurement) import SecureMemory
import TestSupport
import Testing

/// Flips one bit of `buffer`'s resting bytes at `offset` (0 to 7: the nonce
/// counter, 8 to 23: the tag, then the ciphertext), as a stray write would.
private func flip(_ buffer: borrowing SecureBuffer, at offset: Int) {
  buffer.sealedBytesForTesting![offset] ^= 0x01
}

private func isAltered(_ error: any Error) -> Bool {
  (error as? SecureMemoryError)?.code == .sealedSecretAltered
}

/// What a sealed window costs by effect: no page protection changes and no
/// allocation once a thread has opened one; a ciphertext changed in memory
/// gives an error with its own code, never bytes; nested windows each get
/// their slot.
@Suite("Sealed storage: no system call, no allocation, a clear error for altered ciphertext")
struct SealedProtectionTests {
  @Test(
    "opens, compares, edits and writes of sealed secrets change no page protection; a guarded buffer's window changes two (control)"
  )
  func noProtectionChange() async {
    // The count is process-wide: a child of its own, where no other test runs.
    await #expect(processExitsWith: .success) {
      var sealed = try! bufferHolding("a sealed secret")
      let table = try! SecretTable<Int>(name: "no mprotect")
      try! table.insert(copying: sealed, for: 1)
      let guarded = try! bufferHolding("a guarded secret", storage: .sodium)
      let null = open("/dev/null", O_WRONLY)
      func use(_ sealed: inout SecureBuffer) {
        _ = sealed.withUnsafeBytes { $0.count }
        sealed.withUnsafeMutableBytes { $0[0] ^= 0x20 }
        try! Array(" more".utf8).withUnsafeBytes { try sealed.append($0) }
        sealed.removeSubrange(15..<sealed.count)
        _ = try! table.constantTimeEquals(sealed, for: 1)
        try! sealed.write(to: null)
      }
      // Once first: the thread's scratch, and the slab the growth moves to.
      use(&sealed)
      let before = ProtectionChangeCount.current
      for _ in 0..<100 { use(&sealed) }
      let sealedChanges = ProtectionChangeCount.current - before
      let guardedBefore = ProtectionChangeCount.current
      _ = guarded.withUnsafeBytes { $0.count }
      let guardedChanges = ProtectionChangeCount.current - guardedBefore
      close(null)
      #expect(sealedChanges == 0)
      #expect(guardedChanges == 2, "control: the count sees a window's mprotect pair")
    }
  }

  @Test(
    "a warm thread opens, compares and edits sealed secrets without one allocation; an Array allocates (control)"
  )
  func noAllocation() throws {
    var sealed = try bufferHolding("a sealed secret of 32 bytes.....")
    let other = try bufferHolding("another sealed secret of 32 b...")
    let table = try SecretTable<Int>(name: "no malloc")
    try table.insert(copying: sealed, for: 7)
    let probe = [UInt8](repeating: 0x41, count: 32)
    // Warm: the thread's scratch, the key, the slabs.
    _ = try probe.withUnsafeBytes { try table.constantTimeEquals(bytes: $0, for: 7) }
    sealed.withUnsafeMutableBytes { $0[0] ^= 1 }

    let counted = try probe.withUnsafeBytes { bytes -> UInt in
      let before = allocation_counter_thread_calls()
      for _ in 0..<100 {
        _ = sealed.withUnsafeBytes { $0.count }
        _ = sealed.constantTimeEquals(other)
        sealed.withUnsafeMutableBytes { $0[0] ^= 1 }
        sealed.withUnsafeBytes { outer in other.withUnsafeBytes { _ in _ = outer.count } }
        _ = try table.constantTimeEquals(bytes: bytes, for: 7)
      }
      return allocation_counter_thread_calls() - before
    }
    let before = allocation_counter_thread_calls()
    let array = Array(repeating: UInt8(1), count: 64)
    let control = allocation_counter_thread_calls() - before
    withExtendedLifetime(array) {}
    #expect(counted == 0)
    #expect(control >= 1, "control: the counter sees an allocation")
  }

  @Test(
    "one flipped bit of the counter, the tag or the ciphertext: sealedSecretAltered from every API that throws, nothing lent; untouched it opens (control)",
    arguments: [0, 7, 8, 23, 24, 30])
  func alteredCiphertext(offset: Int) throws {
    var buffer = try bufferHolding("s3cret passphrase")
    let candidate = try bufferHolding("s3cret passphrase", storage: .sodium)
    // Control: untouched, it opens and agrees.
    let before = try buffer.withUnsafeBytes { bytes throws(SecureMemoryError) in Array(bytes) }
    #expect(before == Array("s3cret passphrase".utf8))
    let equalBefore = buffer.constantTimeEquals(candidate)
    #expect(equalBefore)

    flip(buffer, at: offset)
    var lent = false
    #expect(throws: SecureMemoryError.self) {
      try buffer.withUnsafeBytes { _ throws(SecureMemoryError) in lent = true }
    }
    #expect {
      try buffer.withUnsafeBytes { (_: UnsafeRawBufferPointer) throws -> Void in lent = true }
    } throws: { isAltered($0) }
    #expect(!lent, "no byte of an altered secret is lent")
    #expect { try buffer.write(to: -1) } throws: { isAltered($0) }
    #expect { _ = try SecureBuffer(copying: buffer) } throws: { isAltered($0) }
    #expect { try buffer.append(count: 1) { $0[0] = 0 } } throws: { error in
      if case .memory(let failure) = error as? AppendError<Never> {
        return failure.code == .sealedSecretAltered
      }
      return false
    }
    #expect {
      try buffer.replaceSubrange(0..<1, with: UnsafeRawBufferPointer(start: nil, count: 0))
    } throws: { isAltered($0) }
    let equal = buffer.constantTimeEquals(candidate)
    #expect(!equal, "an altered secret equals nothing")
    let error = try #require(
      #expect(throws: SecureMemoryError.self) { try buffer.write(to: -1) })
    #expect(error.description.contains("failed authentication"), "\(error)")
  }

  @Test("a table's altered entry: its compare, read and copy throw sealedSecretAltered")
  func alteredTableEntry() throws {
    let table = try SecretTable<String>(name: "altered entry")
    var buffer = try SecureBuffer(capacity: 16, in: table.arena)
    try Array("token-0123456789".utf8).withUnsafeBytes { try buffer.append($0) }
    let candidate = try bufferHolding("token-0123456789", storage: .sodium)
    try table.insert(copying: buffer, for: "bob")
    let resting = try #require(table.sealedBytesForTesting(of: "bob"))
    #expect(try table.constantTimeEquals(candidate, for: "bob") == true)
    resting[30] ^= 0x80
    #expect { try table.constantTimeEquals(candidate, for: "bob") } throws: { isAltered($0) }
    #expect {
      try table.withSecret(for: "bob") { (_: UnsafeRawBufferPointer) throws -> Int in 1 }
    } throws: { isAltered($0) }
    #expect { _ = try table.copySecret(for: "bob") } throws: { isAltered($0) }
    #expect(try table.constantTimeEquals(candidate, for: "carol") == nil)
  }

  @Test(
    "a body that cannot throw ends the process with the message rather than lend altered bytes; untouched it runs (control)"
  )
  func alteredWithSilentBody() async {
    await #expect(processExitsWith: .failure) {
      let buffer = try! bufferHolding("s3cret")
      _ = buffer.withUnsafeBytes { $0.count }
      flip(buffer, at: 26)
      _ = buffer.withUnsafeBytes { $0.count }
    }
    await #expect(processExitsWith: .success) {
      let buffer = try! bufferHolding("s3cret")
      _ = buffer.withUnsafeBytes { $0.count }
    }
  }

  @Test("forty nested windows of 1 KiB each: every one holds its own bytes, past the first region")
  func deepNesting() throws {
    let buffers = try (0..<40).map { index in
      let letter = Character(UnicodeScalar(65 + index % 26)!)
      return try HeldBuffer(bufferHolding(String(repeating: letter, count: 1_024)))
    }
    func open(_ index: Int, _ seen: inout [UInt8]) {
      guard index < buffers.count else { return }
      buffers[index].buffer.withUnsafeBytes { bytes in
        open(index + 1, &seen)
        // Checked after the inner windows closed: they never overwrote it.
        seen.append(bytes.allSatisfy { $0 == UInt8(65 + index % 26) } ? 1 : 0)
      }
    }
    var seen: [UInt8] = []
    open(0, &seen)
    #expect(seen == Array(repeating: 1, count: 40))
  }
}
