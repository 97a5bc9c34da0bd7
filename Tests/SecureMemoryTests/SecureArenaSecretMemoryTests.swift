import Glibc
@_spi(Testing) import SecureMemory
import TestSupport
import Testing

/// The inode of each `memfd_secret` file this process has mapped, from the
/// lines of `/proc/self/maps` that name `/secretmem`: one per file however
/// often it is split into mappings.
func secretMemoryFiles() throws -> Set<String> {
  var inodes = Set<String>()
  for line in try readText("/proc/self/maps").split(separator: "\n")
  where line.contains("/secretmem") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    if fields.count > 4 { inodes.insert(String(fields[4])) }
  }
  return inodes
}

/// How many descriptors this process has open, from `/proc/self/fd`.
func openDescriptorCount() -> Int {
  guard let directory = opendir("/proc/self/fd") else { return -1 }
  defer { closedir(directory) }
  var count = 0
  while let entry = readdir(directory) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { $0.first }
    if name != UInt8(ascii: ".") { count += 1 }
  }
  // The directory's own descriptor, open while it was read.
  return count - 1
}

/// `memfd_secret(2)` through `syscall(2)`, found with `dlsym` (Swift does not
/// import the variadic `syscall`): the test's own call, not the library's.
/// Returns the descriptor, or -1.
func rawSecretMemoryFile() -> Int32 {
  typealias Syscall = @convention(c) (Int, UInt32) -> Int32
  guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "syscall") else { return -1 }
  return unsafeBitCast(symbol, to: Syscall.self)(447, UInt32(O_CLOEXEC))  // x86_64
}

/// A slab in secret memory (`memfd_secret`), a guarded arena's first choice, each property
/// shown by its effect beside a sodium slab that must differ where the
/// backings differ.
@Suite("SecureArena in secret memory")
struct SecureArenaSecretMemoryTests {
  @Test(
    "a .strongestAvailable arena puts its slots in secret memory on this kernel, and says so; the default arena is sealed"
  )
  func strongestIsSecretMemory() throws {
    #expect(try SecureArena().storage == .sealed)
    let arena = try SecureArena(storage: .strongestAvailable)
    #expect(arena.storage == .strongestAvailable)
    let buffer = try SecureBuffer(capacity: 16, in: arena)
    let protection = buffer.protection
    #expect(protection.storage == .secretMemory, "\(protection)")
    #expect(protection.isHiddenFromKernel)
    #expect(protection.isComplete)
    #expect(protection.sharesPagesWithOtherSecrets)
    #expect(protection.secretMemoryFallback == nil)
    #expect(protection.description.hasPrefix("secret memory: locked"), "\(protection)")
    #expect(protection.description.contains("pages shared with other secrets"), "\(protection)")
    // Control: a sodium arena's slot is not hidden.
    let sodium = try SecureBuffer(capacity: 16, in: try SecureArena(storage: .sodium))
    let sodiumProtection = sodium.protection
    #expect(sodiumProtection.storage == .sodium)
    #expect(!sodiumProtection.isHiddenFromKernel)
  }

  @Test(
    "a /proc/self/mem read of a slot fails with EIO, its window open or not; the same read of a sodium slab's slot succeeds (control)"
  )
  func procMemCannotReadSlot() throws {
    let arena = try SecureArena(storage: .secretMemory)
    let secret = try arenaBuffer(Array("tenant token".utf8), in: arena)
    let neighbour = try arenaBuffer(Array("other token".utf8), in: arena)
    let start = address(of: secret)
    #expect(page(of: start) == page(of: address(of: neighbour)))
    #expect(procMemReadError(at: start) == EIO)
    let inWindow = secret.withUnsafeBytes { _ in procMemReadError(at: start) }
    #expect(inWindow == EIO, "the window opens the page to this process only")
    let neighbourInWindow = secret.withUnsafeBytes { _ in
      procMemReadError(at: address(of: neighbour))
    }
    #expect(neighbourInWindow == EIO)

    let sodium = try arenaBuffer(Array("tenant token".utf8), in: try SecureArena(storage: .sodium))
    #expect(procMemReadError(at: address(of: sodium)) == nil)
  }

