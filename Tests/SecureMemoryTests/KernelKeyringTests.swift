import Glibc
import SecureMemory
import TestSupport
import Testing

/// A `SecureBuffer` holding `text`'s UTF-8 (test data only).
func secureBuffer(_ text: String) -> SecureBuffer {
  var buffer = try! SecureBuffer(capacity: text.utf8.count)
  Array(text.utf8).withUnsafeBytes { try! buffer.append($0) }
  return buffer
}

/// The bytes of `buffer`, copied out for comparing (test oracle only).
func contents(of buffer: borrowing SecureBuffer) -> [UInt8] {
  buffer.withUnsafeBytes { Array($0) }
}

/// True when `value` is nil.
func isAbsent<Value: ~Copyable>(_ value: consuming Value?) -> Bool {
  switch consume value {
  case .none: true
  case .some: false
  }
}

/// Each passphrase of `entries` as text (test oracle only).
func texts(of entries: borrowing KeyringEntries) -> [String] {
  (0..<entries.count).map { index in
    entries.withEntry(at: index) { String(decoding: $0, as: UTF8.self) }
  }
}

/// A payload another program stored, and the list systemd's
/// `strv_parse_nulstr` makes of it.
struct StoredList: CustomTestStringConvertible, Sendable {
  let name: String
  let payload: [UInt8]
  let entries: [String]
  var testDescription: String { name }

  static let all = [
    StoredList(name: "one passphrase", payload: Array("alpha".utf8), entries: ["alpha"]),
    StoredList(
      name: "two, NUL-joined", payload: Array("alpha\0beta".utf8), entries: ["alpha", "beta"]),
    StoredList(
      name: "a trailing NUL ends the last", payload: Array("alpha\0".utf8), entries: ["alpha"]),
    StoredList(
      name: "an empty one between two NULs is kept", payload: Array("alpha\0\0beta".utf8),
      entries: ["alpha", "", "beta"]),
    StoredList(name: "a lone NUL is one empty passphrase", payload: [0], entries: [""]),
  ]
}

@Suite(
  "KernelKeyring caches passphrases as systemd-ask-password does",
  .enabled(if: KeyringOracle.isAvailable, "needs keyutils' keyctl and a user keyring"))
struct KernelKeyringTests {
  let keyring = KernelKeyring()

  @Test("a stored passphrase is a key of type user in the user keyring, read back as it was")
  func storeAndRead() throws {
    let name = KeyringOracle.uniqueName("store")
    defer { KeyringOracle.remove(name) }
    let secret = secureBuffer("correct horse")
    try keyring.store(secret, name: name, timeout: .seconds(60))

    #expect(KeyringOracle.payload(name) == Array("correct horse".utf8))
    guard let read = try keyring.read(name: name) else {
      Issue.record("nothing read back")
      return
    }
    let equal = read.constantTimeEquals(secret)
    #expect(equal)
    #expect(read.protection.isLocked)
  }

  @Test("the key's permissions: possessor and user view, read, write, search, setattr; others none")
  func permissions() throws {
    let name = KeyringOracle.uniqueName("perm")
    defer { KeyringOracle.remove(name) }
    try keyring.store(secureBuffer("p"), name: name, timeout: .seconds(60))
    let mask = try #require(KeyringOracle.permissions(name))
    #expect(mask == KernelKeyring.permissions)
    #expect(mask & 0x0000_ffff == 0, "nothing for the group or others: \(String(mask, radix: 16))")
    #expect(mask & 0x1010_0000 == 0, "no link")
  }

  @Test(
    "a passphrase added to a key another program made keeps that key's permissions (the kernel's default, 3f010000)"
  )
  func keepsAnotherProgramsPermissions() throws {
    let name = KeyringOracle.uniqueName("theirs")
    defer { KeyringOracle.remove(name) }
    // keyctl padd, as systemd-ask-password's add_key: the kernel's default mask.
    try #require(KeyringOracle.add(name, payload: Array("theirs".utf8)) != nil)
    let before = try #require(KeyringOracle.permissions(name))
    #expect(before == 0x3f01_0000)
    try keyring.store(secureBuffer("ours"), name: name, timeout: .seconds(60))
    #expect(KeyringOracle.payload(name) == Array("theirs\0ours".utf8))
    #expect(KeyringOracle.permissions(name) == before)
  }

