extension PinentrySettings {
  /// Applies `OPTION <arguments>`: `key=value`, `key value` or a bare `key`,
  /// with an optional leading `--`, parsed as libassuan parses it.
  ///
  /// Known keys: the terminal (`ttyname`, `ttytype`, `lc-ctype`,
  /// `lc-messages`), the X display (`display`), `grab` and `no-grab`, `owner`, `touch-file`,
  /// `allow-external-password-cache`, `invisible-char`, and the texts
  /// `default-ok`, `-cancel`, `-yes`, `-no`, `-prompt`, `-pwmngr`, `-cf-visi`,
  /// `-tt-visi`, `-tt-hide` and `-capshint` (accelerator marks stripped). Flags
  /// take no value. Values are taken as sent, not unescaped, as gpg-agent sends
  /// them. An empty terminal value unsets it.
  ///
  /// - Throws: ``AssuanError`` `unknownOption` for any other key or a flag with
  ///   a value (gpg-agent tolerates it), or a syntax error for a malformed line;
  ///   the settings are then unchanged.
  public mutating func applyOption(_ arguments: String) throws(AssuanError) {
    let (key, value) = try Self.parseOption(arguments)
    switch key {
    case "grab", "no-grab", "allow-external-password-cache":
      guard value.isEmpty else { throw .unknownOption }
      if key == "allow-external-password-cache" {
        environment.allowsExternalPasswordCache = true
      } else {
        environment.grabsKeyboard = key == "grab"
      }
    case "ttyname": environment.ttyName = value.nonEmpty
    case "ttytype": environment.ttyType = value.nonEmpty
    case "display": environment.display = value.nonEmpty
    case "lc-ctype": environment.lcCtype = value.nonEmpty
    case "lc-messages": environment.lcMessages = value.nonEmpty
    case "owner": environment.owner = value.nonEmpty
    case "touch-file": environment.touchFile = value.nonEmpty
    case "invisible-char": environment.invisibleCharacter = value.nonEmpty
    case "default-ok": texts.ok = value.strippingAcceleratorMarks
    case "default-cancel": texts.cancel = value.strippingAcceleratorMarks
    case "default-yes": texts.yes = value.strippingAcceleratorMarks
    case "default-no": texts.no = value.strippingAcceleratorMarks
    case "default-prompt": texts.prompt = value.strippingAcceleratorMarks
    case "default-pwmngr": texts.savePassphrase = value.strippingAcceleratorMarks
    case "default-cf-visi": texts.confirmReveal = value.strippingAcceleratorMarks
    case "default-tt-visi": texts.reveal = value.strippingAcceleratorMarks
    case "default-tt-hide": texts.hide = value.strippingAcceleratorMarks
    case "default-capshint": texts.capsLock = value.strippingAcceleratorMarks
    default: throw .unknownOption
    }
  }

  /// Splits `OPTION`'s arguments into a key and a value (empty for a bare key).
  static func parseOption(_ arguments: String) throws(AssuanError) -> (key: String, value: String) {
    var rest = Substring(arguments).drop(while: isBlank)
    guard let first = rest.first else { throw .syntax("argument required") }
    if first == "=" { throw .syntax("no option name given") }
    var key = rest.prefix { !isBlank($0) && $0 != "=" }
    rest = rest[key.endIndex...].drop(while: isBlank)
    if rest.first == "=" {
      rest = rest.dropFirst().drop(while: isBlank)
      if rest.isEmpty { throw .syntax("option argument expected") }
    }
    while let last = rest.last, isBlank(last) { rest = rest.dropLast() }
    if key.hasPrefix("--") && key.count > 2 { key = key.dropFirst(2) }
    if key.hasPrefix("-") { throw .syntax("option should not begin with one dash") }
    return (String(key), String(rest))
  }

  private static func isBlank(_ character: Character) -> Bool {
    character == " " || character == "\t"
  }
}

extension String {
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
