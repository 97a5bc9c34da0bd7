import Glibc
import SecureMemory
import Testing

/// A pipe whose ends close when the test is done with them.
final class Pipe {
  let readEnd: Int32
  let writeEnd: Int32

  init() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  func send(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress, $0.count) }
  }

  func receive(upTo limit: Int = 4096) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: limit)
    let got = bytes.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
    return Array(bytes[0..<Swift.max(0, got)])
  }

  func closeWriteEnd() { close(writeEnd) }

  deinit {
    close(readEnd)
    close(writeEnd)
  }
}

@Suite("SecureBuffer reads from and writes to file descriptors")
struct SecureBufferIOTests {
  @Test("read appends what one read(2) returns, behind what was there")
  func readAppends() throws {
    let pipe = try Pipe()
    var buffer = try makeBuffer([1, 2])
    pipe.send([3, 4, 5])
    let outcome = try buffer.read(from: pipe.readEnd, maximumCount: 16)
    #expect(outcome == .bytes(3))
    #expect(bytes(of: buffer) == [1, 2, 3, 4, 5])
  }

  @Test("read takes at most maximumCount bytes; the rest stays for the next read")
  func readHonoursMaximum() throws {
    let pipe = try Pipe()
    var buffer = try SecureBuffer()
    pipe.send([1, 2, 3, 4])
    let first = try buffer.read(from: pipe.readEnd, maximumCount: 3)
    let second = try buffer.read(from: pipe.readEnd, maximumCount: 3)
    #expect([first, second] == [.bytes(3), .bytes(1)])
    #expect(bytes(of: buffer) == [1, 2, 3, 4])
  }

  @Test("read grows the buffer to make room")
  func readGrows() throws {
    let pipe = try Pipe()
    var buffer = try SecureBuffer()
    let capacity = buffer.capacity
    try buffer.append([UInt8](repeating: 9, count: capacity))
    pipe.send([7])
    _ = try buffer.read(from: pipe.readEnd, maximumCount: 64)
    let count = buffer.count
    #expect(count == capacity + 1)
  }

  @Test("read with a zero timeout on an empty pipe times out and appends nothing")
  func readTimesOut() throws {
    let pipe = try Pipe()
    var buffer = try makeBuffer([1])
    let outcome = try buffer.read(from: pipe.readEnd, timeout: .zero)
    #expect(outcome == .timedOut)
    #expect(bytes(of: buffer) == [1])
  }

  @Test("read reports end of file")
  func readEndOfFile() throws {
    let pipe = try Pipe()
    var buffer = try SecureBuffer()
    pipe.closeWriteEnd()
    #expect(try buffer.read(from: pipe.readEnd) == .endOfFile)
  }

  @Test("read from a closed descriptor throws readFailed with EBADF")
  func readFails() throws {
    var buffer = try SecureBuffer()
    let error = #expect(throws: SecureMemoryError.self) { try buffer.read(from: 987_654) }
    // poll reports POLLNVAL for a descriptor that is not open; read then fails.
    #expect(error?.code == .readFailed)
    #expect(error?.errno == EBADF)
  }

  @Test("write sends all bytes, or a range of them")
  func write() throws {
    let pipe = try Pipe()
    let buffer = try makeBuffer(Array("hunter2\n".utf8))
    try buffer.write(to: pipe.writeEnd)
    try buffer.write(to: pipe.writeEnd, range: 0..<6)
    #expect(pipe.receive() == Array("hunter2\nhunter".utf8))
  }

  @Test("append(count:initializingWith:) writes straight into spare capacity")
  func appendInitializing() throws {
    var buffer = try makeBuffer([1])
    try buffer.append(count: 3) { spare in
      for index in spare.indices { spare[index] = UInt8(10 + index) }
    }
    #expect(bytes(of: buffer) == [1, 10, 11, 12])
  }

  struct Refusal: Error {}

  @Test("append(count:initializingWith:) that throws appends nothing")
  func appendInitializingThrows() throws {
    var buffer = try makeBuffer([1])
    #expect(throws: AppendError<Refusal>.self) {
      try buffer.append(count: 3) { (spare: UnsafeMutableRawBufferPointer) throws(Refusal) in
        spare[0] = 5
        throw Refusal()
      }
    }
    try buffer.append([2])
    #expect(bytes(of: buffer) == [1, 2])
  }
}
