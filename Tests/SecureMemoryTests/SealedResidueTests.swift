import Glibc
@_spi(Testing) import SecureMemory
import Synchronization
import TestSupport
import Testing

/// A marker for the ciphertext `buffer` rests as: a scan that finds it has
/// read the slab the sealed bytes rest in.
private func ciphertextMarker(of buffer: borrowing SecureBuffer) -> Marker {
  let resting = buffer.sealedBytesForTesting!
  return Marker(maskingBytesIn: UnsafeRawBufferPointer(rebasing: resting[24...]))
}

/// Where a sealed secret's plaintext may be, by effect: a scan of every
/// mapping of the process (`/proc/self/mem`, as root would read it). Each
/// runs in an exit-test child. Where the test must see the scratch, the
/// child stands in for a kernel without secret memory (the `ENOSYS` seam):
/// the scratch and the key are then sodium memory, which the scan reads.
@Suite("Sealed Residue: plaintext only inside a window, in the thread's scratch")
struct SealedResidueTests {
  @Test(
    "in secret memory: 0 plaintext copies, the key's page and the scratch read EIO, the ciphertext is found; an ordinary array is found (control)"
  )
  func secretMemoryScan() async {
    await #expect(processExitsWith: .success) {
      let markers = (0..<4).map { _ in Marker(count: 32) }
      var buffers: [HeldBuffer] = []
      for marker in markers {
        var buffer = try! SecureBuffer(capacity: 32, storage: .sealed)
        plant(marker, in: &buffer)
        buffers.append(HeldBuffer(buffer))
      }
      #expect(buffers[0].buffer.protection.isHiddenFromKernel)
      let key = UInt(bitPattern: try! SecureStorage.sealingKeyAddressForTesting())
      let scratch = UInt(bitPattern: SecureStorage.scratchAddressOfCurrentThreadForTesting!)
      let plain = try! markers.map { try ResidueScanner().scan(for: $0).copies }
      let ciphertext = try! buffers.map {
        try ResidueScanner().scan(for: ciphertextMarker(of: $0.buffer)).copies
      }
      let planted = markers[0].plainBytesForControl()
      let control = try! ResidueScanner().scan(for: markers[0])
      withExtendedLifetime(planted) {}
      #expect(plain == [0, 0, 0, 0], "\(plain)")
      #expect(procMemReadError(at: key) == EIO)
      #expect(procMemReadError(at: scratch) == EIO)
      #expect(ciphertext == [1, 1, 1, 1], "the scan reads the slab: \(ciphertext)")
      #expect(control.copies == 1, "\(control)")
    }
  }

  @Test(
    "the scratch holds the plaintext inside the window (1 copy) and nothing once it closes (0); the resting ciphertext is found"
  )
  func slotWipedWhenWindowCloses() async {
    await #expect(processExitsWith: .success) {
      SecureStorage.simulateSecretMemoryFailure(errno: ENOSYS)
      let marker = Marker(count: 32)
      var buffer = try! SecureBuffer(capacity: 32, storage: .sealed)
      plant(marker, in: &buffer)
      #expect(buffer.protection.secretMemoryFallback?.code == .secretMemoryUnavailable)
      let afterPlant = try! ResidueScanner().scan(for: marker)
      let inside = buffer.withUnsafeBytes { _ in try! ResidueScanner().scan(for: marker) }
      let nested = buffer.withUnsafeBytes { _ in
        buffer.withUnsafeBytes { _ in try! ResidueScanner().scan(for: marker) }
      }
      let after = try! ResidueScanner().scan(for: marker)
      let ciphertext = try! ResidueScanner().scan(for: ciphertextMarker(of: buffer))
      _ = consume buffer
      #expect(afterPlant.copies == 0, "\(afterPlant)")
      #expect(inside.copies == 1, "control: the scan reads the scratch: \(inside)")
      #expect(nested.copies == 2, "two windows, two slots: \(nested)")
      #expect(after.copies == 0, "\(after)")
      #expect(ciphertext.copies == 1, "\(ciphertext)")
    }
  }

  @Test(
    "a thread that ends inside a window: its scratch is wiped and unmapped (0 copies, no mapping); while it waits there, 1 copy (control)"
  )
  func threadEndWipesScratch() async {
    await #expect(processExitsWith: .success) {
      SecureStorage.simulateSecretMemoryFailure(errno: ENOSYS)
      let marker = Marker(count: 32)
      var buffer = try! SecureBuffer(capacity: 32, storage: .sealed)
      plant(marker, in: &buffer)
      let held = HeldBuffer(buffer)
      let inWindow = Atomic<UInt>(0)
      let mayEnd = Atomic<Bool>(false)
      let context = ThreadContext {
        held.buffer.withUnsafeBytes { _ in
          inWindow.store(
            UInt(bitPattern: SecureStorage.scratchAddressOfCurrentThreadForTesting!),
            ordering: .releasing)
          while !mayEnd.load(ordering: .acquiring) { sched_yield() }
          // Ends the thread here, the window never closed: only the
          // thread's destructor can wipe the slot.
          pthread_exit(nil)
        }
      }
      let thread = context.start()
      while inWindow.load(ordering: .acquiring) == 0 { sched_yield() }
      let scratch = inWindow.load(ordering: .acquiring)
      let waiting = try! ResidueScanner().scan(for: marker)
      let mappedWhileAlive = try! MemoryMap().mapping(containing: scratch) != nil
      mayEnd.store(true, ordering: .releasing)
      pthread_join(thread, nil)
      let ended = try! ResidueScanner().scan(for: marker)
      let mappedAfter = try! MemoryMap().mapping(containing: scratch) != nil
      #expect(waiting.copies == 1, "control: \(waiting)")
      #expect(mappedWhileAlive)
      #expect(ended.copies == 0, "\(ended)")
      #expect(!mappedAfter, "the thread's scratch is unmapped")
    }
  }
}

/// A POSIX thread running `body`, started by hand so that it can end with
/// `pthread_exit`.
final class ThreadContext {
  let body: () -> Void
  init(_ body: @escaping () -> Void) { self.body = body }

  func start() -> pthread_t {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(self).toOpaque()
    let created = pthread_create(
      &thread, nil,
      { raw in
        let context = Unmanaged<ThreadContext>.fromOpaque(raw!).takeRetainedValue()
        context.body()
        return nil
      }, context)
    precondition(created == 0, "pthread_create failed")
    return thread
  }
}
