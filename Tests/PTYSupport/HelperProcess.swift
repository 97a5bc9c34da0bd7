import Foundation
import Glibc
import TestSupport

/// The terminal helper as a child process, spoken to in JSON lines.
final class HelperProcess {
  /// Debian's interpreter, which has `python3-pyte`; the `python3` on `PATH`
  /// may be another one without it.
  static let interpreter = "/usr/bin/python3"

  private let process: TestProcess
  private var received: [UInt8] = []

  /// Starts the helper with a fixed environment plus `extraEnvironment`,
  /// its requests on its standard input and its replies on its output.
  init(extraEnvironment: [String: String] = [:]) throws {
    guard access(Self.interpreter, X_OK) == 0 else {
      throw HarnessError("\(Self.interpreter) is missing: install python3 and python3-pyte")
    }
    process = try TestProcess(
      [Self.interpreter, "-c", terminalHelperScript],
      environment: .exactly(
        ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"].merging(
          extraEnvironment
        ) { _, extra in extra }),
      standardInput: .pipe(), standardError: .inherit)
  }

  var processID: Int32 { process.processID }

  deinit {
    // End of its requests: the helper ends its session and exits.
    process.closeInput()
    _ = try? process.wait()
  }

  /// Sends one request and waits for its reply. The helper bounds its own
  /// waits; this bounds a helper that died or hung.
  func request(_ object: [String: Any]) throws -> [String: Any] {
    var line = try JSONSerialization.data(withJSONObject: object)
    line.append(0x0A)
    guard process.isRunning else { throw HarnessError("the terminal helper is gone") }
    process.send([UInt8](line))
    let timeout = (object["timeout"] as? Double ?? Double(object["timeout"] as? Int ?? 0)) + 60
    let reply = try readLine(timeout: timeout)
    guard let parsed = try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any] else {
      throw HarnessError("the terminal helper sent \(String(decoding: reply, as: UTF8.self))")
    }
    if let error = parsed["error"] as? String {
      throw HarnessError("the terminal helper failed: \(error)")
    }
    return parsed
  }

  private func readLine(timeout: Double) throws -> [UInt8] {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while true {
      if let newline = received.firstIndex(of: 0x0A) {
        let line = Array(received[..<newline])
        received.removeSubrange(...newline)
        return line
      }
      let left = deadline - .now
      guard left > .zero else { throw HarnessError("the terminal helper did not answer") }
      var request = pollfd(fd: process.outputDescriptor, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(min(Double(Int32.max), Double(left.components.seconds) * 1000 + 1))
      if poll(&request, 1, milliseconds) <= 0 { continue }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let got = chunk.withUnsafeMutableBytes {
        read(process.outputDescriptor, $0.baseAddress, $0.count)
      }
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { throw HarnessError("the terminal helper exited") }
      received += chunk[..<got]
    }
  }
}
