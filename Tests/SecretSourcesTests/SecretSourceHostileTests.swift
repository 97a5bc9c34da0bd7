import Glibc
@_spi(Fuzzing) import SecretSources
@_spi(Testing) import SecureMemory
import TestSupport
import Testing

/// Opens `path` (a FIFO) for writing without waiting for a reader (`O_RDWR`
/// never blocks on a FIFO) and writes `text` (test data) into it; the caller
/// closes the descriptor, which keeps a writer there until then.
func writerHolding(_ path: String, _ text: String) throws -> Int32 {
  let descriptor = open(path, O_RDWR | O_CLOEXEC)
  guard descriptor >= 0 else { throw FixtureError("open \(path): \(errno)") }
  _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  return descriptor
}

@Suite("SecretSource under attack: files and FIFOs")
struct SecretSourceFileRuleTests {
  @Test(
    "one rule for every kind: a FIFO others (or its group) can write is refused, though a writer waits with a line"
  )
  func writableFIFO() throws {
    let directory = try SourceDirectory()
    for mode: mode_t in [0o666, 0o620] {
      let path = try directory.fifo("fifo-\(String(mode, radix: 8))", mode: mode)
      let writer = try writerHolding(path, "chosen by another\n")
      defer { close(writer) }
      #expect(Obtained(.file(path: path)) == .failed(.unsafePermissions))
    }
  }

  @Test("the control: a FIFO of one's own, mode 600, with a writer: its line is taken")
  func privateFIFO() throws {
    let directory = try SourceDirectory()
    let path = try directory.fifo("fifo")
    let writer = try writerHolding(path, "fifo pw\nmore\n")
    defer { close(writer) }
    #expect(Obtained(.file(path: path)) == .secret("fifo pw"))
  }

  @Test(
    "a file of another user (who could rewrite it) is refused; root's and one's own are taken",
    .enabled(if: getuid() == 0, "needs root to give a file away"))
  func anotherUsersFile() throws {
    let directory = try SourceDirectory()
    let theirs = try directory.file("theirs", Array("their pw\n".utf8), mode: 0o600)
    #expect(chown(theirs, nobodyID, nobodyID) == 0)
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.file(path: theirs).obtain()
    }
    #expect(error?.code == .unsafeOwner)
    #expect(error?.description.contains("user \(nobodyID)") == true, "\(String(describing: error))")
    // The control: the same file, given back.
    #expect(chown(theirs, 0, 0) == 0)
    #expect(Obtained(.file(path: theirs)) == .secret("their pw"))
  }

  @Test("a FIFO of another user is refused too, whatever its mode")
  func anotherUsersFIFO() throws {
    guard getuid() == 0 else { return }
    let directory = try SourceDirectory()
    let path = try directory.fifo("theirs", mode: 0o600)
    #expect(chown(path, nobodyID, nobodyID) == 0)
    let writer = try writerHolding(path, "their pw\n")
    defer { close(writer) }
    #expect(Obtained(.file(path: path)) == .failed(.unsafeOwner))
  }

  @Test("a FIFO with no writer: its line timeout ends the wait (timedOut), never a block in open")
  func fifoWithoutWriter() throws {
    let directory = try SourceDirectory()
    let path = try directory.fifo("lonely")
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.file(path: path).obtain(
        lineTimeout: .milliseconds(300), reportingWarnings: { _ in })
    }
    #expect(error?.code == .timedOut)
  }

  @Test("a credential that is a FIFO with no writer: the same timeout ends the wait")
  func credentialFIFOWithoutWriter() async {
    await #expect(processExitsWith: .success) {
      let directory = try! SourceDirectory()
      _ = try! directory.fifo("lonely")
      setenv("CREDENTIALS_DIRECTORY", directory.path, 1)
      let error = #expect(throws: SecretSourceError.self) {
        _ = try SecretSource.credential(name: "lonely").obtain(
          lineTimeout: .milliseconds(300), reportingWarnings: { _ in })
      }
      #expect(error?.code == .timedOut)
    }
  }
}

