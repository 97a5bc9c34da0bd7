import Synchronization

/// The write end of the installed relay's pipe, for the signal handler. An
/// atomic, because a handler may read it on any thread at any time; set before
/// any handler is installed, so the handler never runs its lazy initialiser.
private let relayWriteEnd = Atomic<Int32>(-1)

/// Whether the installed relay writes signals into its pipe (true) or lets
/// them act as they would without it (false, between a session's prompts).
private let relayIsRelaying = Atomic<Bool>(true)

/// The handler: writes the signal number into the pipe, and nothing else.
///
/// `write(2)` is async-signal-safe; `errno` is saved and restored so that the
/// interrupted code does not see the handler's. A full pipe drops the byte,
/// which is harmless: one pending byte of a kind is enough for the loop to act.
let relaySignal: @convention(c) (Int32) -> Void = { number in
  let savedErrno = Platform.errno
  guard relayIsRelaying.load(ordering: .sequentiallyConsistent) else {
    actAsDefault(number)
    Platform.setErrno(savedErrno)
    return
  }
  var byte = UInt8(truncatingIfNeeded: number)
  Platform.writeSignalByte(relayWriteEnd.load(ordering: .relaxed), &byte)
  Platform.setErrno(savedErrno)
}

/// What a signal does while the relay is paused: what its default action
/// would do. A fatal one kills the process by the same signal; a stop stops
/// it and, once continued, puts the relay's handler back; `SIGCONT` and
/// `SIGWINCH` do nothing. Only async-signal-safe calls (`sigaction`,
/// `pthread_sigmask`, `raise`, `_exit`).
private func actAsDefault(_ number: Int32) {
  switch TerminalSignal(number: number).response {
  case .die:
    Platform.raiseWithDefaultAction(number)
    Platform.exitImmediately(128 + number)
  case .stop:
    Platform.raiseWithDefaultAction(number)
    _ = Platform.installHandler(relaySignal, for: number, blocking: [])
  case .resume, .resize:
    break
  }
}

/// Delivers signals into the prompt's main loop through a self-pipe.
///
/// The handler only writes the signal number into a non-blocking pipe; the main
/// loop polls ``descriptor`` beside the terminal in one `poll(2)`, reads the
/// numbers with ``pendingSignals()``, and does the work (restoring the terminal,
/// wiping the secret) in ordinary code. No work happens inside the handler.
///
/// A signal the process started with ignored (`nohup`, a background job of a
/// shell without job control) stays ignored. Dropping the relay puts back the
/// dispositions it found. Only one relay may be installed at a time.
///
/// A program that asks more than once (a pinentry's session) keeps one relay
/// and pauses it between prompts (``pauseRelaying()``): while paused, each
/// signal does what its default action would (fatal ones kill the process),
/// with no system call to switch, where dropping and making a relay again
/// costs a pipe and two `sigaction` calls per signal.
package struct SignalRelay: ~Copyable {
  /// The pipe's read end: readable when a signal is pending. Poll it beside the
  /// terminal.
  package let descriptor: Int32
  let writeEnd: Int32
  /// The signals relayed, and the disposition each had before.
  var previous: [(signal: TerminalSignal, disposition: Platform.Disposition)] = []

  /// Creates the pipe and installs the handler for each of `signals` that is not
  /// ignored (`sigaction`, without `SA_RESTART`, so a blocking `poll` or `read`
  /// returns `EINTR` at once).
  ///
  /// - Precondition: no other relay is installed.
  /// - Throws: ``TerminalError`` with code `signalSetupFailed` when no pipe can be
  ///   made.
  package init(signals: [TerminalSignal] = TerminalSignal.relayed) throws(TerminalError) {
    let ends: (read: Int32, write: Int32)
    switch Platform.makeNonBlockingPipe() {
    case .success(let pipe): ends = pipe
    case .failure(let errno): throw .signalSetupFailed(errno: errno)
    }
    let (exchanged, _) = relayWriteEnd.compareExchange(
      expected: -1, desired: ends.write, ordering: .sequentiallyConsistent)
    precondition(exchanged, "SignalRelay: another relay is installed; drop it first")
    relayIsRelaying.store(true, ordering: .sequentiallyConsistent)
    descriptor = ends.read
    writeEnd = ends.write
    let numbers = signals.map(\.number)
    for signal in signals where !Platform.currentDisposition(of: signal.number).isIgnore {
      let old = Platform.installHandler(relaySignal, for: signal.number, blocking: numbers)
      previous.append((signal, old))
    }
  }

  deinit {
    for (signal, disposition) in previous {
      Platform.restoreDisposition(disposition, for: signal.number)
    }
    relayWriteEnd.store(-1, ordering: .sequentiallyConsistent)
    Platform.close(descriptor)
    Platform.close(writeEnd)
  }

  /// Whether signals go into the pipe (true, from ``init(signals:)`` on) or
  /// act as their default actions would (false, after ``pauseRelaying()``).
  package var isRelaying: Bool { relayIsRelaying.load(ordering: .sequentiallyConsistent) }

  /// Lets every relayed signal act as its default action would, until
  /// ``resumeRelaying()``: a fatal one kills the process by the same signal,
  /// a stop stops it, `SIGCONT` and `SIGWINCH` do nothing. For the time
  /// between prompts, when no loop reads the pipe and the terminal is restored.
  ///
  /// The signals that came before are still in the pipe: read them with
  /// ``pendingSignals()`` after this, so that none is lost between the two.
  ///
  /// - Complexity: an atomic store; no system call. The handlers stay
  ///   installed, so the dispositions a `fork`ed child inherits are the relay's.
  package func pauseRelaying() {
    relayIsRelaying.store(false, ordering: .sequentiallyConsistent)
  }

  /// Relays signals into the pipe again after ``pauseRelaying()``.
  ///
  /// - Complexity: an atomic store; no system call.
  package func resumeRelaying() {
    relayIsRelaying.store(true, ordering: .sequentiallyConsistent)
  }

  /// The signals that were relayed: those asked for that were not ignored.
  package var relayedSignals: [TerminalSignal] { previous.map(\.signal) }

  /// Reads every signal number waiting in the pipe, in arrival order, without
  /// blocking; empty when none is.
  ///
  /// - Complexity: one `read(2)` per 64 pending signals, plus one.
  package func pendingSignals() -> [TerminalSignal] {
    var signals: [TerminalSignal] = []
    var chunk: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
      0, 0, 0, 0, 0, 0, 0, 0
    )
    while true {
      let got = withUnsafeMutableBytes(of: &chunk) { raw in
        let got = Platform.readAvailable(descriptor, into: raw)
        for index in 0..<got { signals.append(TerminalSignal(number: Int32(raw[index]))) }
        return got
      }
      if got < MemoryLayout.size(ofValue: chunk) { return signals }
    }
  }
}
