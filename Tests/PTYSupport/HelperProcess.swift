import Foundation
import Glibc

@_silgen_name("pipe2")
private func pipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// The terminal helper as a child process, spoken to in JSON lines.
final class HelperProcess {
  /// Debian's interpreter, which has `python3-pyte`; the `python3` on `PATH`
  /// may be another one without it.
  static let interpreter = "/usr/bin/python3"

  let processID: pid_t
  private let requests: Int32
  private let replies: Int32
  private var received: [UInt8] = []

  /// Starts the helper with a fixed environment plus `extraEnvironment`.
  init(extraEnvironment: [String: String] = [:]) throws {
    guard access(Self.interpreter, X_OK) == 0 else {
      throw HarnessError("\(Self.interpreter) is missing: install python3 and python3-pyte")
    }
    var toHelper: [Int32] = [0, 0]
    var fromHelper: [Int32] = [0, 0]
    // Close-on-exec from birth: tests spawn in parallel, and a helper that
    // inherited another's pipe end would keep it open.
    guard pipe2(&toHelper, O_CLOEXEC) == 0, pipe2(&fromHelper, O_CLOEXEC) == 0 else {
      throw HarnessError("pipe2: \(String(cString: strerror(errno)))")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toHelper[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromHelper[1], 1)
    let arguments = [Self.interpreter, "-c", terminalHelperScript]
    let environment =
      ["LANG=C.UTF-8", "PATH=/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE=1"]
      + extraEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    var pid: pid_t = 0
    let result = withCStrings(arguments) { argv in
      withCStrings(environment) { envp in
        posix_spawn(&pid, Self.interpreter, &actions, nil, argv, envp)
      }
    }
    close(toHelper[0])
    close(fromHelper[1])
    guard result == 0 else {
      close(toHelper[1])
      close(fromHelper[0])
      throw HarnessError("posix_spawn \(Self.interpreter): \(String(cString: strerror(result)))")
    }
    processID = pid
    requests = toHelper[1]
    replies = fromHelper[0]
  }

  deinit {
    close(requests)
    close(replies)
    var status: Int32 = 0
    waitpid(processID, &status, 0)
  }

  /// Sends one request and waits for its reply. The helper bounds its own
  /// waits; this bounds a helper that died or hung.
  func request(_ object: [String: Any]) throws -> [String: Any] {
    var line = try JSONSerialization.data(withJSONObject: object)
    line.append(0x0A)
    try line.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = write(requests, raw.baseAddress! + offset, raw.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw HarnessError("the terminal helper is gone: \(String(cString: strerror(errno)))")
        }
        offset += written
      }
    }
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
      var request = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(min(Double(Int32.max), Double(left.components.seconds) * 1000 + 1))
      if poll(&request, 1, milliseconds) <= 0 { continue }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let got = chunk.withUnsafeMutableBytes { read(replies, $0.baseAddress, $0.count) }
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { throw HarnessError("the terminal helper exited") }
      received += chunk[..<got]
    }
  }
}

/// Calls `body` with a NULL-terminated C array of the strings.
func withCStrings<Result>(
  _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
) -> Result {
  var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
  defer { for pointer in pointers { free(pointer) } }
  return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}

/// The directory that holds the test bundle and the executables built beside it.
public func productsDirectory() -> String {
  var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
  let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
  let path =
    count > 0
    ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    : CommandLine.arguments[0]
  return (path as NSString).deletingLastPathComponent
}

/// The path of the executable product `name` built beside the test bundle.
public func builtExecutable(_ name: String) -> String {
  productsDirectory() + "/" + name
}
