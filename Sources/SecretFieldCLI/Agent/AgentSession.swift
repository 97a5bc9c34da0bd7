import PasswordAgent
import SecretField
import SecretFieldTerminal
import SecureMemory
import ToolSupport

/// The work of `secretfield agent`: scans the request directory, asks each
/// request on the terminal oldest first, answers its socket, and says on
/// standard error what it skipped, once per file.
struct AgentSession {
  let context: CommandContext
  let directory: RequestDirectory
  let terminalPath: String
  let allowsSuspend: Bool
  /// Skips already said, so a watch that rescans says each once.
  var reportedSkips: Set<SkippedRequest> = []
  /// Requests asked already, so one whose file is still there (its asker has
  /// not removed it yet) is not asked again.
  var asked: Set<PendingRequest> = []
  /// The keyring failure already warned of, so it is said once per run.
  var keyringWarning: KeyringError.Code?

  /// How asking one request ended, for the agent.
  enum AskOutcome {
    /// Answered with the password, or with `-` for Esc.
    case answered
    case cancelled
    /// Taken back while asked; nothing was sent.
    case withdrawn
    /// The agent stops: ^C, the terminal went away, or it cannot prompt.
    case stop(ExitStatus)
  }

  // MARK: The modes

  /// `--list`: one line per waiting request on standard output.
  mutating func list() -> ExitStatus {
    guard let scan = scan() else { return .cancelled }
    let now = PasswordRequest.monotonicNow()
    for pending in scan.requests {
      context.printOutput(RequestPrompt.listing(pending, now: now) + "\n")
    }
    return .success
  }

  /// `--query`: asks what is waiting now, oldest first, then returns.
  mutating func query() -> ExitStatus {
    // The watch before the scan: a file removed after the scan is noticed.
    let watch: RequestWatch
    do {
      watch = try RequestWatch(directory)
    } catch {
      // No directory, no request; a directory that cannot be watched is an error.
      guard let scan = scan(), scan.requests.isEmpty else {
        context.printError("\(error) (\(directory.path))", command: AgentCommand.name)
        return .cancelled
      }
      return .success
    }
    guard let scan = scan() else { return .cancelled }
    var status = ExitStatus.success
    for (index, pending) in scan.requests.enumerated() {
      let withdrawal = PromptWithdrawal(
        descriptor: watch.descriptor,
        isWithdrawn: watch.withdrawalCheck(for: pending, in: directory))
      let outcome = ask(
        pending, position: index + 1, count: scan.requests.count, withdrawal: withdrawal)
      switch outcome {
      case .answered, .withdrawn: break
      case .cancelled: status = .cancelled
      case .stop(let ending): return ending
      }
    }
    return status
  }

  /// `--watch`: asks every request as it comes, until a signal ends it.
  mutating func watch() -> ExitStatus {
    let watch: RequestWatch
    do {
      watch = try RequestWatch(directory)
    } catch {
      context.printError("\(error) (\(directory.path))", command: AgentCommand.name)
      return .cancelled
    }
    while true {
      guard let scan = scan() else { return .cancelled }
      let present = Set(scan.requests.map(\.fileName))
      asked = asked.filter { present.contains($0.fileName) }
      let waiting = scan.requests.filter { !asked.contains($0) }
      for (index, pending) in waiting.enumerated() {
        asked.insert(pending)
        let withdrawal = PromptWithdrawal(
          descriptor: watch.descriptor,
          isWithdrawn: watch.withdrawalCheck(for: pending, in: directory))
        if case .stop(let ending) = ask(
          pending, position: index + 1, count: waiting.count, withdrawal: withdrawal)
        {
          return ending
        }
      }
      // Something may have come while asking: scan again before sleeping.
      if !waiting.isEmpty { continue }
      _ = watch.waitForChange()
    }
  }

  // MARK: Asking one request

