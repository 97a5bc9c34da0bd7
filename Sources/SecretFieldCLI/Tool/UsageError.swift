/// A command line the tool cannot run, in words that say what to change.
///
/// Compare by ``code``; show ``description``. A command that throws one exits
/// with ``ExitStatus/usageError`` after printing it and where to find help.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong with the command line. Compare with the static members.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Hashable, Sendable {
      case unknownCommand, missingCommand, unknownOption, missingValue, unexpectedValue
      case invalidValue, unexpectedArgument, missingArgument, conflictingOptions
      case malformedHash
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// No command of that name.
    public static let unknownCommand = Code(.unknownCommand)
    /// No command given.
    public static let missingCommand = Code(.missingCommand)
    /// An option the command does not have.
    public static let unknownOption = Code(.unknownOption)
    /// An option that takes a value came last, without one.
    public static let missingValue = Code(.missingValue)
    /// A flag was given a value (`--confirm=yes`).
    public static let unexpectedValue = Code(.unexpectedValue)
    /// An option's value is not what it takes.
    public static let invalidValue = Code(.invalidValue)
    /// More arguments than the command takes.
    public static let unexpectedArgument = Code(.unexpectedArgument)
    /// An argument the command needs is missing.
    public static let missingArgument = Code(.missingArgument)
    /// Two options that cannot go together.
    public static let conflictingOptions = Code(.conflictingOptions)
    /// A password hash that cannot be read.
    public static let malformedHash = Code(.malformedHash)

    /// The code's name, as in `unknownOption`.
    public var description: String { value.rawValue }
  }

  /// What is wrong.
  public let code: Code
  /// A sentence that says what is wrong and what to do instead.
  public let description: String

  /// An error of `code` with `description`.
  public init(_ code: Code, _ description: String) {
    self.code = code
    self.description = description
  }
}

extension UsageError {
  static func unknownOption(_ option: String) -> Self {
    Self(.unknownOption, "unknown option '\(option)'")
  }

  static func missingValue(_ option: String, _ what: String) -> Self {
    Self(.missingValue, "option '\(option)' needs \(what) after it")
  }

  static func unexpectedValue(_ option: String) -> Self {
    Self(.unexpectedValue, "option '\(option)' takes no value")
  }

  static func invalidValue(_ option: String, _ value: String, _ expected: String) -> Self {
    Self(.invalidValue, "'\(value)' is not a valid value for \(option): give \(expected)")
  }

  static func unexpectedArgument(_ argument: String, _ why: String) -> Self {
    Self(.unexpectedArgument, "unexpected argument '\(argument)': \(why)")
  }

  static func conflicting(_ first: String, _ second: String, _ why: String) -> Self {
    Self(.conflictingOptions, "\(first) and \(second) cannot be used together: \(why)")
  }
}