@Suite("SecretSource under attack: an environment block with a name twice")
struct SecretSourceDuplicateEnvironmentTests {
  @Test("both entries of the name are wiped in place and unset; the first is the value taken")
  func duplicateWiped() async {
    await #expect(processExitsWith: .success) {
      // A block as execve can make one: the name twice, another entry between.
      let entries = ["SF_DUP=first-value", "OTHER=kept", "SF_DUP=second-value"]
      let strings = entries.map { strdup($0)! }
      let block = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(
        capacity: strings.count + 1)
      for (index, string) in strings.enumerated() { block[index] = string }
      block[strings.count] = nil
      // `environ` is get-only in Swift: set the C variable through its address.
      let variable = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "environ")!
      variable.storeBytes(of: block, as: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.self)
      #expect(Obtained(.environment(name: "SF_DUP")) == .secret("first-value"))
      // The bytes where each value was are zero.
      for (index, length) in [(0, 11), (2, 12)] {
        let value = UnsafeRawPointer(strings[index]) + "SF_DUP=".utf8.count
        #expect((0..<length).allSatisfy { value.load(fromByteOffset: $0, as: UInt8.self) == 0 })
      }
      #expect(getenv("SF_DUP") == nil)
      #expect(getenv("OTHER").map { String(cString: $0) } == "kept")
    }
  }

  @Test("scrubEnvironment wipes every value of the name and nothing else (control: other names)")
  func scrubOnly() {
    let entries = ["A=1", "AB=22", "A=333", "B=A=4", "A="]
    let strings = entries.map { strdup($0)! }
    defer { strings.forEach { free($0) } }
    var block: [UnsafeMutablePointer<CChar>?] = strings + [nil]
    block.withUnsafeMutableBufferPointer { SecretSource.scrubEnvironment("A", in: $0.baseAddress) }
    let after = strings.map { pointer in
      (0..<strlen(pointer) + 4).map { UInt8(bitPattern: pointer[$0]) }
    }
    #expect(after[0].prefix(3) == [0x41, 0x3D, 0])
    #expect(String(cString: strings[1]) == "AB=22")
    #expect(after[2].prefix(5) == [0x41, 0x3D, 0, 0, 0])
    #expect(String(cString: strings[3]) == "B=A=4")
  }
}

@Suite("SecretSource under attack: memory that cannot be secret")
struct SecretSourceMemoryRuleTests {
  /// A source of each kind that needs no terminal, each giving `pw`.
  static func sources(in directory: SourceDirectory) throws -> [(String, SecretSource)] {
    let name = uniqueVariable()
    setenv(name, "pw", 1)
    let file = try directory.file("pw", Array("pw\n".utf8))
    return [
      ("env", .environment(name: name)), ("file", .file(path: file)),
      ("fd", .descriptor(pipeHolding(Array("pw\n".utf8)))), ("cmd", .command(["echo", "pw"])),
    ]
  }

  @Test(
    "where the lock limit refuses secret memory, every source refuses the secret, naming the limit")
  func limitRefuses() async {
    await #expect(processExitsWith: .success) {
      SecureStorage.simulateSecretMemoryFailure(errno: EAGAIN)
      let directory = try! SourceDirectory()
      for (label, source) in try! Self.sources(in: directory) {
        let error = #expect(throws: SecretSourceError.self, "\(label)") {
          _ = try source.obtain(storage: .strongestAvailable, reportingWarnings: { _ in })
        }
        #expect(error?.code == .secureMemoryFailed, "\(label)")
        #expect(
          error?.description.contains("RLIMIT_MEMLOCK") == true,
          "\(label): \(String(describing: error))")
      }
    }
  }

  @Test("the control: a kernel without secret memory is no reason to refuse: sodium memory it is")
  func noSecretMemoryTakes() async {
    await #expect(processExitsWith: .success) {
      SecureStorage.simulateSecretMemoryFailure(errno: ENOSYS)
      let directory = try! SourceDirectory()
      for (label, source) in try! Self.sources(in: directory) {
        let secret = try! source.obtain(storage: .strongestAvailable, reportingWarnings: { _ in })
        #expect(text(secret) == "pw", "\(label)")
        #expect(secret.protection.storage == .sodium, "\(label)")
      }
    }
  }

  @Test(
    "as nobody under a 4 KiB lock limit, a secret from the environment is in secret memory, not sodium memory",
    .enabled(if: getuid() == 0, "needs root to become nobody"))
  func oneLockedPage() async {
    await #expect(processExitsWith: .success) {
      // Whether the kernel offers secret memory, asked of the kernel, not of
      // the code under test (which would remember what it saw).
      let enabled = open("/sys/module/secretmem/parameters/enable", O_RDONLY | O_CLOEXEC)
      var flag: UInt8 = 0
      guard enabled >= 0, read(enabled, &flag, 1) == 1, flag == UInt8(ascii: "Y") else {
        return  // this kernel offers no secret memory: nothing to show
      }
      close(enabled)
      var limit = rlimit(rlim_cur: 4096, rlim_max: 4096)
      precondition(setrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit) == 0)
      precondition(dropToNobody())
      let name = uniqueVariable()
      setenv(name, "pw", 1)
      let secret = try! SecretSource.environment(name: name).obtain(
        storage: .strongestAvailable, reportingWarnings: { _ in })
      #expect(secret.protection.storage == .secretMemory, "\(secret.protection)")
    }
  }
}

