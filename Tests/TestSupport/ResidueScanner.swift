import Glibc

/// Counts the copies of a ``Marker`` in every mapping of a process, through
/// `/proc/PID/maps` and `/proc/PID/mem`.
///
/// Reads no-access pages too (the kernel reads them for `/proc/PID/mem`), so a
/// secret in a closed `SecureBuffer` counts. Skips what the kernel refuses
/// (`[vvar]`, device mappings) and the scanner's own read buffer, which it wipes.
public struct ResidueScanner {
  /// The process whose memory is scanned.
  public let processID: Int32

  /// A scanner of the process `processID`, or of this process.
  public init(processID: Int32? = nil) {
    self.processID = processID ?? getpid()
  }

  /// The mappings that were read and those the kernel refused, for diagnostics.
  public struct Report: Sendable, CustomStringConvertible {
    /// How many times the marker's plain bytes were found.
    public var copies = 0
    /// How many bytes of mappings were read.
    public var bytesRead = 0
    /// Where each copy was: the mapping's name, start and offset.
    public var places: [String] = []
    /// The mappings the kernel would not let us read.
    public var refused: [String] = []

    /// The counts and places, for a failing expectation's message.
    public var description: String {
      "\(copies) copies in \(bytesRead) bytes read; found in \(places); refused \(refused.count) mappings"
    }
  }

  /// Scans every mapping and counts where the marker's plain bytes occur.
  public func scan(for marker: Marker) throws -> Report {
    let maps = try readText("/proc/\(processID)/maps")
    let memory = open("/proc/\(processID)/mem", O_RDONLY)
    guard memory >= 0 else { throw ScanError(what: "open /proc/\(processID)/mem", errno: errno) }
    defer { close(memory) }

    let chunkSize = 1 << 20
    guard
      let chunk = mmap(nil, chunkSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      chunk != MAP_FAILED
    else { throw ScanError(what: "mmap", errno: errno) }
    defer {
      memset(chunk, 0, chunkSize)
      munmap(chunk, chunkSize)
    }
    let own = UInt(bitPattern: chunk)..<(UInt(bitPattern: chunk) + UInt(chunkSize))

    var report = Report()
    for line in maps.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      let bounds = fields[0].split(separator: "-")
      guard let low = UInt(bounds[0], radix: 16), let high = UInt(bounds[1], radix: 16) else {
        continue
      }
      let name = fields.count > 5 ? String(fields[5]) : "[anonymous \(fields[1])]"
      for range in subtract(own, from: low..<high) {
        scanRange(
          range, name: name, memory: memory, chunk: chunk, chunkSize: chunkSize, marker: marker,
          report: &report)
      }
    }
    return report
  }

  private func scanRange(
    _ range: Range<UInt>, name: String, memory: Int32, chunk: UnsafeMutableRawPointer,
    chunkSize: Int,
    marker: Marker, report: inout Report
  ) {
    // Overlap consecutive reads by count - 1 bytes so a marker across a chunk
    // boundary is still found once.
    var address = range.lowerBound
    while address < range.upperBound {
      let want = Int(min(UInt(chunkSize), range.upperBound - address))
      let got = pread(memory, chunk, want, off_t(Int64(bitPattern: UInt64(address))))
      if got <= 0 {
        report.refused.append(name)
        return
      }
      report.bytesRead += got
      for offset in hits(of: marker, in: chunk, length: got) {
        report.copies += 1
        report.places.append(
          "\(name) 0x\(String(range.lowerBound, radix: 16))+0x\(String(address - range.lowerBound + UInt(offset), radix: 16))"
        )
      }
      if got < marker.count || address + UInt(got) >= range.upperBound { break }
      address += UInt(got - (marker.count - 1))
    }
  }

  private func hits(of marker: Marker, in chunk: UnsafeMutableRawPointer, length: Int) -> [Int] {
    var found: [Int] = []
    let first = Int32(marker.masked[0] ^ marker.key[0])
    var offset = 0
    while offset + marker.count <= length {
      guard let hit = memchr(chunk + offset, first, length - offset - marker.count + 1) else {
        break
      }
      let position = chunk.distance(to: hit)
      if marker.matches(chunk, at: position) { found.append(position) }
      offset = position + 1
    }
    return found
  }

  private func subtract(_ hole: Range<UInt>, from range: Range<UInt>) -> [Range<UInt>] {
    guard hole.overlaps(range) else { return [range] }
    var parts: [Range<UInt>] = []
    if range.lowerBound < hole.lowerBound { parts.append(range.lowerBound..<hole.lowerBound) }
    if hole.upperBound < range.upperBound { parts.append(hole.upperBound..<range.upperBound) }
    return parts
  }
}

/// A system call the scan needed failed.
public struct ScanError: Error, CustomStringConvertible {
  /// The call that failed, with its argument.
  public let what: String
  /// The errno it reported.
  public let errno: Int32
  /// The call and the error, as strerror words it.
  public var description: String { "\(what): \(String(cString: strerror(errno)))" }
}

/// Reads a whole text file such as `/proc/self/maps` with `read(2)`.
public func readText(_ path: String) throws -> String {
  let descriptor = open(path, O_RDONLY)
  guard descriptor >= 0 else { throw ScanError(what: "open \(path)", errno: errno) }
  defer { close(descriptor) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65536)
  while true {
    let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if got < 0 { throw ScanError(what: "read \(path)", errno: errno) }
    if got == 0 { break }
    bytes += buffer[0..<got]
  }
  return String(decoding: bytes, as: UTF8.self)
}
