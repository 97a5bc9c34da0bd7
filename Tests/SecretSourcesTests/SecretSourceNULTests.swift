import Glibc
import SecretSources
import SecureMemory
import TestSupport
import Testing

/// A pipe holding `bytes` and then its end; the caller closes the read end.
private func pipeHolding(_ bytes: [UInt8]) -> Int32 {
  var ends: [Int32] = [-1, -1]
  precondition(pipe(&ends) == 0)
  _ = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
  close(ends[1])
  return ends[0]
}

/// A secret with a NUL byte in it, and the same without (the control).
private let withNUL = Array("ab\0cd\n".utf8)
private let withoutNUL = Array("abcd\n".utf8)

@Suite("SecretSource: one rule for NUL bytes, in every source")
struct SecretSourceNULTests {
  @Test("a file: refused, naming the file; the control without the NUL is taken")
  func file() throws {
    let directory = try SourceDirectory()
    let path = try directory.file("nul", withNUL)
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.file(path: path).obtain()
    }
    #expect(error?.code == .containsNul)
    #expect(error?.description.contains(path) == true, "\(String(describing: error))")
    #expect(error?.description.contains("NUL byte") == true)
    let control = try directory.file("plain", withoutNUL)
    #expect(Obtained(.file(path: control)) == .secret("abcd"))
  }

  @Test("a NUL after the first line is not part of the secret, and not refused")
  func afterTheFirstLine() throws {
    let directory = try SourceDirectory()
    let path = try directory.file("later", Array("abcd\nef\0gh\n".utf8))
    #expect(Obtained(.file(path: path)) == .secret("abcd"))
  }

  @Test("a FIFO named as a file: refused; the control is taken")
  func fifo() throws {
    let directory = try SourceDirectory()
    let path = try directory.fifo("fifo")
    let writer = try writerHolding(path, "ab\0cd\n")
    #expect(Obtained(.file(path: path)) == .failed(.containsNul))
    close(writer)
    let control = try writerHolding(path, "abcd\n")
    defer { close(control) }
    #expect(Obtained(.file(path: path)) == .secret("abcd"))
  }

  @Test("a descriptor: refused; the control is taken")
  func descriptor() {
    let holding = pipeHolding(withNUL)
    defer { close(holding) }
    #expect(Obtained(.descriptor(holding)) == .failed(.containsNul))
    let control = pipeHolding(withoutNUL)
    defer { close(control) }
    #expect(Obtained(.descriptor(control)) == .secret("abcd"))
  }

  @Test("a message on a datagram socket: refused; the control is taken")
  func datagram() {
    let (read, sender) = socketPair(Int32(SOCK_DGRAM.rawValue))
    defer { close(read); close(sender) }
    sendMessage(sender, "ab\0cd\n")
    sendMessage(sender, "abcd\n")
    #expect(Obtained(.descriptor(read)) == .failed(.containsNul))
    #expect(Obtained(.descriptor(read)) == .secret("abcd"))
  }

  @Test("standard input: refused; the control is taken")
  func standardInput() async {
    await #expect(processExitsWith: .success) {
      dup2(pipeHolding(Array("ab\0cd\nabcd\n".utf8)), 0)
      #expect(Obtained(.standardInput) == .failed(.containsNul))
      #expect(Obtained(.standardInput) == .secret("abcd"))
    }
  }

  @Test("a command's output: refused, naming the command; the control is taken")
  func command() {
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.command(["printf", "ab\\000cd\\n"]).obtain()
    }
    #expect(error?.code == .containsNul)
    #expect(error?.description.contains("printf") == true, "\(String(describing: error))")
    #expect(Obtained(.command(["printf", "abcd\\n"])) == .secret("abcd"))
  }

  @Test(
    "a credential: refused where systemd-ask-password would cut at the NUL; the control is taken")
  func credential() async {
    await #expect(processExitsWith: .success) {
      let directory = try! SourceDirectory()
      try! directory.file("nul", Array("ab\0cd".utf8), mode: 0o400)
      try! directory.file("plain", Array("abcd".utf8), mode: 0o400)
      setenv("CREDENTIALS_DIRECTORY", directory.path, 1)
      #expect(Obtained(.credential(name: "nul")) == .failed(.containsNul))
      #expect(Obtained(.credential(name: "plain")) == .secret("abcd"))
    }
  }

  @Test("a front end's answer: refused; the control is taken")
  func asking() {
    #expect(Obtained(.asking(StubAsker(answer: "ab\0cd"))) == .failed(.containsNul))
    #expect(Obtained(.asking(StubAsker(answer: "abcd"))) == .secret("abcd"))
  }
}
