package import SecureMemory

/// A command line the tool cannot run, in words that say what to change.
///
/// Compare by ``code``; show ``description``. A command that throws one exits
/// with ``ExitStatus/usageError`` after printing it and where to find help.
package struct UsageError: CodedError {
  /// What it says: its code, the `errno` where there is one, its sentence.
  package let details: ErrorDetails<UsageError>

  /// An error that says `details`.
  package init(details: ErrorDetails<UsageError>) { self.details = details }
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

extension ErrorCode where Failure == UsageError {
  /// No command of that name.
  package static var unknownCommand: Self { Self() }
  /// No command given.
  package static var missingCommand: Self { Self() }
  /// An option the command does not have.
  package static var unknownOption: Self { Self() }
  /// An option that takes a value came last, without one.
  package static var missingValue: Self { Self() }
  /// A flag was given a value (`--confirm=yes`).
  package static var unexpectedValue: Self { Self() }
  /// An option's value is not what it takes.
  package static var invalidValue: Self { Self() }
  /// More arguments than the command takes.
  package static var unexpectedArgument: Self { Self() }
  /// An argument the command needs is missing.
  package static var missingArgument: Self { Self() }
  /// Two options that cannot go together.
  package static var conflictingOptions: Self { Self() }
  /// A password hash that cannot be read.
  package static var malformedHash: Self { Self() }
}