  @Test(
    "a slab's pages are locked (lo), not dumped (dd), not copied on fork (dc), shared and no-access, one mapping a page, between guard pages; a window opens its page alone"
  )
  func slabPagesInSmaps() throws {
    let arena = try SecureArena(storage: .secretMemory)
    let buffer = try SecureBuffer(in: arena)
    let start = address(of: buffer)
    let map = try MemoryMap()
    let data = try #require(map.mapping(containing: start))
    #expect(data.flags.isSuperset(of: ["lo", "dd", "dc"]), "\(data)")
    #expect(data.permissions == "---s", "\(data)")
    #expect(data.range.count == pageSize, "\(data)")
    let slabStart = data.range.lowerBound
    let slabEnd = slabStart + UInt(SecureArena.slabSize)
    var pages: [Mapping] = []
    for page in stride(from: slabStart, to: slabEnd, by: pageSize) {
      pages.append(try #require(map.mapping(containing: page)))
    }
    #expect(pages.allSatisfy { $0.range.count == pageSize && $0.permissions == "---s" }, "\(pages)")
    #expect(pages.allSatisfy { $0.flags.isSuperset(of: ["lo", "dd", "dc"]) }, "\(pages)")
    let before = try #require(map.mapping(containing: slabStart - 1))
    let after = try #require(map.mapping(containing: slabEnd))
    #expect(before.isNoAccess && after.isNoAccess, "\(before) \(after)")
    #expect(before.flags.isDisjoint(with: ["lo"]) && after.flags.isDisjoint(with: ["lo"]))

    let inside = try buffer.withUnsafeBytes { _ in try MemoryMap() }
    let open = try #require(inside.mapping(containing: start))
    #expect(open.permissions == "r--s", "\(open)")
    #expect(open.range == page(of: start)..<page(of: start) + UInt(pageSize), "\(open)")
    let next = try #require(inside.mapping(containing: page(of: start) + UInt(pageSize)))
    #expect(next.isNoAccess, "\(next)")
    #expect(try MemoryMap().mapping(containing: start)?.isNoAccess == true)
  }

  @Test(
    "one memfd_secret file per slab, not per secret, and no descriptor kept open: /proc/self/fd does not grow"
  )
  func oneFilePerSlab() async {
    // In an exit-test child: parallel tests would map and open meanwhile.
    await #expect(processExitsWith: .success) {
      let arena = try! SecureArena(name: "files", storage: .secretMemory)
      _ = try! SecureBuffer(capacity: 8, storage: .secretMemory)  // the one-time probes
      let filesBefore = try! secretMemoryFiles()
      let descriptorsBefore = openDescriptorCount()
      var held: [HeldBuffer] = []
      // Three slabs of 32-byte slots and one of 256-byte slots.
      for _ in 0..<(2 * 1365 + 1) { held.append(HeldBuffer(try! SecureBuffer(in: arena))) }
      held.append(HeldBuffer(try! SecureBuffer(capacity: 200, in: arena)))
      let files = try! secretMemoryFiles().subtracting(filesBefore)
      let descriptors = openDescriptorCount()
      #expect(arena.slabCount == 4)
      #expect(files.count == 4, "\(files.count) secret-memory files for \(held.count) secrets")
      #expect(descriptors == descriptorsBefore, "\(descriptorsBefore) -> \(descriptors)")
      // Control: the count sees a descriptor that is open.
      let extra = open("/dev/null", O_RDONLY)
      #expect(openDescriptorCount() == descriptorsBefore + 1)
      close(extra)
      held.removeAll()
      // Each emptied slab's file is gone, but for one spare per size class.
      #expect(arena.slabCount == 2)
      #expect(try! secretMemoryFiles().subtracting(filesBefore).count == 2)
    }
  }

