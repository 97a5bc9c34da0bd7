import Dispatch
import Glibc
import PTYSupport
import SecretFieldTerminal
import Synchronization
import Testing

/// What the master of a pair read, gathered by a thread of its own.
private final class MasterReader: @unchecked Sendable {
  let master: Int32
  let finished = Atomic<Bool>(false)
  private(set) var bytes: [UInt8] = []
  private let group = DispatchGroup()

  init(master: Int32) { self.master = master }

  /// Reads until ``finish()`` was called and nothing more is there.
  func start() {
    group.enter()
    DispatchQueue.global().async {
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        var request = pollfd(fd: self.master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&request, 1, 50)
        if ready > 0 {
          let got = chunk.withUnsafeMutableBytes { read(self.master, $0.baseAddress, $0.count) }
          if got > 0 {
            self.bytes += chunk[..<got]
            continue
          }
        }
        if ready == 0 && self.finished.load(ordering: .acquiring) { break }
      }
      self.group.leave()
    }
  }

  /// Says the writer is done; returns everything read.
  func finish() -> [UInt8] {
    finished.store(true, ordering: .releasing)
    group.wait()
    return bytes
  }
}

/// Fills the output queue of a non-blocking `descriptor` until it takes no
/// more (`EAGAIN`); returns how many bytes went in.
private func fill(_ descriptor: Int32) -> Int {
  let block = [UInt8](repeating: UInt8(ascii: "."), count: 512)
  var total = 0
  while true {
    let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    if written <= 0 { return total }
    total += written
  }
}

@Suite("The last frame and the mode resets reach a terminal that is slow to read, whole")
struct FullTerminalWriteTests {
  @Test(
    "a non-blocking terminal whose queue is full still gets the frame and every reset",
    arguments: 0..<5)
  func fullNonBlockingTerminal(_ run: Int) throws {
    let pair = try PseudoTerminalPair()
    var terminal = try TerminalDevice(path: pair.slavePath)
    try terminal.enterRawMode(features: .prompt)
    let flags = fcntl(terminal.descriptor, F_GETFL)
    #expect(fcntl(terminal.descriptor, F_SETFL, flags | O_NONBLOCK) == 0)
    _ = pair.readOutput()
    let filled = fill(terminal.descriptor)
    #expect(filled > 0, "the control: the queue was full")

    let reader = MasterReader(master: pair.master)
    reader.start()
    let frame = "\r" + "Password: " + String(repeating: "•", count: 1000) + "\u{1B}[K"
    var writer = ScreenWriter(terminal: terminal)
    writer.append(frame)
    var frameWritten = true
    do { try writer.flush() } catch { frameWritten = false }
    let restored = terminal.restoreModes()
    let output = reader.finish()

    #expect(frameWritten, "run \(run)")
    #expect(restored, "run \(run)")
    let expected = Array(frame.utf8) + Array("\u{1B}[?1004l\u{1B}[?2004l".utf8)
    #expect(output.count == filled + expected.count, "run \(run)")
    #expect(Array(output.suffix(expected.count)) == expected, "run \(run)")
  }
}
