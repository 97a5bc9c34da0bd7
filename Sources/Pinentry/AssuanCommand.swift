/// A command line from an Assuan client: its verb and its arguments as sent.
package struct AssuanCommand: Sendable, Hashable {
  /// The command word in upper case, as in `GETPIN` for `getpin`.
  package let verb: String
  /// The bytes after the spaces that follow the verb, still percent-escaped.
  package let arguments: [UInt8]

  /// A command with `verb` (matched in upper case) and raw `arguments`.
  package init(verb: String, arguments: [UInt8] = []) {
    self.verb = verb.uppercased()
    self.arguments = arguments
  }

  /// The arguments as sent, decoded as UTF-8 without unescaping: what `OPTION`,
  /// `GETINFO` and `SETTIMEOUT` parse.
  package var rawText: String { String(decoding: arguments, as: UTF8.self) }

  /// The arguments percent-unescaped and decoded as UTF-8: what the `SET`
  /// commands display. A `+` stays a `+`; invalid UTF-8 becomes U+FFFD.
  package var text: String {
    String(decoding: AssuanEscaping.percentDecoded(arguments), as: UTF8.self)
  }
}
