import Foundation
import Glibc
import PTYSupport
import TestSupport
import Testing

/// What an attack on `--password-from` tried, run as the tool runs.
@Suite("secretfield --password-from under attack")
struct SourceHostileTests {
  @Test("file: naming a FIFO with no writer ends at --timeout with 124, not blocked in open")
  func fifoWithoutWriter() throws {
    let directory = try SourceDirectory()
    let path = try directory.fifo("lonely")
    let run = try runWithoutTerminal([
      "prompt", "--password-from", "file:" + path, "--timeout", "1",
    ])
    #expect(run.status == .exited(124), "\(run.error)")
    #expect(run.output.isEmpty)
  }

  @Test("file: naming a FIFO any user can write is refused (exit 1), though a writer waits")
  func writableFIFO() throws {
    let directory = try SourceDirectory()
    let path = try directory.fifo("open", mode: 0o666)
    let writer = open(path, O_RDWR | O_CLOEXEC)
    defer { close(writer) }
    _ = Array("anyone's\n".utf8).withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
    let run = try runWithoutTerminal(["prompt", "--password-from", "file:" + path])
    #expect(run.status == .exited(1))
    #expect(run.output.isEmpty)
    #expect(run.error.contains("can be written by its group and others"), "\(run.error)")
  }
}