/// A connected pair of sockets of `type` (`SOCK_DGRAM`, `SOCK_SEQPACKET`):
/// the end to read from and the end to send on; the caller closes both.
func socketPair(_ type: Int32) -> (read: Int32, send: Int32) {
  var ends: [Int32] = [-1, -1]
  precondition(socketpair(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
  return (ends[0], ends[1])
}

/// Sends `text` (test data) as one message.
func sendMessage(_ descriptor: Int32, _ text: String) {
  let bytes = Array(text.utf8)
  precondition(
    bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) } == bytes.count)
}

@Suite("SecretSource under attack: datagram and seqpacket sockets")
struct SecretSourceMessageSocketTests {
  static let types = [Int32(SOCK_DGRAM.rawValue), Int32(SOCK_SEQPACKET.rawValue)]

  @Test("a line sent as one message is read whole, not its first byte", arguments: types)
  func wholeMessage(_ type: Int32) {
    let (read, sender) = socketPair(type)
    defer { close(read) }
    // Sent and closed, as the attack did: what follows is the end.
    sendMessage(sender, "hunter2\n")
    close(sender)
    #expect(Obtained(.descriptor(read)) == .secret("hunter2"))
  }

  @Test(
    "a message's first line is the secret; a message without LF counts whole; the next message is left",
    arguments: types)
  func messageBoundaries(_ type: Int32) {
    let (read, sender) = socketPair(type)
    defer { close(read); close(sender) }
    sendMessage(sender, "first\r\nsame message\n")
    sendMessage(sender, "no line feed")
    sendMessage(sender, "left")
    #expect(Obtained(.descriptor(read)) == .secret("first"))
    #expect(Obtained(.descriptor(read)) == .secret("no line feed"))
    var rest = [UInt8](repeating: 0, count: 16)
    let got = rest.withUnsafeMutableBytes { recv(read, $0.baseAddress, $0.count, 0) }
    #expect(Array(rest[..<max(0, got)]) == Array("left".utf8))
  }

  @Test("a message longer than the limit is too long, not cut to fit", arguments: types)
  func longMessage(_ type: Int32) {
    let (read, sender) = socketPair(type)
    defer { close(read); close(sender) }
    sendMessage(sender, String(repeating: "a", count: 8300))
    #expect(Obtained(.descriptor(read)) == .failed(.tooLong))
  }

  @Test("the control: a stream socket is still read a byte at a time, leaving what follows")
  func streamSocket() {
    let (read, sender) = socketPair(Int32(SOCK_STREAM.rawValue))
    defer { close(read); close(sender) }
    sendMessage(sender, "stream\nnext\n")
    #expect(Obtained(.descriptor(read)) == .secret("stream"))
    #expect(Obtained(.descriptor(read)) == .secret("next"))
  }

  @Test("standard input on a datagram socket: the whole line")
  func standardInputDatagram() async {
    await #expect(processExitsWith: .success) {
      let (read, sender) = socketPair(Int32(SOCK_DGRAM.rawValue))
      sendMessage(sender, "from stdin\n")
      dup2(read, 0)
      #expect(Obtained(.standardInput) == .secret("from stdin"))
    }
  }
}

@Suite("SecretSource under attack: a descriptor that can never be read")
struct SecretSourceWriteOnlyTests {
  @Test("the write end of a pipe is refused at once, naming its number")
  func writeEnd() {
    var ends: [Int32] = [-1, -1]
    precondition(pipe(&ends) == 0)
    defer { close(ends[0]); close(ends[1]) }
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.descriptor(ends[1]).obtain()
    }
    #expect(error?.code == .cannotOpen)
    #expect(error?.description.contains("file descriptor \(ends[1])") == true)
    #expect(error?.description.contains("writing only") == true, "\(String(describing: error))")
  }
}
