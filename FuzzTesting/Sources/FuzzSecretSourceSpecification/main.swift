import FuzzSupport
import SecretSources
import SecureMemory

// `--password-from` specifications and the command word splitter. The
// fuzzer's bytes, read as UTF-8 (invalid bytes become U+FFFD), are a
// specification. Checked:
//
// - `SecretSource(specification:)` gives the same answer twice; when it
//   throws, the error is `invalidSpecification`;
// - it agrees with the table of schemes read by bytes, not by `Character`
//   (a combining mark after `:`, `=` or `/` must not hide it): the scheme is
//   what comes before the first `:` byte, and `env:`, `file:`, `fd:`, `cmd:`,
//   `credential:`, `keyring:` and `stdin` give their source exactly when the value is
//   one the scheme takes, with the value's bytes unchanged; anything else
//   throws;
// - for `cmd:`, the words are those `ShellWords.split` gives for the rest;
// - `ShellWords.split` of the whole text and of what follows a `cmd:`:
//   the same twice, and the words quoted again (in single quotes, a quote
//   written `'\''`; and in double quotes, `$ ` " \` escaped), joined by
//   blanks and split again give the same words, byte for byte.

typealias Outcome = Result<SecretSource, SecretSourceError>

func source(_ specification: String) -> Outcome {
  Result { () throws(SecretSourceError) in try SecretSource(specification: specification) }
}

func split(_ line: String) -> [String]? {
  try? ShellWords.split(line)
}

func utf8(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }

func singleQuoted(_ word: String) -> String {
  var quoted = "'"
  for scalar in word.unicodeScalars {
    if scalar == "'" { quoted += "'\\''" } else { quoted.unicodeScalars.append(scalar) }
  }
  return quoted + "'"
}

func doubleQuoted(_ word: String) -> String {
  var quoted = "\""
  for scalar in word.unicodeScalars {
    if "$`\"\\".unicodeScalars.contains(scalar) { quoted += "\\" }
    quoted.unicodeScalars.append(scalar)
  }
  return quoted + "\""
}

/// Splits `line`, then checks the words survive being quoted again.
func checkSplit(_ line: String) {
  let words = split(line)
  require(
    words.map(utf8) == split(line).map(utf8), "two splits differ: \(Array(line.utf8))")
  guard let words else { return }
  for (name, quote) in [("single", singleQuoted), ("double", doubleQuoted)] {
    let joined = words.map(quote).joined(separator: " ")
    let again = split(joined)
    require(
      again.map(utf8) == utf8(words),
      "\(words.map { Array($0.utf8) }) \(name)-quoted as \(Array(joined.utf8)) split as "
        + "\(again.map(utf8).map { "\($0)" } ?? "an error")")
  }
}

/// What the specification should give, by its bytes: the source, or nil
/// when it should be refused.
func expected(_ specification: String) -> SecretSource? {
  let bytes = Array(specification.utf8)
  if bytes == Array("stdin".utf8) { return .standardInput }
  guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
  let scheme = String(decoding: bytes[..<colon], as: UTF8.self)
  let valueBytes = Array(bytes[(colon + 1)...])
  let value = String(decoding: valueBytes, as: UTF8.self)
  switch Array(scheme.utf8) {
  case Array("env".utf8):
    guard !valueBytes.isEmpty, !valueBytes.contains(UInt8(ascii: "=")), !valueBytes.contains(0)
    else { return nil }
    return .environment(name: value)
  case Array("file".utf8):
    guard !valueBytes.isEmpty, !valueBytes.contains(0) else { return nil }
    return .file(path: value)
  case Array("fd".utf8):
    guard let number = Int32(value), number >= 0 else { return nil }
    return .descriptor(number)
  case Array("cmd".utf8):
    guard let words = split(value), let program = words.first, !program.isEmpty else {
      return nil
    }
    return .command(words)
  case Array("credential".utf8):
    guard !valueBytes.isEmpty, !valueBytes.contains(UInt8(ascii: "/")),
      valueBytes != Array(".".utf8), valueBytes != Array("..".utf8)
    else { return nil }
    return .credential(name: value)
  case Array("keyring".utf8):
    guard !valueBytes.isEmpty, !valueBytes.contains(0), valueBytes.count <= 4095 else {
      return nil
    }
    return .keyring(name: value)
  default:
    return nil
  }
}

/// The source's value as bytes, so two sources compare byte for byte (a
/// `String` compares by canonical equivalence).
func bytesOf(_ source: SecretSource) -> [[UInt8]] {
  switch source {
  case .environment(let name): [Array("env".utf8), Array(name.utf8)]
  case .file(let path): [Array("file".utf8), Array(path.utf8)]
  case .descriptor(let number): [Array("fd".utf8), Array("\(number)".utf8)]
  case .standardInput: [Array("stdin".utf8)]
  case .credential(let name): [Array("credential".utf8), Array(name.utf8)]
  case .command(let words, let timeout): [Array("cmd \(timeout)".utf8)] + utf8(words)
  case .asking: [Array("asking".utf8)]
  case .keyring(let name): [Array("keyring".utf8), Array(name.utf8)]
  }
}

/// libFuzzer's entry point: one specification, checked as described above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSecretSourceSpecification(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let specification = String(
    decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
  let outcome = source(specification)
  require(outcome == source(specification), "two parses differ: \(Array(specification.utf8))")
  let should = expected(specification)
  switch outcome {
  case .success(let got):
    require(
      should.map(bytesOf) == bytesOf(got),
      "\(Array(specification.utf8)) gave \(got), the table says \(should.map { "\($0)" } ?? "refuse")"
    )
  case .failure(let error):
    require(error.code == .invalidSpecification, "refused with \(error.code)")
    require(
      should == nil,
      "\(Array(specification.utf8)) refused (\(error)), the table says \(should!)")
  }
  checkSplit(specification)
  let bytes = Array(specification.utf8)
  if bytes.starts(with: Array("cmd:".utf8)) {
    checkSplit(String(decoding: bytes.dropFirst(4), as: UTF8.self))
  }
  return 0
}
