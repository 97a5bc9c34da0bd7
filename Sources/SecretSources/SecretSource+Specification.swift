extension SecretSource {
  /// The source a command line names, in OpenSSL's `-passin` style:
  ///
  /// | specification | source |
  /// |---|---|
  /// | `env:NAME` | ``environment(name:)`` |
  /// | `file:PATH` | ``file(path:)`` |
  /// | `fd:N` | ``descriptor(_:)`` |
  /// | `stdin` | ``standardInput`` |
  /// | `cmd:COMMAND` | ``command(_:timeout:)``, `COMMAND` split by ``ShellWords`` |
  /// | `credential:NAME` | ``credential(name:)`` |
  /// | `keyring:NAME` | ``keyring(name:)`` |
  ///
  /// A source that asks (the terminal) has no specification: it is what a
  /// program asks with when no source is set. The value after the colon is
  /// taken as it is (no quoting, no expansion), except `cmd:`'s, which is split
  /// into words as a shell splits them (quotes and backslashes, nothing
  /// expanded: ``ShellWords``).
  ///
  /// - Throws: ``SecretSourceError`` with code
  ///   `SecretSourceError.Code.invalidSpecification` for an unknown scheme or
  ///   a value the scheme does not take.
  public init(specification: String) throws(SecretSourceError) {
    if specification == "stdin" {
      self = .standardInput
      return
    }
    // By scalars, not by `Character`: a combining mark after `:`, `=` or `/`
    // makes one character with it, which would hide it from a check.
    let scalars = specification.unicodeScalars
    guard let colon = scalars.firstIndex(of: ":") else {
      throw .invalidSpecification(specification, Self.schemesHint)
    }
    let scheme = String(scalars[..<colon])
    let value = String(scalars[scalars.index(after: colon)...])
    func invalid(_ why: String) -> SecretSourceError {
      .invalidSpecification(specification, why)
    }
    switch scheme {
    case "env":
      guard !value.isEmpty, !value.utf8.contains(UInt8(ascii: "=")), !value.utf8.contains(0) else {
        throw invalid("give the variable's name after env:, as in env:TOOL_PASSWORD")
      }
      self = .environment(name: value)
    case "file":
      guard !value.isEmpty, !value.utf8.contains(0) else {
        throw invalid("give the file's path after file:, as in file:/run/secrets/password")
      }
      self = .file(path: value)
    case "fd":
      guard let number = Int32(value), number >= 0, value.allSatisfy(\.isASCII) else {
        throw invalid("give a descriptor number after fd:, as in fd:3")
      }
      self = .descriptor(number)
    case "cmd":
      let words = try ShellWords.split(value)
      guard let program = words.first, !program.isEmpty else {
        throw invalid("give the command after cmd:, as in cmd:'pass show tool'")
      }
      self = .command(words)
    case "credential":
      guard !value.isEmpty, !value.utf8.contains(UInt8(ascii: "/")), !Self.isDotOrDotDot(value)
      else {
        throw invalid("give the credential's name after credential:, as in credential:password")
      }
      self = .credential(name: value)
    case "keyring":
      guard !value.isEmpty, !value.utf8.contains(0), value.utf8.count <= 4095 else {
        throw invalid("give the key's name after keyring:, as in keyring:backup")
      }
      self = .keyring(name: value)
    default:
      throw invalid("unknown scheme '\(scheme)'; \(Self.schemesHint)")
    }
  }

  /// True for `.` and `..` by their bytes (`==` on `String` compares by
  /// canonical equivalence).
  static func isDotOrDotDot(_ name: String) -> Bool {
    name.utf8.elementsEqual(".".utf8) || name.utf8.elementsEqual("..".utf8)
  }

  /// The schemes, for a message.
  static let schemesHint =
    "use env:NAME, file:PATH, fd:N, stdin, cmd:COMMAND, credential:NAME or keyring:NAME"
}