  @Test("a second passphrase is added after the first, not put in its place")
  func appends() throws {
    let name = KeyringOracle.uniqueName("append")
    defer { KeyringOracle.remove(name) }
    try keyring.store(secureBuffer("first"), name: name, timeout: .seconds(60))
    try keyring.store(secureBuffer("second"), name: name, timeout: .seconds(60))

    #expect(KeyringOracle.payload(name) == Array("first\0second".utf8))
    guard let all = try keyring.readAll(name: name), let first = try keyring.read(name: name)
    else {
      Issue.record("nothing read back")
      return
    }
    #expect(texts(of: all) == ["first", "second"])
    #expect(contents(of: first) == Array("first".utf8))
  }

  @Test(
    "read and readAll put the passphrase in the storage asked for, secret memory hidden from the kernel; the default is sealed"
  )
  func readsIntoStorage() throws {
    let name = KeyringOracle.uniqueName("storage")
    defer { KeyringOracle.remove(name) }
    try keyring.store(secureBuffer("first"), name: name, timeout: .seconds(60))
    try keyring.store(secureBuffer("second"), name: name, timeout: .seconds(60))
    guard let secret = try keyring.read(name: name, storage: .secretMemory),
      let all = try keyring.readAll(name: name, storage: .secretMemory),
      let plain = try keyring.read(name: name, storage: .sodium),
      let byDefault = try keyring.read(name: name)
    else {
      Issue.record("nothing read back")
      return
    }
    #expect(contents(of: secret) == Array("first".utf8))
    #expect(secret.protection.storage == .secretMemory)
    #expect(procMemReadError(at: BufferPages(secret).dataStart) == EIO)
    #expect(texts(of: all) == ["first", "second"])
    let copy = try all.copyEntry(at: 1)
    #expect(copy.protection.storage == .secretMemory, "a copy stays in the entries' memory")
    #expect(byDefault.protection.storage == .sealed)
    #expect(contents(of: byDefault) == Array("first".utf8))
    // Control: read into sodium memory, the same key is where /proc/self/mem
    // reads it.
    #expect(plain.protection.storage == .sodium)
    #expect(procMemReadError(at: BufferPages(plain).dataStart) == nil)
  }

  @Test("a passphrase already cached is not added again")
  func noDuplicate() throws {
    let name = KeyringOracle.uniqueName("dup")
    defer { KeyringOracle.remove(name) }
    try keyring.store(secureBuffer("first"), name: name, timeout: .seconds(60))
    try keyring.store(secureBuffer("second"), name: name, timeout: .seconds(60))
    try keyring.store(secureBuffer("first"), name: name, timeout: .seconds(60))
    #expect(KeyringOracle.payload(name) == Array("first\0second".utf8))
  }

  @Test("a list another program stored is read as systemd reads it", arguments: StoredList.all)
  func readsForeignList(_ list: StoredList) throws {
    let name = KeyringOracle.uniqueName("foreign")
    defer { KeyringOracle.remove(name) }
    try #require(KeyringOracle.add(name, payload: list.payload) != nil)
    guard let all = try keyring.readAll(name: name), let first = try keyring.read(name: name)
    else {
      Issue.record("nothing read back")
      return
    }
    #expect(texts(of: all) == list.entries)
    #expect(contents(of: first) == Array(list.entries[0].utf8))
  }

  @Test("appending to a list another program stored, with its trailing NUL, keeps every entry")
  func appendsToForeignList() throws {
    let name = KeyringOracle.uniqueName("foreign-append")
    defer { KeyringOracle.remove(name) }
    try #require(KeyringOracle.add(name, payload: Array("alpha\0".utf8)) != nil)
    try keyring.store(secureBuffer("beta"), name: name, timeout: .seconds(60))
    #expect(KeyringOracle.payload(name) == Array("alpha\0beta".utf8))
    // The other program's key, its mask as that program left it.
    #expect(KeyringOracle.permissions(name) == 0x3f01_0000)
  }

