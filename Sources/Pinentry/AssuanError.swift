/// An error a pinentry reports to its Assuan client, as the `ERR` line carries it.
///
/// The wire value is a libgpg-error code with the pinentry source (5) in bits
/// 24 and up, as `gpg_err_make (GPG_ERR_SOURCE_PINENTRY, code)` makes it:
/// `ERR 83886179 Operation cancelled <Pinentry>`. The texts are libgpg-error's
/// (`gpg_strerror`, `gpg_strsource`), so a client that prints them shows what it
/// shows for any other pinentry. gpg-agent compares only the code.
public struct AssuanError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Which error this is. Compare with the static members.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// libgpg-error's `gpg_err_code_t` values (gpg-error.h) with their
    /// `gpg_strerror` texts.
    private enum Value: UInt32, Hashable, Sendable {
      case general = 1
      case timeout = 62
      case notImplemented = 69
      case cancelled = 99
      case notConfirmed = 114
      case unknownOption = 174
      case fullyCancelled = 198
      case ipcGeneral = 257
      case lineTooLong = 263
      case unknownCommand = 275
      case syntax = 276
      case parameter = 280

      var text: String {
        switch self {
        case .general: "General error"
        case .timeout: "Timeout"
        case .notImplemented: "Not implemented"
        case .cancelled: "Operation cancelled"
        case .notConfirmed: "Not confirmed"
        case .unknownOption: "Unknown option"
        case .fullyCancelled: "Operation fully cancelled"
        case .ipcGeneral: "General IPC error"
        case .lineTooLong: "Line passed to IPC too long"
        case .unknownCommand: "Unknown IPC command"
        case .syntax: "IPC syntax error"
        case .parameter: "IPC parameter error"
        }
      }
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// `GPG_ERR_GENERAL`: something failed that has no code of its own.
    public static let general = Code(.general)
    /// `GPG_ERR_TIMEOUT`: the user did not answer within `SETTIMEOUT`.
    public static let timeout = Code(.timeout)
    /// `GPG_ERR_NOT_IMPLEMENTED`: a libassuan built-in this server does not
    /// serve (`END` or `CANCEL` outside an inquiry, `AUTH`).
    public static let notImplemented = Code(.notImplemented)
    /// `GPG_ERR_CANCELED`: the user cancelled.
    public static let cancelled = Code(.cancelled)
    /// `GPG_ERR_NOT_CONFIRMED`: the user chose the not-OK button of `CONFIRM`.
    public static let notConfirmed = Code(.notConfirmed)
    /// `GPG_ERR_UNKNOWN_OPTION`: an `OPTION` this pinentry does not know.
    public static let unknownOption = Code(.unknownOption)
    /// `GPG_ERR_FULLY_CANCELED`: the user pressed Ctrl-C; the connection closes.
    public static let fullyCancelled = Code(.fullyCancelled)
    /// `GPG_ERR_ASS_GENERAL`: a general IPC failure.
    public static let ipcGeneral = Code(.ipcGeneral)
    /// `GPG_ERR_ASS_LINE_TOO_LONG`: a request line over the Assuan limit.
    public static let lineTooLong = Code(.lineTooLong)
    /// `GPG_ERR_ASS_UNKNOWN_CMD`: a command this pinentry does not know.
    public static let unknownCommand = Code(.unknownCommand)
    /// `GPG_ERR_ASS_SYNTAX`: a malformed request, such as `OPTION =x`.
    public static let syntax = Code(.syntax)
    /// `GPG_ERR_ASS_PARAMETER`: a parameter the command does not take, such as
    /// `GETINFO colour`.
    public static let parameter = Code(.parameter)

    /// The libgpg-error code without a source, as in gpg-error.h.
    public var gpgErrorCode: UInt32 { value.rawValue }
    /// libgpg-error's text for the code, as `gpg_strerror` gives it.
    public var text: String { value.text }
    /// The text, as in `Operation cancelled`.
    public var description: String { value.text }
  }

  /// libgpg-error's source number for pinentry (`GPG_ERR_SOURCE_PINENTRY`).
  public static let pinentrySource: UInt32 = 5

  /// Which error this is.
  public let code: Code
  /// More words after the error text, as libassuan's `- detail` suffix.
  public let detail: String?

  /// An error with `code`, and `detail` appended to its text when given.
  public init(_ code: Code, detail: String? = nil) {
    self.code = code
    self.detail = detail
  }

  /// The number on the `ERR` line: the code with the pinentry source.
  public var wireValue: UInt32 { Self.pinentrySource << 24 | code.gpgErrorCode }

  /// The error as the `ERR` line says it, without the `ERR` and the number:
  /// `Operation cancelled <Pinentry>`, or `IPC syntax error <Pinentry> - no
  /// option name given` with a detail.
  public var description: String {
    "\(code.text) <Pinentry>" + (detail.map { " - \($0)" } ?? "")
  }
}

extension AssuanError {
  /// The user cancelled (83886179).
  public static let cancelled = AssuanError(.cancelled)
  /// The user declined a confirmation (83886194).
  public static let notConfirmed = AssuanError(.notConfirmed)
  /// The timeout set with `SETTIMEOUT` ran out (83886142).
  public static let timeout = AssuanError(.timeout)
  /// An `OPTION` this pinentry does not know (83886254).
  public static let unknownOption = AssuanError(.unknownOption)
  /// A parameter the command does not take (83886360).
  public static let parameter = AssuanError(.parameter)
  /// Ctrl-C: the request and the connection end (83886278).
  public static let fullyCancelled = AssuanError(.fullyCancelled)
  /// A command this pinentry does not know (83886355).
  public static let unknownCommand = AssuanError(.unknownCommand)
  /// A request line longer than the Assuan limit (83886343).
  public static let lineTooLong = AssuanError(.lineTooLong)
  /// A libassuan built-in this server does not serve (83886149).
  public static let notImplemented = AssuanError(.notImplemented)

  /// A malformed request (83886356), with what is wrong with it.
  public static func syntax(_ detail: String) -> AssuanError {
    AssuanError(.syntax, detail: detail)
  }

  /// A failure without a code of its own (83886081), with what failed, such as
  /// `no terminal to prompt on`.
  public static func general(_ detail: String) -> AssuanError {
    AssuanError(.general, detail: detail)
  }
}
