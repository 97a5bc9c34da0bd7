import Glibc
@_spi(Testing) import SecureMemory
import Testing

/// A forked child of a process with sealed secrets: the key is not inherited
/// (its page is gone, `MADV_DONTFORK`, or zeros, `MADV_WIPEONFORK`), so the
/// child makes a key of its own, and what the parent sealed does not open
/// there. Each test forks from an exit-test child.
@Suite("Sealed storage in a forked child")
struct SealedForkTests {
  enum ChildStatus {
    static let clean: Int32 = 0
    static let parentSecretOpened: Int32 = 2
    static let ownSecretFailed: Int32 = 3
    static let controlLost: Int32 = 4
  }

  /// Forks; the child checks that the parent's sealed secret fails with
  /// sealedSecretAltered, that one it seals itself opens, and that an
  /// ordinary copy kept its bytes (control), then exits with a status.
  private static func forkAndCheck() -> Int32? {
    let secret = Array("the parent's sealed secret".utf8)
    var buffer = try! SecureBuffer(capacity: secret.count, storage: .sealed)
    secret.withUnsafeBytes { try! buffer.append($0) }
    let ordinary = Array(secret)

    let child = fork()
    if child == 0 {
      var opened = false
      var altered = false
      do {
        try buffer.withUnsafeBytes { (_: UnsafeRawBufferPointer) throws(SecureMemoryError) in
          opened = true
        }
      } catch {
        altered = error.code == .sealedSecretAltered
      }
      var own = try! SecureBuffer(capacity: 8, storage: .sealed)
      [UInt8]([1, 2, 3]).withUnsafeBytes { try! own.append($0) }
      let ownOpens = own.withUnsafeBytes { Array($0) } == [1, 2, 3]
      _exit(
        opened || !altered
          ? ChildStatus.parentSecretOpened
          : !ownOpens
            ? ChildStatus.ownSecretFailed
            : ordinary != secret ? ChildStatus.controlLost : ChildStatus.clean)
    }
    let status = exitStatus(of: child)
    // The parent still opens its own.
    precondition(buffer.withUnsafeBytes { Array($0) } == secret, "the parent lost its secret")
    return status
  }

  @Test(
    "key in secret memory: the child's open of the parent's secret throws sealedSecretAltered, its own opens, an ordinary copy keeps its bytes (control)"
  )
  func secretMemoryKey() async {
    await #expect(processExitsWith: .success) {
      #expect(Self.forkAndCheck() == ChildStatus.clean)
    }
  }

  @Test("key in a sodium page (no secret memory, its page zeros in a child): the same")
  func sodiumKey() async {
    await #expect(processExitsWith: .success) {
      SecureStorage.simulateSecretMemoryFailure(errno: ENOSYS)
      #expect(Self.forkAndCheck() == ChildStatus.clean)
    }
  }

  @Test(
    "the parent's key page is not there in the child (a touch faults); in the parent it reads (control)"
  )
  func keyPageGoneInChild() async {
    await #expect(processExitsWith: .success) {
      let key = try! SecureStorage.sealingKeyAddressForTesting()
      let first = key.load(as: UInt8.self)  // readable to the process itself
      let child = fork()
      if child == 0 {
        // The byte decides the status, so the optimiser keeps the load.
        _exit(key.load(as: UInt8.self) == first ? 0 : 3)
      }
      var status: Int32 = 0
      while waitpid(child, &status, 0) < 0 && errno == EINTR {}
      #expect(status & 0x7F == SIGSEGV, "the child died by SIGSEGV touching the key's page")
    }
  }
}