  @Test("nothing cached: read and readAll give nil, remove says there was nothing")
  func absent() throws {
    let name = KeyringOracle.uniqueName("absent")
    #expect(try isAbsent(keyring.read(name: name)))
    #expect(try isAbsent(keyring.readAll(name: name)))
    #expect(try keyring.remove(name: name) == false)
    #expect(try !keyring.contains(name: name))
  }

  @Test("remove takes the key out of the keyring")
  func remove() throws {
    let name = KeyringOracle.uniqueName("remove")
    defer { KeyringOracle.remove(name) }
    try keyring.store(secureBuffer("gone soon"), name: name, timeout: .seconds(60))
    #expect(KeyringOracle.serial(name) != nil)
    #expect(try keyring.contains(name: name))
    #expect(try keyring.remove(name: name))
    #expect(KeyringOracle.serial(name) == nil)
    #expect(try isAbsent(keyring.read(name: name)))
    #expect(try !keyring.contains(name: name))
  }

  @Test("the timeout: a key stored for 1 s is gone after it, and read gives nil")
  func timeout() throws {
    let name = KeyringOracle.uniqueName("timeout")
    defer { KeyringOracle.remove(name) }
    try keyring.store(secureBuffer("brief"), name: name, timeout: .seconds(1))
    // A key stored without a timeout would still be there at the bound.
    #expect(KeyringOracle.waitUntilGone(name, bound: .seconds(60)))
    #expect(try isAbsent(keyring.read(name: name)))
  }

  @Test("control: a key with no timeout outlives the bound the timeout test waits for")
  func timeoutControl() throws {
    let name = KeyringOracle.uniqueName("no-timeout")
    defer { KeyringOracle.remove(name) }
    let serial = try #require(KeyringOracle.add(name, payload: Array("stays".utf8)))
    _ = KeyringOracle.run(["timeout", String(serial), "0"])
    #expect(!KeyringOracle.waitUntilGone(name, bound: .seconds(2)))
  }

  @Test("another user cannot read the key; control: with read for others, it can")
  func otherUserCannotRead() throws {
    try #require(getuid() == 0, "needs root to run a process as nobody")
    let name = KeyringOracle.uniqueName("other")
    defer { KeyringOracle.remove(name) }
    try keyring.store(secureBuffer("not for nobody"), name: name, timeout: .seconds(60))
    try KeyringOracle.expectOtherUserCannotRead(name, payload: Array("not for nobody".utf8))
  }
}

@Suite(
  "KernelKeyring's errors name a cause the user can act on",
  .enabled(if: KeyringOracle.isAvailable, "needs keyutils' keyctl and a user keyring"))
struct KernelKeyringErrorTests {
  let keyring = KernelKeyring()

