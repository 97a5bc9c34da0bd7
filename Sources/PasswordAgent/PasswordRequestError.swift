/// Why the bytes of a request file are not a request.
///
/// Compare by ``code``; show ``description``, which names the line where there
/// is one. Never carries the file's text, which came from outside.
public struct PasswordRequestError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong. Compare with the static members.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Hashable, Sendable {
      case tooLarge, notUTF8, containsNul, malformedLine, noAskSection, missingSocket
      case invalidValue
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// Longer than ``PasswordRequest/maximumFileSize``.
    public static let tooLarge = Code(.tooLarge)
    /// Not UTF-8.
    public static let notUTF8 = Code(.notUTF8)
    /// Holds a NUL byte.
    public static let containsNul = Code(.containsNul)
    /// A line that is neither a `[Section]`, a comment nor `Key=Value`.
    public static let malformedLine = Code(.malformedLine)
    /// No `[Ask]` section.
    public static let noAskSection = Code(.noAskSection)
    /// No `Socket=`, or an empty one.
    public static let missingSocket = Code(.missingSocket)
    /// A known key with a value it cannot take (`NotAfter=soon`, `Echo=maybe`).
    public static let invalidValue = Code(.invalidValue)

    /// The code's name, as in `missingSocket`.
    public var description: String { value.rawValue }
  }

  /// What is wrong.
  public let code: Code
  /// The line (from 1) where it is, when it is on one line.
  public let line: Int?
  /// The key whose value is wrong, for ``Code/invalidValue``.
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