  @Test(
    "without memfd_secret the default arena falls back to sodium slabs and says why; a .secretMemory arena throws"
  )
  func fallsBackWithoutSecretMemory() async {
    await #expect(processExitsWith: .success) {
      SecureStorage.simulateSecretMemoryFailure(errno: ENOSYS)
      let arena = try! SecureArena(name: "fallback", storage: .strongestAvailable)
      var buffer = try! SecureBuffer(capacity: 32, in: arena)
      let protection = buffer.protection
      #expect(protection.storage == .sodium)
      #expect(protection.isComplete, "\(protection)")
      #expect(protection.secretMemoryFallback?.code == .secretMemoryUnavailable)
      #expect(protection.description.contains("no secret memory"), "\(protection)")
      try! buffer.reserveCapacity(5000)
      let grown = buffer.protection
      #expect(grown.storage == .sodium && !buffer.isInArena, "\(grown)")

      let strict = try! SecureArena(name: "strict", storage: .secretMemory)
      #expect {
        _ = try SecureBuffer(capacity: 32, in: strict)
      } throws: { error in
        (error as? SecureMemoryError)?.code == .secretMemoryUnavailable
      }
      #expect(strict.slabCount == 0)

      // Control: with the seam off, the same arena maps secret memory.
      SecureStorage.simulateSecretMemoryFailure(errno: 0)
      let again = try! SecureBuffer(capacity: 32, in: strict)
      #expect(again.protection.storage == .secretMemory)
      // A slot of the fallen-back slab that grows now: its new region says
      // the storage it is in, and no fallback reason that is no longer true.
      var late = try! SecureBuffer(capacity: 32, in: arena)
      #expect(late.protection.secretMemoryFallback != nil)
      try! late.reserveCapacity(5000)
      let lateGrown = late.protection
      #expect(
        (lateGrown.storage == .secretMemory) == (lateGrown.secretMemoryFallback == nil),
        "\(lateGrown)")
    }
  }

  @Test(
    "a forked child that touches a secret-memory slot dies by SIGSEGV (a sodium slot reads zeros, control); a child's new secrets get slabs of its own; the parent keeps its secrets"
  )
  // The hazard, by effect: the same kind of mapping without MADV_DONTFORK is
  // shared with the child, which reads the parent's bytes (the control).
  func forkedChild() async {
    await #expect(processExitsWith: .success) {
      let secret: [UInt8] = (0..<32).map { 0xA0 | UInt8($0 % 16) }
      let arena = try! SecureArena(name: "fork", storage: .secretMemory)
      let inSecretMemory = try! arenaBuffer(secret, in: arena)
      let inSodium = try! arenaBuffer(secret, in: try! SecureArena(storage: .sodium))
      func forkAndRun(_ body: () -> Int32) -> Int32 {
        let child = fork()
        if child == 0 { _exit(body()) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        return status
      }
      let control = forkAndRun {
        inSodium.withUnsafeBytes { $0.allSatisfy { $0 == 0 } } ? 0 : 2
      }
      let file = rawSecretMemoryFile()
      #expect(file >= 0 && ftruncate(file, off_t(pageSize)) == 0)
      let raw = mmap(nil, pageSize, PROT_READ | PROT_WRITE, MAP_SHARED, file, 0)!
      close(file)
      raw.storeBytes(of: 0xA5, as: UInt8.self)
      let shared = forkAndRun { raw.load(as: UInt8.self) == 0xA5 ? 0 : 4 }
      munmap(raw, pageSize)
      let touched = forkAndRun {
        inSecretMemory.withUnsafeBytes { Int32($0[0]) }
      }
      let ownSlab = forkAndRun {
        var fresh = try! SecureBuffer(capacity: 32, in: arena)
        try! fresh.append([1, 2, 3])
        let holds = fresh.withUnsafeBytes { Array($0) } == [1, 2, 3]
        let isOwn = page(of: address(of: fresh)) != page(of: address(of: inSecretMemory))
        _ = consume fresh
        return holds && isOwn ? 0 : 3
      }
      #expect(control == 0, "status \(control)")
      #expect(shared == 0, "without MADV_DONTFORK the child reads the parent's secret: \(shared)")
      #expect(touched & 0x7F == SIGSEGV, "status \(touched)")
      #expect(ownSlab == 0, "status \(ownSlab)")
      #expect(inSecretMemory.withUnsafeBytes { Array($0) } == secret)
      #expect(inSodium.withUnsafeBytes { Array($0) } == secret)
    }
  }
}
