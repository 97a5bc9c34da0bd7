import Glibc

/// One mapping of a process as `/proc/PID/smaps` describes it.
public struct Mapping: Sendable, CustomStringConvertible {
  /// The addresses it covers.
  public let range: Range<UInt>
  /// `r`, `w`, `x` or `-` each, then `p` (private) or `s` (shared): `---p` is a
  /// no-access private mapping.
  public let permissions: String
  /// The two-letter `VmFlags`: `lo` locked, `dd` left out of core dumps, `wf`
  /// wiped on fork.
  public let flags: Set<String>
  /// The `Locked:` line, in KiB.
  public let lockedKiB: Int

  /// Neither readable, writable nor executable.
  public var isNoAccess: Bool { permissions.hasPrefix("---") }

  /// Range, permissions, flags and locked size on one line.
  public var description: String {
    "0x\(String(range.lowerBound, radix: 16))-0x\(String(range.upperBound, radix: 16)) "
      + "\(permissions) [\(flags.sorted().joined(separator: " "))] locked \(lockedKiB) kB"
  }
}

/// The mappings of a process, read once from `/proc/PID/smaps`.
public struct MemoryMap: Sendable {
  /// Every mapping, in address order.
  public let mappings: [Mapping]

  /// Reads `/proc/PID/smaps` of `processID`, or of this process.
  public init(processID: Int32? = nil) throws {
    let path = processID.map { "/proc/\($0)/smaps" } ?? "/proc/self/smaps"
    var mappings: [Mapping] = []
    var current: (range: Range<UInt>, permissions: String, locked: Int)?
    for line in try readText(path).split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard let first = fields.first else { continue }
      if first.hasSuffix(":") {
        if first == "Locked:", fields.count > 1 { current?.locked = Int(fields[1]) ?? 0 }
        if first == "VmFlags:", let mapping = current {
          mappings.append(
            Mapping(
              range: mapping.range, permissions: mapping.permissions,
              flags: Set(fields.dropFirst().map(String.init)), lockedKiB: mapping.locked))
          current = nil
        }
        continue
      }
      let bounds = first.split(separator: "-")
      guard bounds.count == 2, let low = UInt(bounds[0], radix: 16),
        let high = UInt(bounds[1], radix: 16), fields.count > 1
      else { continue }
      current = (low..<high, String(fields[1]), 0)
    }
    self.mappings = mappings
  }

  /// The mapping that holds `address`, if any.
  public func mapping(containing address: UInt) -> Mapping? {
    mappings.first { $0.range.contains(address) }
  }
}

/// The page size, for tests that reason about pages.
public let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

/// The value of a `Key:   value kB` line of `/proc/self/status`, such as `VmLck`.
public func statusValue(_ key: String) throws -> Int? {
  for line in try readText("/proc/self/status").split(separator: "\n")
  where line.hasPrefix(key + ":") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    return fields.count > 1 ? Int(fields[1].trimmingPrefix("\t")) : nil
  }
  return nil
}
