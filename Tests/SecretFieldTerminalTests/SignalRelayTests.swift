import Glibc
import PTYSupport
import SecretFieldTerminal
import Testing

/// Signal dispositions are process state: every test here runs in an exit-test
/// child. The child runs the test on a worker thread that blocks signals, so each
/// test unblocks them in its own thread first; then `raise` delivers before it
/// returns.
@Suite("SignalRelay delivers signals into the main loop")
struct SignalRelayTests {
  @Test("a raised SIGINT is relayed, not fatal, and arrives in order with others")
  func relays() async {
    await #expect(processExitsWith: .success) {
      let relay = try! SignalRelay()
      unblockSignalsInThisThread()
      raise(SIGINT)
      raise(SIGWINCH)
      raise(SIGTERM)
      #expect(relay.pendingSignals() == [.interrupt, .windowChange, .terminate])
      #expect(relay.pendingSignals() == [])
    }
  }

  @Test("the relay's descriptor wakes a wait beside the terminal")
  func wakesTheWait() async {
    await #expect(processExitsWith: .success) {
      let pty = try! PseudoTerminalPair()
      let terminal = try! TerminalDevice(path: pty.slavePath)
      let relay = try! SignalRelay()
      let idle = try! terminal.waitForInput(or: relay, until: .now)
      #expect(idle == [])
      unblockSignalsInThisThread()
      raise(SIGWINCH)
      let woken = try! terminal.waitForInput(or: relay, until: nil)
      #expect(woken == .signal)
      #expect(relay.pendingSignals() == [.windowChange])
      pty.type([0x61, 0x0A])  // a whole line: the terminal is in canonical mode
      let typed = try! terminal.waitForInput(or: relay, until: nil)
      #expect(typed == .input)
    }
  }

  @Test("a signal the process started with ignored stays ignored")
  func ignoredStaysIgnored() async {
    await #expect(processExitsWith: .success) {
      signal(SIGHUP, SIG_IGN)
      let relay = try! SignalRelay()
      #expect(!relay.relayedSignals.contains(.hangUp))
      #expect(relay.relayedSignals.contains(.interrupt))
      unblockSignalsInThisThread()
      raise(SIGHUP)
      #expect(relay.pendingSignals() == [])
    }
  }

  @Test("dropping the relay puts back the dispositions it found")
  func dropRestores() async {
    await #expect(processExitsWith: .signal(SIGINT)) {
      do { _ = try! SignalRelay() }
      unblockSignalsInThisThread()
      raise(SIGINT)
    }
  }

  @Test("control: with the relay in place the same SIGINT is not fatal")
  func dropRestoresControl() async {
    await #expect(processExitsWith: .success) {
      let relay = try! SignalRelay()
      unblockSignalsInThisThread()
      raise(SIGINT)
      withExtendedLifetime(relay.descriptor) {}
      _ = relay.pendingSignals()
    }
  }

  @Test("paused, a fatal signal kills the process by itself, as with no relay installed")
  func pausedFatalSignalKills() async {
    await #expect(processExitsWith: .signal(SIGTERM)) {
      let relay = try! SignalRelay()
      relay.pauseRelaying()
      unblockSignalsInThisThread()
      raise(SIGTERM)
      withExtendedLifetime(relay.descriptor) {}
    }
  }

  @Test("paused, SIGWINCH does nothing and is not relayed; resumed, signals are relayed again")
  func pausedThenResumed() async {
    await #expect(processExitsWith: .success) {
      let relay = try! SignalRelay()
      relay.pauseRelaying()
      let pausedIsRelaying = relay.isRelaying
      #expect(!pausedIsRelaying)
      unblockSignalsInThisThread()
      raise(SIGWINCH)
      #expect(relay.pendingSignals() == [])
      relay.resumeRelaying()
      let resumedIsRelaying = relay.isRelaying
      #expect(resumedIsRelaying)
      // The control: the same signals, relayed, are not fatal and arrive.
      raise(SIGWINCH)
      raise(SIGTERM)
      #expect(relay.pendingSignals() == [.windowChange, .terminate])
    }
  }

  @Test("a second relay while one is installed traps")
  func secondRelayTraps() async {
    await #expect(processExitsWith: .failure) {
      let first = try! SignalRelay()
      let second = try! SignalRelay()
      // Borrow both after: a noncopyable value ends at its last use.
      _ = first.descriptor + second.descriptor
    }
  }

  @Test("dieBy ends the process by that very signal")
  func diesBySignal() async {
    await #expect(processExitsWith: .signal(SIGTERM)) {
      let relay = try! SignalRelay()
      Self.die(by: .terminate, relay: relay)
    }
  }

  /// Calls `dieBy` on a borrowed relay: a local noncopyable value alive at a
  /// call that never returns draws a warning that its deinit never runs.
  static func die(by signal: TerminalSignal, relay: borrowing SignalRelay) {
    relay.dieBy(signal)
  }

  @Test("respond to a fatal signal: restores the terminal, wipes, then dies by it")
  func respondToFatal() async {
    await #expect(processExitsWith: .signal(SIGHUP)) {
      let pty = try! PseudoTerminalPair()
      let before = try! pty.attributes()
      var terminal = try! TerminalDevice(path: pty.slavePath)
      try! terminal.enterRawMode()
      let relay = try! SignalRelay()
      _ = try! relay.respond(to: .hangUp, terminal: &terminal) {
        // The wipe runs after the restore: the terminal is back already. A
        // different exit status, not a failed expectation, since the child
        // dies by the signal right after.
        if try! pty.attributes() != before { _exit(99) }
      }
    }
  }

  @Test("signals map to responses as readpassphrase has them")
  func responses() {
    for signal in TerminalSignal.fatal {
      #expect(signal.response == .die, "\(signal)")
    }
    for signal in [TerminalSignal.terminalStop, .backgroundRead, .backgroundWrite] {
      #expect(signal.response == .stop, "\(signal)")
    }
    #expect(TerminalSignal.continue.response == .resume)
    #expect(TerminalSignal.windowChange.response == .resize)
    // Every signal whose default action ends the process (signal(7): Term or
    // Core) but the faults, which the fault handler takes; the real-time ones
    // from the C library's SIGRTMIN, never the ones it keeps for itself.
    let fatal = Set(TerminalSignal.fatal.map(\.number))
    let realTime = Set(__libc_current_sigrtmin()...__libc_current_sigrtmax())
    #expect(!realTime.contains(32) && !realTime.isEmpty)
    #expect(
      fatal
        == Set([
          SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGPIPE, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF,
          SIGXCPU, SIGXFSZ, SIGPWR, SIGSTKFLT, SIGIO,
        ]).union(realTime))
    #expect(TerminalSignal.relayed.count == 20 + realTime.count)
    #expect(TerminalSignal(number: __libc_current_sigrtmin()).description == "SIGRTMIN")
    #expect(TerminalSignal(number: __libc_current_sigrtmin() + 2).description == "SIGRTMIN+2")
    #expect(TerminalSignal(number: __libc_current_sigrtmax()).description == "SIGRTMAX")
  }

  @Test("a raised SIGRTMIN and SIGRTMAX are relayed, not fatal")
  func relaysRealTime() async {
    await #expect(processExitsWith: .success) {
      let relay = try! SignalRelay()
      unblockSignalsInThisThread()
      raise(__libc_current_sigrtmin())
      raise(__libc_current_sigrtmax())
      #expect(
        relay.pendingSignals().map(\.number) == [
          __libc_current_sigrtmin(), __libc_current_sigrtmax(),
        ])
    }
  }
}

/// Unblocks every signal in the calling thread (`pthread_sigmask`).
func unblockSignalsInThisThread() {
  var none = sigset_t()
  sigemptyset(&none)
  pthread_sigmask(SIG_SETMASK, &none, nil)
}
