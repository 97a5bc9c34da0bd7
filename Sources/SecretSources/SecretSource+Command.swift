import SecureMemory
import SystemCalls

extension SecretSource {
  /// Runs `arguments` with its standard output into a pipe, reads the first
  /// line into secure memory and the rest into a scratch buffer that is wiped,
  /// until end of file; then reaps it. One deadline, `timeout` from the start,
  /// covers the line and the exit: a command still running then is killed
  /// (`SIGKILL`) and the error says whether it had printed its line.
  static func runCommand(
    _ arguments: [String], timeout: Duration, limit: Int, storage: SecureStorage
  ) throws(SecretSourceError) -> SecureBuffer {
    precondition(!arguments.isEmpty, "SecretSource.command needs at least the program's name")
    let what = "the command '\(arguments.joined(separator: " "))'"
    var secret: SecureBuffer
    do { secret = try SecureBuffer(capacity: 256, storage: storage) } catch {
      throw .secureMemory(error)
    }
    var rest: SecureBuffer
    do { rest = try SecureBuffer(capacity: 4096, storage: storage) } catch {
      throw .secureMemory(error)
    }
    let ends: (read: Int32, write: Int32)
    switch System.makePipe() {
    case .success(let pipe): ends = pipe
    case .failure(let errno):
      throw SecretSourceError(
        .commandNotStarted, errno: errno.code, "cannot start \(what): \(errno.description)")
    }
    defer { System.close(ends.read) }
    let processID: Int32
    switch System.spawn(arguments, streams: StandardStreams(output: .descriptor(ends.write))) {
    case .success(let started): processID = started
    case .failure(let errno):
      System.close(ends.write)
      throw SecretSourceError(
        .commandNotStarted, errno: errno.code, "cannot run \(what): \(errno.description)")
    }
    System.close(ends.write)

    let deadline = ContinuousClock.now + timeout
    var sawLineFeed = false
    var failure: SecretSourceError?
    reading: while true {
      let left = max(.zero, deadline - .now)
      let outcome: ReadOutcome
      do {
        if sawLineFeed {
          rest.removeAll()
          outcome = try rest.read(from: ends.read, maximumCount: 4096, timeout: left)
        } else {
          outcome = try secret.read(from: ends.read, maximumCount: 512, timeout: left)
        }
      } catch {
        failure = .readFailed("the output of \(what)", error)
        break reading
      }
      switch outcome {
      case .bytes:
        if !sawLineFeed {
          sawLineFeed = secret.withUnsafeBytes(Self.firstLineFeed) != nil
          if !sawLineFeed && secret.count > limit {
            failure = .tooLong("the output of \(what)", limit: limit)
            break reading
          }
        }
      case .endOfFile:
        break reading
      case .timedOut:
        if ContinuousClock.now >= deadline {
          failure = sawLineFeed ? notExited(what, timeout) : noLine(what, timeout)
          break reading
        }
      case .interrupted:
        continue
      }
    }
    rest.removeAll()
    wipeStack(byteCount: 1024)
    if failure != nil { System.kill(processID) }
    // The output closed is not the command ended: its exit keeps to the same
    // deadline as its line.
    let status = System.wait(for: processID, killingAt: failure == nil ? deadline : nil)
    if failure == nil && status == nil {
      failure = secret.isEmpty ? noLine(what, timeout) : notExited(what, timeout)
    }
    if let failure {
      secret.removeAll()
      throw failure
    }
    switch status {
    case .exited(0)?, nil:
      break
    case .exited(let code)?:
      secret.removeAll()
      throw SecretSourceError(.commandFailed, "\(what) failed: it exited with status \(code)")
    case .signalled(let signal)?:
      secret.removeAll()
      throw SecretSourceError(
        .commandFailed,
        "\(what) failed: it was ended by signal \(signal) (SIG\(System.signalName(signal)))")
    }
    try keepFirstLine(of: &secret, named: "the output of \(what)", limit: limit)
    return secret
  }

  static func noLine(_ what: String, _ timeout: Duration) -> SecretSourceError {
    SecretSourceError(
      .commandFailed, "\(what) printed no line within \(seconds(timeout)); it was ended")
  }

  static func notExited(_ what: String, _ timeout: Duration) -> SecretSourceError {
    SecretSourceError(
      .commandFailed,
      "\(what) printed its line but did not exit within \(seconds(timeout)); it was ended")
  }

  /// `30 s`, `2.5 s`: a timeout for a message.
  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let tenths = attoseconds / 100_000_000_000_000_000
    return tenths == 0 ? "\(seconds) s" : "\(seconds).\(tenths) s"
  }
}
