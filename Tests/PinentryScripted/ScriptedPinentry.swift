import Glibc
import Pinentry
import SecretField
import SecureMemory

/// A pinentry for tests against a real gpg-agent, before the terminal prompt
/// exists: `PinentrySession` on stdin and stdout, with an interface that answers
/// from a script instead of a user.
///
/// `SECRETFIELD_PINENTRY_SCRIPT` names a file with one answer per line:
/// `enter <percent-escaped passphrase>`, `enter-rating <...>` (asks the client
/// for the quality first), `cancel`, `timeout`, `fully-cancel`, `confirm`,
/// `decline`. The passphrases are read and decoded into secure memory.
/// `SECRETFIELD_PINENTRY_LOG` names a file each request is logged to, one line
/// each, without any passphrase; the agent starts a new pinentry for each
/// request, so the log also tells a new process which answer is next.
@main
enum ScriptedPinentry {
  static func main() {
    guard let scriptPath = getenv("SECRETFIELD_PINENTRY_SCRIPT"),
      let logPath = getenv("SECRETFIELD_PINENTRY_LOG")
    else {
      complain("set SECRETFIELD_PINENTRY_SCRIPT and SECRETFIELD_PINENTRY_LOG")
      exit(2)
    }
    do {
      let log = RequestLog(path: String(cString: logPath))
      let script = try Script(path: String(cString: scriptPath), skipping: log.requestCount())
      var session = try PinentrySession(interface: ScriptedUser(script: script, log: log))
      _ = try session.run()
    } catch {
      complain("\(error)")
      exit(1)
    }
  }
}

private func complain(_ message: String) {
  let line = Array("pinentry-scripted: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// The answers, their passphrases decoded into one secure buffer.
final class Script {
  enum Kind: String {
    case enter, enterRating = "enter-rating", cancel, timeout, fullyCancel = "fully-cancel"
    case confirm, decline
  }
  struct Step {
    let kind: Kind
    let passphrase: Range<Int>
  }

  private(set) var steps: [Step] = []
  private(set) var next: Int
  var passphrases: SecureBuffer

  init(path: String, skipping done: Int) throws {
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { throw ScriptError("cannot open \(path)") }
    defer { close(file) }
    var text = try SecureBuffer(capacity: 4096)
    while case .bytes = try text.read(from: file, maximumCount: 4096) {}
    passphrases = try SecureBuffer(capacity: text.count)
    next = done
    var failure: SecureMemoryError?
    text.withUnsafeBytes { bytes in
      for line in bytes.split(separator: UInt8(ascii: "\n")) {
        let word = line.prefix { $0 != UInt8(ascii: " ") }
        guard let kind = Kind(rawValue: String(decoding: word, as: UTF8.self)) else { continue }
        let start = passphrases.count
        let rest = line.dropFirst(word.count + 1)
        if !rest.isEmpty {
          do throws(SecureMemoryError) {
            try AssuanEscaping.appendPercentDecoded(
              UnsafeRawBufferPointer(rebasing: rest), to: &passphrases)
          } catch { failure = error }
        }
        steps.append(Step(kind: kind, passphrase: start..<passphrases.count))
      }
    }
    if let failure { throw failure }
  }

  /// The next answer, or nil when the script has run out.
  func takeStep() -> Step? {
    guard next < steps.count else { return nil }
    defer { next += 1 }
    return steps[next]
  }
}

struct ScriptError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Appends one line per request to the log file.
struct RequestLog {
  let path: String

  func requestCount() -> Int {
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return 0 }
    defer { close(file) }
    var count = 0
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
      if got <= 0 { break }
      count += chunk[0..<got].count { $0 == UInt8(ascii: "\n") }
    }
    return count
  }

  /// Logs `fields` as `name=value` pairs, values percent-escaped so a line
  /// holds no space or line break of its own.
  func append(_ request: String, _ fields: [(String, String?)]) {
    let escaped = fields.map { name, value in
      "\(name)=" + (value.map(Self.escape) ?? "-")
    }
    let line = Array(([request] + escaped).joined(separator: " ").utf8) + [UInt8(ascii: "\n")]
    let file = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard file >= 0 else { return }
    _ = line.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    close(file)
  }

  private static func escape(_ text: String) -> String {
    var escaped = ""
    for byte in text.utf8 {
      if byte <= 0x20 || byte == UInt8(ascii: "%") || byte >= 0x7F {
        escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded
      } else {
        escaped.unicodeScalars.append(Unicode.Scalar(byte))
      }
    }
    return escaped
  }
}

extension String {
  fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}

/// Answers from the script and logs what it was asked.
struct ScriptedUser: PinentryInterface {
  let script: Script
  let log: RequestLog

  mutating func getPin(
    _ request: PinRequest, quality: PassphraseQuality?
  ) throws(AssuanError) -> EntryOutcome<SecureBuffer> {
    let step = script.takeStep()
    var score: Int?
    var result: EntryOutcome<SecureBuffer>?
    switch step?.kind {
    case .enter, .enterRating:
      var passphrase = try! SecureBuffer(capacity: step!.passphrase.count)
      script.passphrases.withUnsafeBytes { bytes in
        try! passphrase.append(UnsafeRawBufferPointer(rebasing: bytes[step!.passphrase]))
      }
      if step?.kind == .enterRating, let quality { score = quality.estimate(passphrase) }
      result = .submitted(passphrase)
    case .cancel: result = .ended(.cancelled(.escape))
    case .timeout: result = .ended(.timedOut)
    case .fullyCancel: result = .ended(.cancelled(.interrupt))
    case .confirm, .decline, nil: break
    }
    log.append(
      "GETPIN",
      [
        ("stage", request.stage == .passphrase ? "passphrase" : "repetition"),
        ("prompt", request.prompt), ("description", request.description), ("error", request.error),
        ("qualitybar", request.qualityBar?.label), ("quality", score.map(String.init)),
        ("ttyname", request.environment.ttyName), ("keyinfo", request.keyInfo),
      ])
    guard let result = result.take() else {
      throw .general("the script has no answer for this GETPIN")
    }
    return result
  }

  mutating func confirm(_ request: ConfirmRequest) throws(AssuanError) -> EntryOutcome<Void> {
    let step = script.takeStep()
    log.append(
      "CONFIRM",
      [
        ("description", request.description), ("ok", request.okLabel),
        ("notok", request.notOkLabel),
        ("cancel", request.cancelLabel),
      ])
    switch step?.kind {
    case .confirm: return .yes
    case .decline: return .ended(.declined)
    case .cancel: return .ended(.cancelled(.escape))
    case .timeout: return .ended(.timedOut)
    case .fullyCancel: return .ended(.cancelled(.interrupt))
    default: throw .general("the script has no answer for this CONFIRM")
    }
  }
}
