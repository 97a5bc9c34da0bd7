import CSodium
import CSystemShims
import Glibc

/// A `sodium_malloc` allocation driven by hand, with no Swift bookkeeping: the
/// floor each `SecureBuffer` figure is compared with.
///
/// It calls libsodium and the kernel exactly as a careful C program would, and
/// checks nothing it does not have to. Every result is fed to ``blackhole(_:)``
/// so no call can be dropped.
struct RawSodiumRegion {
  /// The user pointer `sodium_malloc` returned.
  let start: UnsafeMutableRawPointer
  /// The size asked of `sodium_malloc`.
  let size: Int

  /// The canary `sodium_malloc` puts right before the user bytes.
  static let canaryCount = 16
  static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// Allocates with `sodium_malloc(size)` and fills the bytes with `memset`, as a
  /// C caller initialising its secret would. The pages are left read-write, as
  /// `sodium_malloc` leaves them.
  ///
  /// - Precondition: `sodium_init` has run (any `SecureBuffer` runs it) and
  ///   memory is available.
  @inline(__always)
  init(size: Int, fill: Int32 = 0) {
    guard let start = sodium_malloc(size) else { fatalError("sodium_malloc(\(size)) failed") }
    memset(start, fill, size)
    self.start = start
    self.size = size
  }

  /// Allocates with `sodium_malloc(bytes.count)` and copies `bytes` in with
  /// `memcpy`, as a C program storing a pasted secret would. The pages are left
  /// read-write.
  @inline(__always)
  init(copying bytes: UnsafeRawBufferPointer) {
    guard let start = sodium_malloc(bytes.count) else {
      fatalError("sodium_malloc(\(bytes.count)) failed")
    }
    memcpy(start, bytes.baseAddress!, bytes.count)
    self.start = start
    self.size = bytes.count
  }

  /// The page-aligned start of the data pages (canary and user bytes).
  var dataPages: UnsafeMutableRawPointer {
    let canary = UInt(bitPattern: start - Self.canaryCount)
    return UnsafeMutableRawPointer(bitPattern: canary & ~UInt(Self.pageSize - 1))!
  }

  /// The length of the data pages.
  var dataPagesCount: Int {
    let end = UInt(bitPattern: start + size)
    return Int(end - UInt(bitPattern: dataPages))
  }

  /// Re-applies every protection `sodium_malloc` applies or leaves out, with the
  /// same system calls `SecureBuffer` makes to verify them, and leaves the data
  /// no-access: `mlock`, `mprotect(PROT_NONE)` on both guard pages,
  /// `madvise(MADV_DONTDUMP)`, `madvise(MADV_WIPEONFORK)`,
  /// `sodium_mprotect_noaccess`. Six system calls.
  @inline(__always)
  func applyVerificationCalls() {
    let pages = dataPages
    let count = dataPagesCount
    var failures = 0
    failures += Int(mlock(pages, count) != 0 ? 1 : 0)
    failures += Int(mprotect(pages - Self.pageSize, Self.pageSize, PROT_NONE) != 0 ? 1 : 0)
    failures += Int(mprotect(pages + count, Self.pageSize, PROT_NONE) != 0 ? 1 : 0)
    failures += Int(madvise(pages, count, MADV_DONTDUMP) != 0 ? 1 : 0)
    failures += Int(madvise(pages, count, MADV_WIPEONFORK) != 0 ? 1 : 0)
    failures += Int(sodium_mprotect_noaccess(start) != 0 ? 1 : 0)
    blackhole(failures)
  }

  /// `sodium_mprotect_readonly`: opens a read window.
  @inline(__always)
  func protectReadOnly() { blackhole(Int(sodium_mprotect_readonly(start))) }

  /// `sodium_mprotect_readwrite`: opens a write window.
  @inline(__always)
  func protectReadWrite() { blackhole(Int(sodium_mprotect_readwrite(start))) }

  /// `sodium_mprotect_noaccess`: closes a window.
  @inline(__always)
  func protectNoAccess() { blackhole(Int(sodium_mprotect_noaccess(start))) }

  /// The floor of one protected edit: `sodium_mprotect_readwrite`, a one-byte
  /// store at `offset`, `sodium_mprotect_noaccess`.
  @inline(__always)
  func storeInWriteWindow(_ byte: UInt8, at offset: Int) {
    protectReadWrite()
    start.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
    protectNoAccess()
  }

  /// The floor of one protected insert or deletion in the middle, inside one
  /// `sodium_mprotect_readwrite` / `sodium_mprotect_noaccess` pair: with a
  /// `byte`, `memmove` the `tailCount` bytes at `offset` one byte right and
  /// store `byte` at `offset`; without, move the tail after `offset` one byte
  /// left and zero the byte freed at its end.
  @inline(__always)
  func moveTailInWriteWindow(at offset: Int, tailCount: Int, inserting byte: UInt8?) {
    protectReadWrite()
    if let byte {
      memmove(start + offset + 1, start + offset, tailCount)
      start.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
    } else {
      memmove(start + offset, start + offset + 1, tailCount)
      start.storeBytes(of: 0, toByteOffset: offset + tailCount, as: UInt8.self)
    }
    protectNoAccess()
  }

  /// `sodium_free`: checks the canary, wipes, unlocks and unmaps.
  @inline(__always)
  consuming func free() { sodium_free(start) }
}
