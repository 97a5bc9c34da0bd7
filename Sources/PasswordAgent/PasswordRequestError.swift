public import SecureMemory

/// Why the bytes of a request file are not a request.
///
/// Compare by ``code``; show ``description``, which names the line where there
/// is one. Never carries the file's text, which came from outside.
public struct PasswordRequestError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong. Compare with the static members.
  public typealias Code = ErrorCode<PasswordRequestError>

  /// What is wrong.
  public let code: Code
  /// The line (from 1) where it is, when it is on one line.
  public let line: Int?
  /// The key whose value is wrong, for `Code.invalidValue`.
  public let key: String?

  init(_ code: Code, line: Int? = nil, key: String? = nil) {
    self.code = code
    self.line = line
    self.key = key
  }

  /// One line an operator can act on.
  public var description: String {
    let at = line.map { " on line \($0)" } ?? ""
    return switch code {
    case .tooLarge: "the file is larger than \(PasswordRequest.maximumFileSize) bytes"
    case .notUTF8: "the file is not UTF-8 text"
    case .containsNul: "the file holds a NUL byte"
    case .malformedLine: "a line that is not [Section], a comment or Key=Value\(at)"
    case .noAskSection: "no [Ask] section"
    case .missingSocket: "no Socket= in [Ask]"
    default: "\(key ?? "a key") has a value it cannot take\(at)"
    }
  }
}

extension ErrorCode where Failure == PasswordRequestError {
  /// Longer than ``PasswordRequest/maximumFileSize``.
  public static var tooLarge: Self { Self() }
  /// Not UTF-8.
  public static var notUTF8: Self { Self() }
  /// Holds a NUL byte.
  public static var containsNul: Self { Self() }
  /// A line that is neither a `[Section]`, a comment nor `Key=Value`.
  public static var malformedLine: Self { Self() }
  /// No `[Ask]` section.
  public static var noAskSection: Self { Self() }
  /// No `Socket=`, or an empty one.
  public static var missingSocket: Self { Self() }
  /// A known key with a value it cannot take (`NotAfter=soon`, `Echo=maybe`).
  public static var invalidValue: Self { Self() }
}
