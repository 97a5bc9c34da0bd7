/// One request line from an Assuan client, without its line ending, parsed.
///
/// Lines end in LF (a CR before it is dropped) and hold at most
/// ``maximumLength`` bytes before the LF. A line starting with `#` is a comment
/// and an empty line is nothing; both get no answer. Otherwise the line is a
/// command: a verb, matched without regard to case, then its arguments after the
/// spaces that follow the verb.
package enum AssuanLine: Sendable, Hashable {
  /// A command with its arguments.
  case command(AssuanCommand)
  /// A line starting with `#`: ignored, unanswered.
  case comment
  /// An empty line: ignored, unanswered.
  case empty

  /// The most bytes a request line may hold before its LF.
  ///
  /// The Assuan specification puts the limit at 1000 bytes with the line ending;
  /// libassuan's clients write at most 1000 bytes before the LF
  /// (`assuan_write_line` refuses more) and its servers accept 1001. Taking the
  /// clients' count refuses nothing a libassuan client can send.
  package static let maximumLength = 1000

  /// Parses `bytes`, a line without its LF.
  ///
  /// - Complexity: O(`bytes.count`).
  /// - Throws: ``AssuanError`` `IPC syntax error - leading white-space` for a
  ///   line that starts with a space or a tab, as libassuan answers it.
  package init<Bytes: BidirectionalCollection<UInt8>>(parsing bytes: Bytes) throws(AssuanError) {
    var line = bytes[...]
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    guard let first = line.first else {
      self = .empty
      return
    }
    if first == UInt8(ascii: "#") {
      self = .comment
      return
    }
    if Self.isBlank(first) { throw .syntax("leading white-space") }
    let verbEnd = line.firstIndex(where: Self.isBlank) ?? line.endIndex
    let verb = String(decoding: line[..<verbEnd], as: UTF8.self).uppercased()
    let arguments = line[verbEnd...].drop(while: Self.isBlank)
    self = .command(AssuanCommand(verb: verb, arguments: Array(arguments)))
  }

  static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }
}
