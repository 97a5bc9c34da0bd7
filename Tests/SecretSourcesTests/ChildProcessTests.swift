import Foundation
import Glibc
import SecureMemory
import TestSupport
import Testing
import SecretSources

@Suite("ChildProcess: a secret on a child's standard input")
struct ChildProcessTests {
  /// `cat` writing its standard input to a file in a directory of the
  /// test's own.
  struct CatToFile {
    let directory: SourceDirectory
    let command: [String]

    init() throws {
      directory = try SourceDirectory()
      command = ["sh", "-c", "cat > '\(directory.path)/out'"]
    }

    /// What the last `cat` wrote.
    func output() throws -> String {
      try String(contentsOfFile: directory.path + "/out", encoding: .utf8)
    }
  }

  @Test("the child reads exactly the secret (and the newline when asked); its status comes back")
  func handsOver() throws {
    let cat = try CatToFile()
    let secret = try secureText("child pw")
    #expect(try ChildProcess.run(cat.command, standardInput: secret) == .exited(0))
    #expect(try cat.output() == "child pw")
    #expect(
      try ChildProcess.run(cat.command, standardInput: secret, appendingNewline: true)
        == .exited(0))
    #expect(try cat.output() == "child pw\n")
    #expect(
      try ChildProcess.run(["sh", "-c", "cat >/dev/null; exit 7"], standardInput: secret)
        == .exited(7))
    #expect(
      try ChildProcess.run(["sh", "-c", "cat >/dev/null; kill -TERM $$"], standardInput: secret)
        == .signalled(SIGTERM))
  }

  @Test("a range hands the child that part of the buffer alone")
  func handsOverAPart() throws {
    let cat = try CatToFile()
    let vault = try secureText("alice:s3cret;bob:hunter2")
    #expect(try ChildProcess.run(cat.command, standardInput: vault, range: 17..<24) == .exited(0))
    #expect(try cat.output() == "hunter2")
    #expect(
      try ChildProcess.run(
        cat.command, standardInput: vault, range: 6..<12, appendingNewline: true) == .exited(0))
    #expect(try cat.output() == "s3cret\n")
  }

  @Test("a program that is not there: notStarted, naming it")
  func notFound() throws {
    let secret = try SecureBuffer(capacity: 8)
    let error = #expect(throws: ChildProcessError.self) {
      _ = try ChildProcess.run(["sf-no-such-program"], standardInput: secret)
    }
    #expect(error?.code == .notStarted)
    #expect(error?.errno == ENOENT)
    #expect(error?.description.contains("sf-no-such-program") == true)
  }

  @Test("a child that stops reading: EPIPE is an error, and this process does not die of SIGPIPE")
  func childStopsReading() async {
    await #expect(processExitsWith: .success) {
      signal(SIGPIPE, SIG_DFL)
      // More than a pipe's buffer, so the write is still going when the child exits.
      var secret = try! SecureBuffer(capacity: 1 << 20)
      try! secret.append(count: 1 << 20) { $0.initializeMemory(as: UInt8.self, repeating: 0x61) }
      let error = #expect(throws: ChildProcessError.self) {
        _ = try ChildProcess.run(["true"], standardInput: secret)
      }
      #expect(error?.code == .inputNotRead)
      #expect(error?.errno == EPIPE)
      #expect(error?.termination == .exited(0))
    }
  }

  @Test("control: a plain write into a pipe nobody reads does end the process by SIGPIPE")
  func controlPlainWriteDies() async {
    await #expect(processExitsWith: .signal(SIGPIPE)) {
      let writeEnd = writeEndWithNoReader()
      var byte: UInt8 = 0x61
      _ = write(writeEnd, &byte, 1)
    }
  }
}
