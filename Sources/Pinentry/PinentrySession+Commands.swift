import Glibc

extension PinentrySession where Interface: ~Copyable {
  /// The commands `HELP` lists, in pinentry's order.
  public static var commands: [String] {
    [
      "NOP", "CANCEL", "OPTION", "BYE", "RESET", "END", "HELP", "SETDESC", "SETPROMPT",
      "SETKEYINFO", "SETREPEAT", "SETREPEATERROR", "SETREPEATOK", "SETERROR", "SETOK", "SETNOTOK",
      "SETCANCEL", "GETPIN", "CONFIRM", "MESSAGE", "SETQUALITYBAR", "SETQUALITYBAR_TT", "GETINFO",
      "SETTITLE", "SETTIMEOUT", "CLEARPASSPHRASE",
    ]
  }

  /// Serves one command and sends its answer.
  ///
  /// - Returns: how the session ends, when this command ends it.
  /// - Throws: ``PinentryError`` when the connection fails.
  package mutating func serve(_ command: AssuanCommand) throws(PinentryError) -> PinentryEnding? {
    switch command.verb {
    case "NOP":
      break
    case "BYE":
      try connection.send(.ok("closing connection"))
      return .bye
    case "RESET":
      settings.reset()
    case "OPTION":
      do { try settings.applyOption(command.rawText) } catch {
        try connection.send(.error(error))
        return nil
      }
    case "END", "CANCEL":
      // libassuan's answer outside an inquiry, when no handler is registered.
      try connection.send(.error(.notImplemented))
      return nil
    case "HELP":
      return try help(command)
    case "SETDESC": settings.description = command.text.nonEmpty
    case "SETPROMPT": settings.prompt = command.text.nonEmpty
    case "SETTITLE": settings.title = command.text.nonEmpty
    case "SETERROR": settings.error = command.text.nonEmpty
    case "SETOK": settings.okLabel = command.text.nonEmpty
    case "SETNOTOK": settings.notOkLabel = command.text.nonEmpty
    case "SETCANCEL": settings.cancelLabel = command.text.nonEmpty
    case "SETREPEAT": settings.repeatPrompt = command.text
    case "SETREPEATERROR": settings.repeatError = command.text.nonEmpty
    case "SETREPEATOK": settings.repeatOk = command.text.nonEmpty
    case "SETQUALITYBAR": settings.qualityBar = command.text.nonEmpty ?? "Quality:"
    case "SETQUALITYBAR_TT": settings.qualityBarTooltip = command.text.nonEmpty
    case "SETKEYINFO":
      let keyInfo = command.rawText
      settings.keyInfo = keyInfo.isEmpty || keyInfo == "--clear" ? nil : keyInfo
    case "SETTIMEOUT":
      settings.timeout = Self.timeout(from: command.rawText)
    case "GETPIN":
      return try getPin()
    case "CONFIRM":
      return try confirm(oneButton: command.rawText.contains("--one-button"))
    case "MESSAGE":
      return try confirm(oneButton: true)
    case "GETINFO":
      guard let info = getInfo(command.rawText) else {
        try connection.send(.error(.parameter))
        return nil
      }
      try connection.send(.data(Array(info.utf8)))
    case "CLEARPASSPHRASE":
      // We keep no passphrase cache, so there is nothing to clear.
      break
    default:
      try connection.send(.error(.unknownCommand))
      return nil
    }
    try connection.send(.ok())
    return nil
  }

  private func help(_ command: AssuanCommand) throws(PinentryError) -> PinentryEnding? {
    let topic = command.rawText.uppercased()
    let listed = topic.isEmpty ? Self.commands : Self.commands.filter { $0 == topic }
    guard !listed.isEmpty else {
      try connection.send(.error(.unknownCommand))
      return nil
    }
    for name in listed { try connection.send(.comment(name)) }
    try connection.send(.ok())
    return nil
  }

  /// `SETTIMEOUT`'s seconds, read as `atoi` reads them; zero or less (or no
  /// number) means no limit.
  public static func timeout(from text: String) -> Duration? {
    let trimmed = text.drop { $0 == " " || $0 == "\t" }
    var digits = trimmed.prefix { $0.isASCII && $0.isNumber }
    if trimmed.first == "-" || trimmed.first == "+" {
      guard trimmed.first == "+" else { return nil }
      digits = trimmed.dropFirst().prefix { $0.isASCII && $0.isNumber }
    }
    guard let seconds = Int(digits.prefix(9)), seconds > 0 else { return nil }
    return .seconds(seconds)
  }

  /// `GETINFO`'s answers, each as pinentry words it.
  func getInfo(_ what: String) -> String? {
    switch what {
    case "version": version
    case "pid": String(getpid())
    case "flavor": flavor
    case "ttyinfo":
      // ttyname ttytype display tty-mode/uid/gid euid/egid emacs-status
      [
        settings.environment.ttyName ?? "-", settings.environment.ttyType ?? "-",
        settings.environment.display ?? "-",
        Self.deviceDescription(settings.environment.ttyName), "\(geteuid())/\(getegid())", "-",
      ].joined(separator: " ")
    default: nil
    }
  }

  /// The terminal's mode (octal), owner and group, as pinentry's ttyinfo shows
  /// them: `-` with no terminal named, `?` when `stat` fails.
  static func deviceDescription(_ path: String?) -> String {
    guard let path else { return "-" }
    var status = stat()
    guard stat(path, &status) == 0 else { return "?" }
    return "\(String(status.st_mode, radix: 8))/\(status.st_uid)/\(status.st_gid)"
  }
}

extension String {
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
