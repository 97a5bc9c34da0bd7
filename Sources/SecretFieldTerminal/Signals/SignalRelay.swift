import Synchronization

/// The write end of the installed relay's pipe, for the signal handler. An
/// atomic, because a handler may read it on any thread at any time; set before
/// any handler is installed, so the handler never runs its lazy initialiser.
private let relayWriteEnd = Atomic<Int32>(-1)

/// The handler: writes the signal number into the pipe, and nothing else.
///
/// `write(2)` is async-signal-safe; `errno` is saved and restored so that the
/// interrupted code does not see the handler's. A full pipe drops the byte,
/// which is harmless: one pending byte of a kind is enough for the loop to act.
let relaySignal: @convention(c) (Int32) -> Void = { number in
  let savedErrno = Platform.errno
  var byte = UInt8(truncatingIfNeeded: number)
  Platform.writeSignalByte(relayWriteEnd.load(ordering: .relaxed), &byte)
  Platform.setErrno(savedErrno)
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
public struct SignalRelay: ~Copyable {
  /// The pipe's read end: readable when a signal is pending. Poll it beside the
  /// terminal.
  public let descriptor: Int32
  let writeEnd: Int32
  /// The signals relayed, and the disposition each had before.
  var previous: [(signal: TerminalSignal, disposition: Platform.Disposition)] = []

  /// Creates the pipe and installs the handler for each of `signals` that is not
  /// ignored (`sigaction`, without `SA_RESTART`, so a blocking `poll` or `read`
  /// returns `EINTR` at once).
  ///
  /// - Precondition: no other relay is installed.
  /// - Throws: ``PromptError`` with code `signalSetupFailed` when no pipe can be
  ///   made.
  public init(signals: [TerminalSignal] = TerminalSignal.relayed) throws(PromptError) {
    let ends: (read: Int32, write: Int32)
    switch Platform.makeNonBlockingPipe() {
    case .success(let pipe): ends = pipe
    case .failure(let errno): throw .signalSetupFailed(errno: errno)
    }
    let (exchanged, _) = relayWriteEnd.compareExchange(
      expected: -1, desired: ends.write, ordering: .sequentiallyConsistent)
    precondition(exchanged, "SignalRelay: another relay is installed; drop it first")
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

  /// The signals that were relayed: those asked for that were not ignored.
  public var relayedSignals: [TerminalSignal] { previous.map(\.signal) }

  /// Reads every signal number waiting in the pipe, in arrival order, without
  /// blocking; empty when none is.
  ///
  /// - Complexity: one `read(2)` per 64 pending signals, plus one.
  public func pendingSignals() -> [TerminalSignal] {
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