  @Test("a passphrase over the kernel's 32,767 bytes is refused, and nothing is stored")
  func tooLarge() throws {
    let name = KeyringOracle.uniqueName("large")
    defer { KeyringOracle.remove(name) }
    let large = secureBuffer(String(repeating: "x", count: KernelKeyring.payloadLimit + 1))
    #expect {
      try keyring.store(large, name: name, timeout: .seconds(60))
    } throws: { error in
      let error = error as! KeyringError
      return error.code == .payloadTooLarge && error.description.contains("32767")
    }
    #expect(KeyringOracle.serial(name) == nil)
  }

  @Test("a passphrase that would take the list over the limit leaves the list as it was")
  func appendTooLarge() throws {
    let name = KeyringOracle.uniqueName("large-append")
    defer { KeyringOracle.remove(name) }
    let half = String(repeating: "y", count: 20_000)
    try keyring.store(secureBuffer(half), name: name, timeout: .seconds(60))
    #expect(throws: KeyringError.self) {
      try keyring.store(secureBuffer(half + "z"), name: name, timeout: .seconds(60))
    }
    #expect(KeyringOracle.payload(name) == Array(half.utf8))
  }

  @Test("an empty passphrase, one with a NUL byte, a name that cannot be a key: refused")
  func invalid() throws {
    let name = KeyringOracle.uniqueName("invalid")
    defer { KeyringOracle.remove(name) }
    for (secret, code) in [
      ("", KeyringError.Code.invalidSecret), ("a\0b", .invalidSecret),
    ] {
      #expect {
        try keyring.store(secureBuffer(secret), name: name, timeout: .seconds(60))
      } throws: { ($0 as! KeyringError).code == code }
    }
    for badName in ["", "a\0b", String(repeating: "n", count: 4096)] {
      #expect {
        try keyring.store(secureBuffer("p"), name: badName, timeout: .seconds(60))
      } throws: { ($0 as! KeyringError).code == .invalidName }
    }
    #expect(KeyringOracle.serial(name) == nil)
  }

  @Test(
    "a keyring a seccomp filter makes unreachable: every call says so, with the errno",
    arguments: [EPERM, ENOSYS])
  func unreachable(_ errorNumber: Int32) async {
    await #expect(processExitsWith: .success) { [errorNumber] in
      let name = KeyringOracle.uniqueName("blocked")
      precondition(KeyringBlock.install(failingWith: errorNumber), "seccomp filter refused")
      let keyring = KernelKeyring()
      func check(_ body: () throws(KeyringError) -> Void) {
        do throws(KeyringError) {
          try body()
          Issue.record("no error")
        } catch {
          #expect(error.code == .unreachable)
          #expect(error.errno == errorNumber)
          #expect(error.description.contains("cannot be reached"), "\(error)")
        }
      }
      check { () throws(KeyringError) in
        try keyring.store(secureBuffer("p"), name: name, timeout: .seconds(5))
      }
      check { () throws(KeyringError) in _ = try keyring.read(name: name) }
      check { () throws(KeyringError) in _ = try keyring.readAll(name: name) }
      check { () throws(KeyringError) in try keyring.remove(name: name) }
      check { () throws(KeyringError) in _ = try keyring.contains(name: name) }
    }
  }

  @Test("control: without the filter the same child reaches the keyring")
  func unreachableControl() async {
    await #expect(processExitsWith: .success) {
      let name = KeyringOracle.uniqueName("unblocked")
      defer { KeyringOracle.remove(name) }
      let keyring = KernelKeyring()
      try! keyring.store(secureBuffer("p"), name: name, timeout: .seconds(5))
      #expect(!isAbsent(try! keyring.read(name: name)))
    }
  }

  @Test("the quota of an ordinary user (maxbytes): quotaExceeded, naming the limit and its file")
  func quota() async throws {
    try #require(getuid() == 0, "needs root to become nobody")
    let maxBytes: Int = try #require(
      Int(try readText("/proc/sys/kernel/keys/maxbytes").filter(\.isNumber)))
    try #require(maxBytes < KernelKeyring.payloadLimit - 100, "maxbytes is above the payload limit")
    await #expect(processExitsWith: .success) { [maxBytes = maxBytes as Int] in
      precondition(dropToNobody(), "could not drop to nobody")
      let name = KeyringOracle.uniqueName("quota")
      let keyring = KernelKeyring()
      let secret = secureBuffer(String(repeating: "q", count: maxBytes + 50))
      do throws(KeyringError) {
        try keyring.store(secret, name: name, timeout: .seconds(5))
        _ = try? keyring.remove(name: name)
        Issue.record("stored over the quota")
      } catch {
        #expect(error.code == .quotaExceeded)
        #expect(error.errno == EDQUOT)
        #expect(error.description.contains("\(maxBytes) bytes"), "\(error)")
        #expect(error.description.contains("/proc/sys/kernel/keys/maxkeys"), "\(error)")
      }
    }
  }
}
