import Foundation
import Glibc
import PasswordAgent
import SecureMemory
import TestSupport
import Testing

/// A request file's text for `socket`, with more keys.
func requestText(socket: String, message: String = "Passphrase:", extra: String = "") -> String {
  "[Ask]\nPID=\(getpid())\nSocket=\(socket)\nMessage=\(message)\n\(extra)"
}

@Suite("RequestDirectory: what a scan asks, and what it skips with a reason")
struct RequestDirectoryTests {
  @Test("a good request is found; every bad file beside it is skipped with its reason")
  func badFilesSkipped() throws {
    let directory = try TemporaryDirectory()
    let good = try DatagramSocket(path: directory.path + "/sck.good")
    try directory.write("ask.good", requestText(socket: good.path))
    try directory.write("ask.malformed", "[Ask]\nthis is not a key\n")
    try directory.write("ask.nosocket", "[Ask]\nMessage=Hi\n")
    try directory.write(
      "ask.long", requestText(socket: directory.path + "/" + String(repeating: "s", count: 120)))
    try directory.write("ask.outside", requestText(socket: "/tmp/sck.elsewhere"))
    try directory.write("ask.dotdot", requestText(socket: directory.path + "/../sck.good"))
    try directory.write("ask.notsocket", requestText(socket: directory.path + "/ask.good"))
    try directory.write("ask.missing", requestText(socket: directory.path + "/sck.none"))
    try directory.write(
      "ask.expired", requestText(socket: good.path, extra: "NotAfter=1\n"))
    try directory.write("ask.gone", "[Ask]\nPID=2147483646\nSocket=\(good.path)\n")
    #expect(symlink(directory.path + "/ask.good", directory.path + "/ask.link") == 0)
    #expect(symlink(good.path, directory.path + "/sck.link") == 0)
    try directory.write("ask.viasymlink", requestText(socket: directory.path + "/sck.link"))
    #expect(mkfifo(directory.path + "/ask.fifo", 0o600) == 0)
    #expect(mkdir(directory.path + "/ask.dir", 0o700) == 0)
    try directory.write("other.file", "[Ask]\nSocket=\(good.path)\n")
    try directory.write(".ask.hidden", "[Ask]\nSocket=\(good.path)\n")

    let scan = try RequestDirectory(path: directory.path).scan()
    #expect(scan.requests.map(\.fileName) == ["ask.good"])
    let reasons = Dictionary(uniqueKeysWithValues: scan.skipped.map { ($0.fileName, $0.reason) })
    #expect(reasons["ask.link"] == .symbolicLink)
    #expect(reasons["ask.fifo"] == .notRegularFile)
    #expect(reasons["ask.dir"] == .notRegularFile)
    #expect(reasons["ask.long"] == .socketPathTooLong)
    #expect(reasons["ask.outside"] == .socketOutsideDirectory)
    #expect(reasons["ask.dotdot"] == .socketOutsideDirectory)
    #expect(reasons["ask.notsocket"] == .socketNotASocket)
    #expect(reasons["ask.missing"] == .socketNotASocket)
    #expect(reasons["ask.viasymlink"] == .socketNotASocket)
    #expect(reasons["ask.expired"] == .expired)
    #expect(reasons["ask.gone"] == .askerGone(processID: 2_147_483_646))
    if case .malformed(let error) = reasons["ask.malformed"] {
      #expect(error.code == .malformedLine)
    } else {
      Issue.record("ask.malformed: \(String(describing: reasons["ask.malformed"]))")
    }
    if case .malformed(let error) = reasons["ask.nosocket"] {
      #expect(error.code == .missingSocket)
    } else {
      Issue.record("ask.nosocket: \(String(describing: reasons["ask.nosocket"]))")
    }
    // Only ask.* files count; each skip is one line.
    #expect(scan.skipped.count == 13)
    #expect(!reasons.keys.contains("other.file") && !reasons.keys.contains(".ask.hidden"))
    #expect(scan.skipped.allSatisfy { !$0.description.contains("\n") })
  }

