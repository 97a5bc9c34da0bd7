import SecureMemory
import TestSupport
import Testing

/// `StackWipeScope` turns the wipes inside it into one wipe at its end, which
/// must reach as deep as the deepest of them. Shown by effect: a marker left
/// on the stack by frames that have returned, 48 frames of a kilobyte and more
/// below the scope (below where the scan's own frames reach; a debug build's
/// frames are larger, hence the wipes' 512 KiB), found or not by a scan of
/// the process's memory. Each test runs in an exit-test child.
@Suite("StackWipeScope: one wipe at the end, as deep as the wipes it took in")
struct StackWipeScopeTests {
  /// Leaves `marker`'s plain bytes in a frame about `levels` KiB below the
  /// caller, then returns (the bytes stay where the frames were).
  @inline(never)
  static func plant(_ marker: Marker, levels: Int) {
    withUnsafeTemporaryAllocation(byteCount: 1000, alignment: 16) { room in
      if levels > 1 {
        room[0] = 0
        plant(marker, levels: levels - 1)
      } else {
        let bytes = UnsafeMutableRawBufferPointer(rebasing: room[0..<marker.count])
        marker.writeMasked(into: bytes)
        marker.unmask(in: bytes)
      }
    }
  }

  /// Plants the marker deep, then asks for a wipe of `reach` bytes below
  /// here, as code that computed on a secret does after it.
  @inline(never)
  static func computeAndWipe(_ marker: Marker, reach: Int) {
    plant(marker, levels: 48)
    wipeStack(byteCount: reach)
  }

  @Test("a wipe inside the scope waits for its end, which reaches as deep as it asked")
  func deferredAndDeep() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 24)
      let scope = StackWipeScope()
      StackWipeScopeTests.computeAndWipe(marker, reach: 512 * 1024)
      let inside = try! ResidueScanner().scan(for: marker)
      scope.end()
      let after = try! ResidueScanner().scan(for: marker)
      // The scan found the planted bytes while the wipe waited: it can fail.
      #expect(inside.copies >= 1, "\(inside)")
      #expect(after.copies == 0, "\(after)")
    }
  }

  @Test("control: the end's own reach (16 KiB) leaves what no wipe inside asked for")
  func endAloneIsShallow() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 24)
      let scope = StackWipeScope()
      StackWipeScopeTests.computeAndWipe(marker, reach: 1024)
      scope.end()
      let after = try! ResidueScanner().scan(for: marker)
      #expect(after.copies >= 1, "\(after)")
    }
  }

  @Test("without a scope, the wipe is made at once")
  func noScope() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 24)
      StackWipeScopeTests.computeAndWipe(marker, reach: 512 * 1024)
      let after = try! ResidueScanner().scan(for: marker)
      #expect(after.copies == 0, "\(after)")
    }
  }

  @Test("scopes nest: the inner one's wipe waits for the outer one's end")
  func nested() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 24)
      let outer = StackWipeScope()
      let inner = StackWipeScope()
      StackWipeScopeTests.computeAndWipe(marker, reach: 512 * 1024)
      inner.end()
      let betweenEnds = try! ResidueScanner().scan(for: marker)
      outer.end()
      let after = try! ResidueScanner().scan(for: marker)
      #expect(betweenEnds.copies >= 1, "\(betweenEnds)")
      #expect(after.copies == 0, "\(after)")
    }
  }
}
