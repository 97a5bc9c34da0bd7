/// A command line the tool cannot run, in words that say what to change.
///
/// Compare by ``code``; show ``description``. A command that throws one exits
/// with ``ExitStatus/usageError`` after printing it and where to find help.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong with the command line. Compare with the static members.
  package struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Hashable, Sendable {
      case unknownCommand, missingCommand, unknownOption, missingValue, unexpectedValue
      case invalidValue, unexpectedArgument, missingArgument, conflictingOptions
      case malformedHash
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// No command of that name.
    package static let unknownCommand = Code(.unknownCommand)
    /// No command given.
    package static let missingCommand = Code(.missingCommand)
    /// An option the command does not have.
    package static let unknownOption = Code(.unknownOption)
    /// An option that takes a value came last, without one.
    package static let missingValue = Code(.missingValue)
    /// A flag was given a value (`--confirm=yes`).
    package static let unexpectedValue = Code(.unexpectedValue)
    /// An option's value is not what it takes.
    package static let invalidValue = Code(.invalidValue)
    /// More arguments than the command takes.
    package static let unexpectedArgument = Code(.unexpectedArgument)
    /// An argument the command needs is missing.
    package static let missingArgument = Code(.missingArgument)
    /// Two options that cannot go together.
    package static let conflictingOptions = Code(.conflictingOptions)
    /// A password hash that cannot be read.
    package static let malformedHash = Code(.malformedHash)

    /// The code's name, as in `unknownOption`.
    package var description: String { value.rawValue }
  }

  /// What is wrong.
  package let code: Code
  /// A sentence that says what is wrong and what to do instead.
  package let description: String

  /// An error of `code` with `description`.
  package init(_ code: Code, _ description: String) {
    self.code = code
    self.description = description
  }
}

extension UsageError {
  package static func unknownOption(_ option: String) -> Self {
    Self(.unknownOption, "unknown option '\(option)'")
  }

  package static func missingValue(_ option: String, _ what: String) -> Self {
    Self(.missingValue, "option '\(option)' needs \(what) after it")
  }

  package static func unexpectedValue(_ option: String) -> Self {
    Self(.unexpectedValue, "option '\(option)' takes no value")
  }

  package static func invalidValue(_ option: String, _ value: String, _ expected: String) -> Self {
    Self(.invalidValue, "'\(value)' is not a valid value for \(option): give \(expected)")
  }

  package static func unexpectedArgument(_ argument: String, _ why: String) -> Self {
    Self(.unexpectedArgument, "unexpected argument '\(argument)': \(why)")
  }

  package static func conflicting(_ first: String, _ second: String, _ why: String) -> Self {
    Self(.conflictingOptions, "\(first) and \(second) cannot be used together: \(why)")
  }
}
