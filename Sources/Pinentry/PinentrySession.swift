public import SecureMemory

/// How a pinentry session ended.
public enum PinentryEnding: Sendable, Hashable {
  /// The client said `BYE` and was answered `OK closing connection`.
  case bye
  /// The client closed its end.
  case endOfInput
  /// The user pressed Ctrl-C: the client got `ERR 83886278` and the connection
  /// is to close.
  case fullyCancelled
}

/// A pinentry's Assuan server: reads the client's requests, keeps what the
/// client set, and asks the user through a ``PinentryInterface``.
///
/// `run()` greets the client with `OK Pleased to meet you` and serves one
/// request after another until `BYE`, the end of input, or a full cancel. Each
/// request gets exactly one answer (`OK` or `ERR`, after any `S`, `D` or
/// `INQUIRE` lines), whatever the client sent: unknown commands and options,
/// malformed and overlong lines are answered with an error and the session
/// goes on.
///
/// A passphrase travels in secure memory only: the interface hands it over in
/// a `SecureBuffer`; the `D` lines are built in the connection's secure output
/// buffer, written with one `write(2)` and wiped; the passphrase's buffer is
/// freed (wiped by `sodium_free`) before `OK` is sent.
public struct PinentrySession<Interface: PinentryInterface & ~Copyable>: ~Copyable {
  /// The connection to the client.
  package let connection: AssuanConnection
  /// The user interface that asks.
  public var interface: Interface
  /// What the client has set so far.
  public var settings = PinentrySettings()
  /// What `GETINFO version` answers.
  public let version: String
  /// What `GETINFO flavor` answers: the program name after `pinentry-`, as
  /// pinentry derives it.
  public let flavor: String

  /// The version this package reports to clients.
  public static var packageVersion: String { "0.1.0" }

  /// A session reading requests from `input` and writing responses to
  /// `output` (stdin and stdout for a `pinentry-program`), the connection's
  /// secure buffers (the lines read, the passphrase's `D` lines) in `storage`,
  /// sealed by default (`SecureStorage.sealed`).
  ///
  /// - Throws: ``PinentryError`` when the connection's buffers cannot be had in
  ///   secure memory.
  public init(
    input: Int32 = 0, output: Int32 = 1, interface: consuming Interface,
    version: String = packageVersion, flavor: String = "secretfield",
    storage: SecureStorage = .sealed
  ) throws(PinentryError) {
    self.connection = try AssuanConnection(input: input, output: output, storage: storage)
    self.interface = interface
    self.version = version
    self.flavor = flavor
  }

  /// Greets the client and serves its requests until the session ends.
  ///
  /// - Returns: how the session ended.
  /// - Throws: ``PinentryError`` when the connection fails; the client is gone
  ///   or the process is out of secure memory, so there is no one to answer.
  public mutating func run() throws(PinentryError) -> PinentryEnding {
    try connection.send(.ok("Pleased to meet you"))
    while true {
      switch try connection.receive() {
      case .endOfInput:
        return .endOfInput
      case .invalid(let error):
        try connection.send(.error(error))
      case .line(.comment), .line(.empty):
        continue
      case .line(.command(let command)):
        if let ending = try serve(command) { return ending }
      }
    }
  }
}