  @Test("requests come oldest first, by when their files were written")
  func oldestFirst() throws {
    let directory = try TemporaryDirectory()
    let socket = try DatagramSocket(path: directory.path + "/sck")
    for (name, seconds) in [("ask.b", 300), ("ask.a", 200), ("ask.c", 100)] {
      try directory.write(name, requestText(socket: socket.path, message: name))
      var times = [
        timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0),
      ]
      #expect(utimensat(AT_FDCWD, directory.path + "/" + name, &times, 0) == 0)
    }
    let scan = try RequestDirectory(path: directory.path).scan()
    #expect(scan.requests.map(\.fileName) == ["ask.c", "ask.a", "ask.b"])
  }

  @Test("a directory that does not exist holds no request")
  func missingDirectory() throws {
    let scan = try RequestDirectory(path: "/tmp/sfa-does-not-exist-\(getpid())").scan()
    #expect(scan.requests.isEmpty && scan.skipped.isEmpty)
  }

  @Test("hundreds of requests at once: all read, past the limit left for later")
  func hundreds() throws {
    let directory = try TemporaryDirectory()
    let socket = try DatagramSocket(path: directory.path + "/sck")
    for index in 0..<1100 {
      try directory.write(String(format: "ask.%04d", index), requestText(socket: socket.path))
    }
    let scan = try RequestDirectory(path: directory.path).scan()
    #expect(scan.requests.count == RequestDirectory.maximumRequestCount)
    #expect(scan.skipped.count == 1100 - RequestDirectory.maximumRequestCount)
    #expect(scan.skipped.allSatisfy { $0.reason == .tooMany })
  }

  @Test("a file removed after the scan is no longer held; another under its name is not it")
  func stillHolds() throws {
    let directory = try TemporaryDirectory()
    let socket = try DatagramSocket(path: directory.path + "/sck")
    try directory.write("ask.x", requestText(socket: socket.path))
    let requests = RequestDirectory(path: directory.path)
    let pending = try #require(try requests.scan().requests.first)
    #expect(requests.stillHolds(pending))
    unlink(directory.path + "/ask.x")
    #expect(!requests.stillHolds(pending))
    try directory.write("ask.x", requestText(socket: socket.path))
    #expect(!requests.stillHolds(pending))
  }

  @Test("the watch wakes for a request renamed into place and for one removed")
  func watchWakes() throws {
    let directory = try TemporaryDirectory()
    let watch = try RequestWatch(RequestDirectory(path: directory.path))
    let quietAtFirst = watch.drain()
    #expect(!quietAtFirst)
    try directory.write(".tmp", "[Ask]\n")
    _ = watch.drain()
    #expect(rename(directory.path + "/.tmp", directory.path + "/ask.new") == 0)
    let sawRename = watch.waitForChange(timeout: .seconds(30))
    #expect(sawRename)
    unlink(directory.path + "/ask.new")
    let sawRemoval = watch.waitForChange(timeout: .seconds(30))
    #expect(sawRemoval)
    let quietAfter = watch.drain()
    #expect(!quietAfter)
  }

  @Test("the reply: one datagram, + and the password from secure memory, or - alone")
  func reply() throws {
    let directory = try TemporaryDirectory()
    let socket = try DatagramSocket(path: directory.path + "/sck")
    var secret = try SecureBuffer(capacity: 16)
    try Array("pa ss\u{E9}".utf8).withUnsafeBytes { try secret.append($0) }
    try PasswordReply.answer(secret, to: socket.path)
    #expect(socket.receive() == Array("+pa ss\u{E9}".utf8))
    try PasswordReply.answer(try SecureBuffer(capacity: 0), to: socket.path)
    #expect(socket.receive() == [UInt8(ascii: "+")])
    try PasswordReply.cancel(to: socket.path)
    #expect(socket.receive() == [UInt8(ascii: "-")])
    #expect(throws: AgentError.self) {
      try PasswordReply.cancel(to: directory.path + "/sck.none")
    }
  }
}

@Suite("the reply goes to the socket the scan checked")
struct ReplySocketTests {
  /// The code `connect(to:)` throws, or nil when it connects.
  static func connectionError(
    _ requests: RequestDirectory, _ pending: PendingRequest
  ) -> AgentError.Code? {
    do {
      _ = try requests.connect(to: pending)
      return nil
    } catch {
      return error.code
    }
  }

  @Test("a socket swapped for a link, or for another socket, after the scan is refused")
  func swapped() throws {
    let directory = try TemporaryDirectory()
    let requests = RequestDirectory(path: directory.path)
    var socket: DatagramSocket? = try DatagramSocket(path: directory.path + "/sck")
    try directory.write("ask.x", "[Ask]\nSocket=\(directory.path)/sck\n")
    let pending = try #require(try requests.scan().requests.first)
    // The control: connected as scanned, the answer arrives.
    var secret = try SecureBuffer(capacity: 8)
    try Array("pw".utf8).withUnsafeBytes { try secret.append($0) }
    try requests.connect(to: pending).answer(secret)
    #expect(socket?.receive() == Array("+pw".utf8))
    let other = try DatagramSocket(path: directory.path + "/other")
    socket = nil
    #expect(symlink(other.path, directory.path + "/sck") == 0)
    #expect(Self.connectionError(requests, pending) == .socketReplaced)
    unlink(directory.path + "/sck")
    let impostor = try DatagramSocket(path: directory.path + "/sck")
    #expect(Self.connectionError(requests, pending) == .socketReplaced)
    #expect(impostor.receiveWaiting() == nil && other.receiveWaiting() == nil)
  }

  @Test("a reply on a connected socket sent after the name moved still reaches the socket")
  func connectedThenMoved() throws {
    let directory = try TemporaryDirectory()
    let requests = RequestDirectory(path: directory.path)
    let socket = try DatagramSocket(path: directory.path + "/sck")
    try directory.write("ask.x", "[Ask]\nSocket=\(directory.path)/sck\n")
    let pending = try #require(try requests.scan().requests.first)
    let reply = try requests.connect(to: pending)
    #expect(rename(directory.path + "/sck", directory.path + "/moved") == 0)
    try reply.cancel()
    #expect(socket.receive() == [UInt8(ascii: "-")])
    unlink(directory.path + "/moved")
  }
}