  /// Asks `pending` on the terminal, unless it went away meanwhile, and
  /// answers its socket. `withdrawal` says how its file's removal is noticed;
  /// its deadline is the request's `NotAfter=`.
  mutating func ask(
    _ pending: PendingRequest, position: Int, count: Int, withdrawal: PromptWithdrawal
  ) -> AskOutcome {
    let request = pending.request
    // Asked after others: it may have gone, or expired, while they were.
    let now = PasswordRequest.monotonicNow()
    guard directory.stillHolds(pending), !request.hasExpired(at: now) else { return .withdrawn }
    let quoted = "'\(request.displayMessage)'"
    // The socket the scan checked, connected now: the answer goes there
    // whatever becomes of its name while the prompt is up.
    let socket: ReplySocket
    do {
      socket = try directory.connect(to: pending)
    } catch {
      context.printError("\(quoted) was not asked: \(error)", command: AgentCommand.name)
      return .withdrawn
    }
    // As systemd's agents: a passphrase the keyring caches answers unasked.
    if request.acceptsCached, let outcome = answerFromCache(request, on: socket) {
      return outcome
    }
    let configuration = RequestPrompt.configuration(
      for: request, position: position, count: count, terminalPath: terminalPath,
      allowsSuspend: allowsSuspend)
    var withdrawal = withdrawal
    withdrawal.deadline = request.deadline(at: now)
    return prompt(
      request, configuration: configuration, withdrawal: withdrawal, quoted: quoted,
      replyingOn: socket)
  }

  /// Asks `request` with `configuration` and replies on `socket`.
  func prompt(
    _ request: PasswordRequest, configuration: PromptConfiguration,
    withdrawal: PromptWithdrawal, quoted: String, replyingOn socket: borrowing ReplySocket
  ) -> AskOutcome {
    // The reply goes out before the prompt restores the terminal: while an
    // asker that does not read holds the send, echo stays off. A signal ends
    // the send at once (the relay's pipe wakes it); a fatal one then ends the
    // agent as soon as the terminal is restored.
    var reply: Result<Void, AgentError>? = nil
    let result: EntryOutcome<SecureBuffer>
    do {
      result = try PasswordPrompt(configuration).run(
        annotation: nil, withdrawal: withdrawal,
        beforeRestoring: { result, wake in
          reply = Self.reply(to: result, on: socket, interruptedBy: wake.descriptors.first)
        })
    } catch {
      context.printError(error.description, command: AgentCommand.name)
      return .stop(PromptOptions.status(forPromptError: error))
    }
    switch consume result {
    case .submitted:
      if case .failure(let error) = reply {
        context.printError("\(quoted): \(error)", command: AgentCommand.name)
        return .cancelled
      }
      return .answered
    case .ended(.cancelled(let cancellation)):
      return cancellation == .interrupt ? .stop(.cancelled) : .cancelled
    case .ended(.timedOut):
      return .withdrawn
    case .ended(.withdrawn):
      let why =
        request.hasExpired(at: PasswordRequest.monotonicNow())
        ? "its time ran out" : "its request file was removed"
      context.printError("\(quoted) was withdrawn: \(why)", command: AgentCommand.name)
      return .withdrawn
    case .ended(.hungUp):
      context.printError("the terminal went away", command: AgentCommand.name)
      return .stop(.noTerminal)
    case .ended(.confirmationFailed):
      return .cancelled
    case .ended(.declined):
      return .cancelled
    }
  }

  /// Sends what `result` says to the asker: the password, or `-` when the
  /// user declined; nil for a result that sends nothing. A wait for room ends
  /// when `interruption` (the signal relay's pipe) is readable.
  static func reply(
    to result: borrowing EntryOutcome<SecureBuffer>, on socket: borrowing ReplySocket,
    interruptedBy interruption: Int32?
  ) -> Result<Void, AgentError>? {
    do throws(AgentError) {
      switch result {
      case .submitted(let secret): try socket.answer(secret, interruptedBy: interruption)
      case .ended(.cancelled): try socket.cancel(interruptedBy: interruption)
      default: return nil
      }
    } catch {
      return .failure(error)
    }
    return .success(())
  }

  // MARK: Scanning

  /// Scans the directory and says each new skip; nil (after saying why) when
  /// the directory cannot be read.
  mutating func scan() -> RequestDirectory.Scan? {
    let scan: RequestDirectory.Scan
    do {
      scan = try directory.scan()
    } catch {
      context.printError("\(error) (\(directory.path))", command: AgentCommand.name)
      return nil
    }
    let current = Set(scan.skipped)
    for skipped in scan.skipped where !reportedSkips.contains(skipped) {
      context.printError("skipped \(skipped)", command: AgentCommand.name)
    }
    reportedSkips = current
    return scan
  }
}
