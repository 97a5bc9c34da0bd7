import Glibc
import TestSupport

/// A terminal's termios, read with `tcgetattr`, in a form tests can compare and
/// print.
public struct TerminalAttributes: Equatable, Sendable, CustomStringConvertible {
  /// termios c_iflag.
  public var inputFlags: UInt32
  /// termios c_oflag.
  public var outputFlags: UInt32
  /// termios c_cflag.
  public var controlFlags: UInt32
  /// termios c_lflag.
  public var localFlags: UInt32
  /// termios c_cc, the special characters.
  public var controlCharacters: [UInt8]

  init(_ raw: termios) {
    inputFlags = raw.c_iflag
    outputFlags = raw.c_oflag
    controlFlags = raw.c_cflag
    localFlags = raw.c_lflag
    var raw = raw
    controlCharacters = withUnsafeBytes(of: &raw.c_cc) { Array($0) }
  }

  /// Reads the attributes of the terminal open on `descriptor`.
  public static func read(from descriptor: Int32) throws -> TerminalAttributes {
    var raw = termios()
    guard tcgetattr(descriptor, &raw) == 0 else {
      throw HarnessError("tcgetattr failed: \(String(cString: strerror(errno)))")
    }
    return TerminalAttributes(raw)
  }

  /// Echo is on (`ECHO`).
  public var isEchoing: Bool { localFlags & UInt32(ECHO) != 0 }
  /// Canonical (line) mode is on (`ICANON`).
  public var isCanonical: Bool { localFlags & UInt32(ICANON) != 0 }
  /// The signal keys (^C, ^Z) send signals (`ISIG`).
  public var sendsSignals: Bool { localFlags & UInt32(ISIG) != 0 }
  /// CR is turned into NL on input (`ICRNL`).
  public var mapsCarriageReturn: Bool { inputFlags & UInt32(ICRNL) != 0 }

  /// The prompt's raw mode as these attributes show it.
  public var isRaw: Bool { !isEchoing && !isCanonical && !sendsSignals }

  /// The four flag words in hex, for a failing expectation.
  public var description: String {
    "iflag 0o\(String(inputFlags, radix: 8)) oflag 0o\(String(outputFlags, radix: 8)) "
      + "cflag 0o\(String(controlFlags, radix: 8)) lflag 0o\(String(localFlags, radix: 8))"
      + " (echo \(isEchoing), icanon \(isCanonical), isig \(sendsSignals))"
  }
}
