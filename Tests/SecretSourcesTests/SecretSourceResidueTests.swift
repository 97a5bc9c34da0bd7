import Glibc
import SecureMemory
import TestSupport
import Testing
import SecretSources

/// Every source reads the secret straight into secure memory, and
/// `ChildProcess` writes it from there: a scan of the whole process finds the
/// marker once while the buffer is held and never after it is dropped. The
/// marker reaches each source from secure memory (a file, a pipe, a command's
/// output) or from a `putenv` block the environment owns, so no copy of the
/// test's own can be found. Each scan runs in an exit-test child; Scripts/test
/// runs these again in a release build.
@Suite("Residue: secret sources and ChildProcess leave no copy")
struct SecretSourceResidueTests {
  @Test("control: a marker planted in an ordinary array is found")
  func control() async {
    await #expect(processExitsWith: .success) {
      ResidueControl.expectPlantedMarkerFound(Marker())
    }
  }

  @Test("file, and a credential: one copy while held, none after")
  func file() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let directory = try! SourceDirectory()
      let path = try! directory.markerFile("secret", marker)
      checkResidue(of: .file(path: path), marker)
      // A credential is the whole file, so it has no line feed to drop.
      _ = try! directory.markerFile("credential", marker, lineFeed: false)
      setenv("CREDENTIALS_DIRECTORY", directory.path, 1)
      checkResidue(of: .credential(name: "credential"), marker)
    }
  }

  @Test("a descriptor and standard input: one copy while held, none after")
  func descriptors() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      var ends: [Int32] = [-1, -1]
      _ = pipe(&ends)
      writeMarker(marker, to: ends[1])
      writeMarker(marker, to: ends[1])
      close(ends[1])
      checkResidue(of: .descriptor(ends[0]), marker)
      dup2(ends[0], 0)
      checkResidue(of: .standardInput, marker)
    }
  }

  @Test("an environment variable: one copy while held, none after (the block is wiped)")
  func environment() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let name = uniqueVariable()
      putMarkerInEnvironment(name, marker)
      let planted = try! ResidueScanner().scan(for: marker)
      #expect(planted.copies == 1, "control: the variable holds it: \(planted)")
      checkResidue(of: .environment(name: name), marker)
    }
  }

  @Test("a command's output: one copy while held, none after")
  func command() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let directory = try! SourceDirectory()
      let path = try! directory.markerFile("secret", marker)
      checkResidue(of: .command(["cat", path]), marker)
    }
  }

  @Test("ChildProcess: the secret goes to the child's pipe and leaves no copy here")
  func childProcess() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let directory = try! SourceDirectory()
      let out = directory.path + "/out"
      do {
        let secret = marker.unmaskedInSecureBuffer(capacity: marker.count)
        let termination = try! ChildProcess.run(
          ["sh", "-c", "cat > '\(out)'"], standardInput: secret, appendingNewline: true)
        #expect(termination == .exited(0))
        let held = try! ResidueScanner().scan(for: marker)
        #expect(held.copies == 1, "\(held)")
      }
      let released = try! ResidueScanner().scan(for: marker)
      #expect(released.copies == 0, "\(released)")
      // Control that it went through: the child wrote it to the file.
      let copy = try! SecretSource.file(path: out).obtain()
      let wentThrough = holds(copy, marker)
      #expect(wentThrough)
    }
  }

  @Test("a line from standard input: one copy in the result, none once it is dropped")
  func standardInput() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker()
      var ends: [Int32] = [0, 0]
      #expect(pipe(&ends) == 0)
      do {
        // The line goes into the pipe from secure memory, so the kernel holds
        // the only other copy, outside this process.
        var line = marker.unmaskedInSecureBuffer(capacity: marker.count + 1)
        try! line.append(count: 1) { $0[0] = 0x0A }
        try! line.write(to: ends[1])
      }
      close(ends[1])
      do {
        let secret = try! SecretSource.descriptor(ends[0]).obtain(
          storage: .sodium, reportingWarnings: { _ in })
        let held = try! ResidueScanner().scan(for: marker)
        let count = secret.count
        #expect(count == marker.count)
        #expect(held.copies == 1, "\(held)")
      }
      let after = try! ResidueScanner().scan(for: marker)
      #expect(after.copies == 0, "\(after)")
      close(ends[0])
    }
  }
}

/// Obtains from `source`, expects the marker in the buffer and exactly one
/// copy in the process while it is held, none after.
func checkResidue(of source: SecretSource, _ marker: Marker) {
  do {
    let secret: SecureBuffer
    // Sodium memory: the scan reads the one copy there.
    do { secret = try source.obtain(storage: .sodium, reportingWarnings: { _ in }) } catch {
      Issue.record("\(source): \(error)")
      return
    }
    let isMarker = holds(secret, marker)
    #expect(isMarker, "\(source)")
    let held = try! ResidueScanner().scan(for: marker)
    #expect(held.copies == 1, "\(source) held: \(held)")
  }
  let released = try! ResidueScanner().scan(for: marker)
  #expect(released.copies == 0, "\(source) released: \(released)")
}
