import Glibc
import SecretSources
import SecureMemory
import TestSupport
import Testing

/// What `sysctl fs.protected_symlinks` says, or nil when it cannot be read.
private func protectedSymlinks() -> String? {
  guard let bytes = try? readWholeFile("/proc/sys/fs/protected_symlinks") else { return nil }
  return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init)
}

/// The bytes of the file at `path`.
private func readWholeFile(_ path: String) throws -> [UInt8] {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { throw FixtureError("open \(path): \(errno)") }
  defer { close(descriptor) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 512)
  while true {
    let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if got <= 0 { return bytes }
    bytes += chunk[..<got]
  }
}

@Suite("SecretSource: files in /proc")
struct SecretSourceProcessFileTests {
  @Test(
    "a /proc file is refused as a password file, however it is named",
    arguments: ["/proc/self/environ", "/proc/self/cmdline", "/proc/version"])
  func processFile(_ path: String) throws {
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.file(path: path).obtain()
    }
    #expect(error?.code == .processFile)
    #expect(error?.description.contains(path) == true, "\(String(describing: error))")
  }

  @Test("a descriptor on /proc/self/environ named as /dev/fd/N is refused too")
  func processFileThroughDescriptorLink() throws {
    let descriptor = open("/proc/self/environ", O_RDONLY | O_CLOEXEC)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    #expect(Obtained(.file(path: "/dev/fd/\(descriptor)")) == .failed(.processFile))
  }

  @Test("the control: a pipe named as /dev/fd/N, a link the kernel makes in /proc, is read")
  func pipeThroughDescriptorLink() throws {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    defer { close(ends[0]) }
    _ = Array("piped pw\n".utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    close(ends[1])
    #expect(Obtained(.file(path: "/dev/fd/\(ends[0])")) == .secret("piped pw"))
  }
}

@Suite(
  "SecretSource: a link in a sticky folder anyone can write",
  .enabled(if: getuid() == 0, "needs root to make a link another user owns"))
struct SecretSourceStickyLinkTests {
  /// A folder like /tmp (mode 1777, root's) in a private temporary directory,
  /// with the secret file (root's, 600) beside it.
  final class StickyFolder {
    let directory: SourceDirectory
    let sticky: String
    let target: String

    init() throws {
      directory = try SourceDirectory()
      sticky = directory.path + "/sticky"
      guard mkdir(sticky, 0o700) == 0, chmod(sticky, 0o1777) == 0 else {
        throw FixtureError("mkdir \(sticky): \(errno)")
      }
      target = try directory.file("secret", Array("root's pw\n".utf8))
    }

    /// A link `name` in the sticky folder to the secret file, owned by `owner`
    /// (`lchown`).
    func link(_ name: String, owner: UInt32) throws -> String {
      let path = sticky + "/" + name
      guard symlink(target, path) == 0, lchown(path, owner, owner) == 0 else {
        throw FixtureError("symlink \(path): \(errno)")
      }
      return path
    }
  }

  @Test("another user's link there is refused, whatever fs.protected_symlinks says")
  func anotherUsersLink() throws {
    let folder = try StickyFolder()
    let link = try folder.link("theirs", owner: nobodyID)
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.file(path: link).obtain()
    }
    #expect(error?.code == .unsafeLink, "fs.protected_symlinks = \(protectedSymlinks() ?? "?")")
    #expect(error?.description.contains("user \(nobodyID)") == true, "\(String(describing: error))")
    #expect(error?.description.contains(link) == true)
  }

  @Test("so is a path that goes on through it, and one that reaches it by a link of one's own")
  func linkMetOnTheWay() throws {
    let folder = try StickyFolder()
    let theirs = folder.sticky + "/dir"
    try #require(symlink(folder.directory.path, theirs) == 0)
    try #require(lchown(theirs, nobodyID, nobodyID) == 0)
    #expect(Obtained(.file(path: theirs + "/secret")) == .failed(.unsafeLink))
    let mine = folder.directory.path + "/mine"
    try #require(symlink(theirs + "/secret", mine) == 0)
    #expect(Obtained(.file(path: mine)) == .failed(.unsafeLink))
  }

  @Test(
    "the controls: one's own link, a link of the folder's owner, another user's link in a folder that is not sticky"
  )
  func controls() throws {
    let folder = try StickyFolder()
    #expect(Obtained(.file(path: try folder.link("mine", owner: 0))) == .secret("root's pw"))
    // The folder given to nobody: nobody's link there is the owner's.
    let owned = try StickyFolder()
    try #require(chown(owned.sticky, nobodyID, nobodyID) == 0)
    #expect(
      Obtained(.file(path: try owned.link("owners", owner: nobodyID))) == .secret("root's pw"))
    // Not sticky: anyone can write there anyway, and the kernel's rule is
    // about sticky folders only.
    let plain = try StickyFolder()
    try #require(chmod(plain.sticky, 0o777) == 0)
    #expect(
      Obtained(.file(path: try plain.link("theirs", owner: nobodyID))) == .secret("root's pw"))
  }

  @Test(
    "the kernel's own view: with fs.protected_symlinks 0 the link is followed, so the refusal is ours"
  )
  func kernelFollows() throws {
    guard protectedSymlinks() == "0" else { return }
    let folder = try StickyFolder()
    let link = try folder.link("theirs", owner: nobodyID)
    #expect(try readWholeFile(link) == Array("root's pw\n".utf8))
  }
}
