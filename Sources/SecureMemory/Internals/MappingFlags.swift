import Glibc

/// The `VmFlags` of one mapping, as `/proc/self/smaps` lists them: two-letter
/// codes such as `lo` (locked), `dd` (left out of core dumps) and `dc` (not
/// copied on fork).
///
/// Read by scanning the file's bytes a line at a time; no line becomes a
/// `String`. Splitting the whole file into strings cost about 3 ms, most of a
/// prompt's start (`perf`), where the kernel's own walk of the mappings costs a
/// few hundred microseconds.
struct MappingFlags {
  /// Each code's two ASCII letters, the first in the high byte.
  private let codes: [UInt16]

  /// Whether the mapping carries `code`, a two-letter flag such as `"lo"`.
  func contains(_ code: StaticString) -> Bool {
    precondition(code.utf8CodeUnitCount == 2, "a VmFlags code has two letters")
    let letters = code.utf8Start
    return codes.contains(UInt16(letters[0]) << 8 | UInt16(letters[1]))
  }

  /// The flags of the mapping that holds `address`, or nil when
  /// `/proc/self/smaps` cannot be read or lists no mapping holding it.
  ///
  /// Reads the file (`open`, `read`) only up to that mapping's `VmFlags` line.
  static func ofMapping(containing address: UnsafeRawPointer) -> MappingFlags? {
    let descriptor = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var scanner = Scanner(target: UInt(bitPattern: address))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got < 0 && errno == EINTR { continue }
      if got <= 0 { return nil }
      if let flags = chunk.withUnsafeBytes({ scanner.scan($0[..<got]) }) { return flags }
    }
  }

  /// Follows smaps text as it is read: which mapping each line belongs to, and
  /// that mapping's `VmFlags` line when it is the one that holds the target.
  private struct Scanner {
    let target: UInt
    /// Whether the last mapping header's range holds the target.
    var isInsideTarget = false
    /// The bytes of a line that the last read cut off.
    var pending: [UInt8] = []

    init(target: UInt) {
      self.target = target
      pending.reserveCapacity(512)
    }

    /// Scans the lines `bytes` completes; the target's flags once its
    /// `VmFlags` line is complete.
    mutating func scan(_ bytes: Slice<UnsafeRawBufferPointer>) -> MappingFlags? {
      var lineStart = bytes.startIndex
      for index in bytes.indices where bytes[index] == 0x0A {
        let flags: MappingFlags?
        if pending.isEmpty {
          flags = line(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<index]))
        } else {
          pending.append(contentsOf: bytes[lineStart..<index])
          flags = pending.withUnsafeBytes { line($0) }
          pending.removeAll(keepingCapacity: true)
        }
        if let flags { return flags }
        lineStart = index + 1
      }
      pending.append(contentsOf: bytes[lineStart...])
      return nil
    }

    /// One line: a mapping's header (`start-end perms offset dev inode path`,
    /// lowercase hex) or one of its fields (`Name:   value`).
    private mutating func line(_ text: UnsafeRawBufferPointer) -> MappingFlags? {
      let firstSpace = text.firstIndex(of: 0x20) ?? text.endIndex
      guard firstSpace > 0 else { return nil }
      if text[firstSpace - 1] != UInt8(ascii: ":") {
        if let bounds = Self.bounds(text[..<firstSpace]) {
          isInsideTarget = bounds.contains(target)
        }
        return nil
      }
      guard isInsideTarget, text[..<firstSpace].elementsEqual("VmFlags:".utf8) else { return nil }
      var codes: [UInt16] = []
      var index = firstSpace
      while index < text.endIndex {
        if text[index] == 0x20 {
          index += 1
          continue
        }
        let end = text[index...].firstIndex(of: 0x20) ?? text.endIndex
        if end - index == 2 { codes.append(UInt16(text[index]) << 8 | UInt16(text[index + 1])) }
        index = end
      }
      return MappingFlags(codes: codes)
    }

    /// The range `start-end` of a header's first field, both in hex.
    private static func bounds(_ field: Slice<UnsafeRawBufferPointer>) -> Range<UInt>? {
      guard let dash = field.firstIndex(of: UInt8(ascii: "-")),
        let low = hex(field[..<dash]), let high = hex(field[(dash + 1)...]), low <= high
      else { return nil }
      return low..<high
    }

    private static func hex(_ digits: Slice<UnsafeRawBufferPointer>) -> UInt? {
      guard !digits.isEmpty, digits.count <= 2 * MemoryLayout<UInt>.size else { return nil }
      var value: UInt = 0
      for digit in digits {
        let nibble: UInt8
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
        default: return nil
        }
        value = value << 4 | UInt(nibble)
      }
      return value
    }
  }
}
