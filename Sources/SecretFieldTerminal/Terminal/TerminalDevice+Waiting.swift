package import SecureMemory
import SystemCalls

extension TerminalDevice {
  /// Waits in one `poll(2)` for the terminal to have input or a signal to
  /// arrive, until `deadline` (nil: without limit). Empty when the deadline
  /// passed.
  ///
  /// The prompt's main loop: the relay's pipe and the terminal side by side,
  /// so a signal is handled at once even while no key comes.
  ///
  /// - Throws: ``TerminalError`` with code `readFailed` when `poll` fails.
  package func waitForInput(
    or relay: borrowing SignalRelay, until deadline: ContinuousClock.Instant?
  ) throws(TerminalError) -> Readiness {
    try waitForInput(or: relay, watching: nil, until: deadline)
  }

  /// Waits as ``waitForInput(or:until:)`` does, and also for `watched` (nil:
  /// none) to be readable, which is reported as ``Readiness/watched``: a
  /// caller's reason to end the prompt from outside (``PromptWithdrawal``).
  package func waitForInput(
    or relay: borrowing SignalRelay, watching watched: Int32?,
    until deadline: ContinuousClock.Instant?
  ) throws(TerminalError) -> Readiness {
    let timeout = System.pollTimeout(until: deadline)
    switch Platform.poll(descriptor, relay.descriptor, watched, timeoutMilliseconds: timeout) {
    case .failure(let errno):
      throw .readFailed(errno: errno.code, errno.description)
    case .success(let result):
      if result.interrupted { return .signal }
      var readiness: Readiness = []
      if result.isReadable(0) { readiness.insert(.input) }
      if result.isReadable(1) { readiness.insert(.signal) }
      if result.isReadable(2) { readiness.insert(.watched) }
      return readiness
    }
  }

  /// Reads what the terminal has into the decoder's secure input: one `read(2)`
  /// straight into secure memory (`SecureBuffer.read(from:maximumCount:timeout:)`),
  /// without waiting. Call it when ``waitForInput(or:until:)`` reported input.
  ///
  /// - Returns: what the read found; `.endOfFile` means the terminal hung up.
  /// - Throws: ``TerminalError`` with code `readFailed`.
  package func read(
    into decoder: inout KeyDecoder, maximumCount: Int = 256
  ) throws(TerminalError) -> ReadOutcome {
    do {
      return try decoder.receive { input throws(SecureMemoryError) in
        try input.read(from: descriptor, maximumCount: maximumCount, timeout: .zero)
      }
    } catch {
      throw .readFailed(errno: error.errno, error.description)
    }
  }
}
