import Glibc
import SecureMemory

/// `secretfield credential [OPTIONS] get|store|erase`, also installed as
/// `git-credential-secretfield`: a git credential helper
/// (`gitcredentials(7)`) that asks on the terminal once, and caches in the
/// kernel keyring only what the server took.
///
/// Git runs `get` when it needs a credential: the answer comes from the cache
/// when there is one, else from the user through ``asker``; nothing is cached
/// then. Git runs `store` once the server accepted the credential: it is
/// cached for ``timeout`` seconds, never past its `password_expiry_utc`. Git
/// runs `erase` when the server refused it: it is removed. Any other
/// operation is ignored, as `gitcredentials(7)` asks of a helper.
package struct CredentialCommand: Sendable {
  /// What git asks of the helper.
  package enum Operation: Sendable, Hashable {
    /// Answer with a credential.
    case get
    /// Cache the credential git confirmed.
    case store
    /// Forget the credential the server refused.
    case erase
    /// An operation of a later git: ignored.
    case other(String)

    init(_ word: String) {
      switch word {
      case "get": self = .get
      case "store": self = .store
      case "erase": self = .erase
      default: self = .other(word)
      }
    }
  }

  /// `credential`.
  package static let name = "credential"
  /// The name the package installs the helper under, for
  /// `git config credential.helper secretfield`.
  package static let helperName = "git-credential-secretfield"
  /// One line for the tool's list.
  package static let summary = "git's credential helper, caching in the kernel keyring"
  /// The text of `--help`.
  package static let help = """
    Usage: secretfield credential [OPTIONS] get|store|erase
           git-credential-secretfield [OPTIONS] get|store|erase

    A credential helper for git over HTTPS. Turn it on with

      git config --global credential.helper secretfield

    When git needs a user name and password (get), it asks on the terminal in
    a form of two fields, or answers from the cache at once. With no terminal
    and a display (DISPLAY or WAYLAND_DISPLAY), it asks in a window instead
    when secretfield-window is installed beside it;
    SECRETFIELD_CREDENTIAL_FRONTEND=terminal or window forces one. Git tells it
    when the server took the credential (store): it is cached in your kernel
    keyring, readable by your own processes only, for the timeout. When the
    server refuses it (erase), it is forgotten. Nothing is ever written to
    disk. The password goes from the terminal to git's pipe in locked memory,
    never as a string.

      --timeout S        forget a credential S seconds after it was stored
                         (default 900, as git-credential-cache; never past
                         the password_expiry_utc git gives)
      --input-timeout S  give up when git's request has not ended after S
                         seconds (default 10)

    secretfield forget --git URL removes a cached credential by hand.

    Exit status: 0 done (for get: a credential written); 1 cancelled, bad
    input or a failure (the reason on standard error; nothing written, nothing
    cached); 2 usage error; 3 no terminal to ask on, or standard output is a
    terminal; 124 git's request did not end in time.
    """

  /// What git asks.
  package var operation: Operation
  /// How long a stored credential stays, in seconds (`--timeout`).
  package var timeout: Int64 = 900
  /// How long to wait for git's request to end (`--input-timeout`).
  package var inputTimeout = Duration.seconds(10)
  /// Who asks when nothing is cached: the terminal form unless a front end
  /// that runs the command sets its own.
  package var asker: any CredentialAsking = TerminalCredentialAsker()
  /// Whether `get` becomes the window program (`secretfield-window
  /// credential`, with the same arguments) when there is no terminal and
  /// there is a display, as ``FrontEnd/choose(variable:in:windowProgramExists:terminalOpens:)``
  /// decides from ``frontEndVariable``: `secretfield` sets it; the window
  /// program, which asks itself, does not.
  package var opensWindowWithoutTerminal = false
  /// The arguments the command was parsed from, for the window program.
  package let arguments: [String]

  /// The variable that forces a front end for `get`: `terminal` or `window`.
  package static let frontEndVariable = "SECRETFIELD_CREDENTIAL_FRONTEND"

  /// Parses `[--timeout S] [--input-timeout S] OPERATION`.
  package init(arguments: [String]) throws(UsageError) {
    self.arguments = arguments
    var scanner = ArgumentScanner(arguments)
    var words: [String] = []
    var timeout: Int64?
    var inputTimeout: Duration?
    while let item = scanner.next() {
      switch item {
      case .option("--timeout", let inline):
        let value = try scanner.value(of: "--timeout", inline: inline, describedAs: "seconds")
        guard let seconds = Int64(value), seconds >= 1, seconds <= 31_536_000 else {
          throw .invalidValue("--timeout", value, "a whole number of seconds, such as 900")
        }
        timeout = seconds
      case .option("--input-timeout", let inline):
        let value = try scanner.value(
          of: "--input-timeout", inline: inline, describedAs: "seconds")
        guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 3600 else {
          throw .invalidValue("--input-timeout", value, "a number of seconds, such as 10")
        }
        inputTimeout = .milliseconds(Int64((seconds * 1000).rounded(.up)))
      case .option(let option, _):
        throw .unknownOption(option)
      case .argument(let word):
        words.append(word)
      }
    }
    guard let first = words.first else {
      throw UsageError(
        .missingArgument,
        "give the operation git asks for: get, store or erase (git adds it to the "
          + "helper's command line)")
    }
    if words.count > 1 {
      throw .unexpectedArgument(words[1], "the helper takes one operation")
    }
    operation = Operation(first)
    if let timeout { self.timeout = timeout }
    if let inputTimeout { self.inputTimeout = inputTimeout }
  }

  /// Does what git asked.
  package func run(in context: CommandContext) -> ExitStatus {
    do throws(CredentialError) {
      switch operation {
      case .get: return try get(in: context)
      case .store: return try store(in: context)
      case .erase: return try erase(in: context)
      case .other: return .success
      }
    } catch {
      context.printCredentialError(error.description)
      return error.status
    }
  }

  /// Reads and parses git's request from standard input.
  private func request(in context: CommandContext) throws(CredentialError) -> CredentialRequest {
    let input = try CredentialRequest.read(
      from: context.standardInput, timeout: inputTimeout, storage: ToolMemory.storage)
    return try CredentialRequest(parsing: input, storage: ToolMemory.storage)
  }

  // MARK: get

  private func get(in context: CommandContext) throws(CredentialError) -> ExitStatus {
    if context.standardOutputIsTerminal {
      context.printCredentialError(
        "standard output is a terminal, so the password would be shown on the screen; "
          + "git runs the helper with a pipe (try: git credential fill)")
      return .noTerminal
    }
    if opensWindowWithoutTerminal {
      let frontEnd: FrontEnd
      do {
        frontEnd = try FrontEnd.choose(variable: Self.frontEndVariable, in: context)
      } catch {
        context.printCredentialError(error.description)
        return .usageError
      }
      if frontEnd == .window {
        return FrontEnd.openWindow(
          [Self.name] + arguments, variable: Self.frontEndVariable, context: context)
      }
    }
    let target = try request(in: context).target(for: "get")
    let cache = CredentialCache(storage: ToolMemory.storage)
    do throws(CredentialError) {
      if let cached = try cache.lookup(target) {
        var reply = try CredentialReply(storage: ToolMemory.storage)
        try reply.append("username", text: cached.target.username ?? "", what: "cached user name")
        try cached.entries.withEntry(at: 0) { bytes throws(CredentialError) in
          try reply.append("password", secret: bytes, what: "cached password")
        }
        if let expiry = cached.expiry {
          try reply.append("password_expiry_utc", text: String(expiry), what: "expiry")
        }
        if cached.entries.count > 1 {
          try cached.entries.withEntry(at: 1) { bytes throws(CredentialError) in
            try reply.append("oauth_refresh_token", secret: bytes, what: "cached refresh token")
          }
        }
        try reply.write(to: context.standardOutput)
        return .success
      }
    } catch  where error.code == .cacheFailed {
      // The cache is a convenience: without it, the user is asked.
      context.printCredentialError("warning: \(error.description); asking instead")
    }
    switch asker.ask(CredentialQuestion(target: target, storage: ToolMemory.storage), in: context) {
    case .credential(let username, let password):
      var reply = try CredentialReply(storage: ToolMemory.storage)
      try reply.append("username", text: username, what: "user name")
      try password.withUnsafeBytes { bytes throws(CredentialError) in
        try reply.append("password", secret: bytes, what: "password")
      }
      try reply.write(to: context.standardOutput)
      return .success
    case .declined:
      // Cancelled: git asks no one else and stops.
      var reply = try CredentialReply(storage: ToolMemory.storage)
      try reply.append("quit", text: "1", what: "answer")
      try reply.write(to: context.standardOutput)
      return .cancelled
    case .failed(let status):
      return status
    }
  }

  // MARK: store, erase

  private func store(in context: CommandContext) throws(CredentialError) -> ExitStatus {
    var request = try request(in: context)
    let target = try request.target(for: "store")
    guard target.username != nil else { throw .missing("username", for: "store") }
    guard let password = request.password.take() else {
      throw .missing("password", for: "store")
    }
    let refreshToken = request.oauthRefreshToken.take()
    let cache = CredentialCache(storage: ToolMemory.storage)
    _ = try cache.store(
      target, password: password, refreshToken: refreshToken, expiry: request.passwordExpiry,
      timeout: timeout, now: Int64(time(nil)))
    return .success
  }

  private func erase(in context: CommandContext) throws(CredentialError) -> ExitStatus {
    var request = try request(in: context)
    let target = try request.target(for: "erase")
    let password = request.password.take()
    try CredentialCache(storage: ToolMemory.storage).erase(target, password: password)
    return .success
  }
}

extension CommandContext {
  /// Writes `message` to standard error after `secretfield credential: `, or
  /// after `git-credential-secretfield: ` when started by that name.
  package func printCredentialError(_ message: String) {
    printError(
      message, command: toolName == CredentialCommand.helperName ? nil : CredentialCommand.name)
  }
}
