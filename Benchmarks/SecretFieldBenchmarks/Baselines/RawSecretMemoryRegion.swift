import CSodium
import CSystemShims
import Glibc

/// A `memfd_secret` page between two guard pages, driven by hand: the floor of
/// a secret-memory `SecureBuffer`, as a careful C program would make it.
///
/// `memfd_secret`, `ftruncate`, a `PROT_NONE` reservation, the file mapped
/// over its middle with `MAP_FIXED`, `close`, one store (the first touch, where
/// the kernel takes the page out of its direct map), then one `munmap` (which
/// puts it back). No verification, no wipe.
enum RawSecretMemoryRegion {
  static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// Makes, touches and unmaps one region.
  @inline(__always)
  static func allocateTouchAndFree() {
    let descriptor = secretfield_memfd_secret(UInt32(O_CLOEXEC))
    guard descriptor >= 0, ftruncate(descriptor, off_t(pageSize)) == 0,
      let reservation = mmap(
        nil, 3 * pageSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
      reservation != MAP_FAILED
    else { fatalError("memfd_secret region failed: \(errno)") }
    let page = reservation + pageSize
    guard
      mmap(page, pageSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, descriptor, 0) == page
    else { fatalError("mmap of memfd_secret failed: \(errno)") }
    close(descriptor)
    page.storeBytes(of: 0x5A, as: UInt8.self)
    blackhole(Int(page.load(as: UInt8.self)))
    munmap(reservation, 3 * pageSize)
  }
}
