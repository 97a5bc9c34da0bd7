import Glibc
import SecretFieldTerminal
import Synchronization

/// Watches the pipe a pinentry's answers go to while the user is asked, and
/// turns the client's going away into `SIGHUP` for this process.
///
/// The prompt waits on the terminal and its signal relay only; it cannot see
/// that gpg-agent went away (killed, or `gpgconf --kill gpg-agent`) and would
/// keep the terminal in raw mode until the user answered a client that is no
/// more. The watch is a thread that polls the answers' descriptor with no
/// events asked, so that only `POLLERR` (a pipe whose reader is gone) and
/// `POLLHUP` wake it, beside a pipe that stops it. The output rather than
/// the input: a client that closed its requests but still reads (`echo GETPIN
/// | pinentry-secretfield`) still gets its answer. On the client's going away
/// while the watch is armed (``arm()``, while a request asks) it sends `SIGHUP`
/// to this process: the relay of the running prompt catches it, and the prompt
/// restores the terminal, wipes the field, and dies by it, as it would if the
/// terminal itself had hung up. Disarmed (between requests) it sends nothing:
/// the session sees the end of its input and ends as usual.
///
/// One watch serves the whole session: arming and disarming are atomic
/// stores, so a request starts no thread and makes no pipe.
///
/// - Complexity: one thread (its stack mapped, a `clone3`) and one pipe per
///   session; no work while nothing happens; no system call to arm or disarm.
final class HangUpWatch: Sendable {
  private let thread: pthread_t?
  private let stopWrite: Int32
  private let arming = Arming()

  /// The watch's states, as ``Arming`` holds them.
  private enum State {
    /// No request asks: the client's going away is not signalled.
    static let disarmed = 0
    /// A request asks: the client's going away is signalled.
    static let armed = 1
    /// The client went away while disarmed; the thread has ended. Arming
    /// signals at once.
    static let goneWhileDisarmed = 2
    /// `SIGHUP` was sent; the thread has ended.
    static let signalled = 3
  }

  /// Starts watching `descriptor`, disarmed; nil (or a failure to start)
  /// watches nothing.
  init(descriptor: Int32?) {
    var ends: [Int32] = [-1, -1]
    guard let descriptor, pipe(&ends) == 0 else {
      thread = nil
      stopWrite = -1
      return
    }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    stopWrite = ends[1]
    let watch = Watch(client: descriptor, stop: ends[0], arming: arming)
    let context = Unmanaged.passRetained(watch).toOpaque()
    var created = pthread_t()
    let result = pthread_create(
      &created, nil,
      { context in
        let watch = Unmanaged<Watch>.fromOpaque(context!).takeRetainedValue()
        // It runs while the terminal is raw: a fault here must restore it.
        FaultHandler.withAlternateStack { watch.run() }
        return nil
      }, context)
    if result != 0 {
      Unmanaged<Watch>.fromOpaque(context).release()
      close(ends[0])
      close(ends[1])
      thread = nil
      return
    }
    thread = created
  }

  /// Signals the client's going away from now on, until ``disarm()``; sends
  /// `SIGHUP` at once if it went away while disarmed.
  func arm() { arming.arm() }

  /// Stops signalling the client's going away.
  func disarm() { arming.disarm() }

  /// Whether the client's going away is signalled, shared by the watch and
  /// its thread.
  private final class Arming: Sendable {
    let state = Atomic<Int>(State.disarmed)

    func arm() {
      let (exchanged, found) = state.compareExchange(
        expected: State.disarmed, desired: State.armed, ordering: .sequentiallyConsistent)
      if !exchanged && found == State.goneWhileDisarmed {
        state.store(State.signalled, ordering: .sequentiallyConsistent)
        kill(getpid(), SIGHUP)
      }
    }

    func disarm() {
      _ = state.compareExchange(
        expected: State.armed, desired: State.disarmed, ordering: .sequentiallyConsistent)
    }

    /// The thread saw the client go away: signals now if armed, else when
    /// armed next.
    func clientWentAway() {
      while true {
        let (signals, found) = state.compareExchange(
          expected: State.armed, desired: State.signalled, ordering: .sequentiallyConsistent)
        if signals {
          kill(getpid(), SIGHUP)
          return
        }
        guard found == State.disarmed else { return }
        let (noted, _) = state.compareExchange(
          expected: State.disarmed, desired: State.goneWhileDisarmed,
          ordering: .sequentiallyConsistent)
        // Armed in between: try again, and signal.
        if noted { return }
      }
    }
  }

  /// Stops the thread and waits for it; the pipe is closed.
  deinit {
    guard let thread else { return }
    var byte: UInt8 = 1
    _ = write(stopWrite, &byte, 1)
    pthread_join(thread, nil)
    close(stopWrite)
  }

  /// The thread's work: poll until the client is gone or the stop comes.
  private final class Watch: Sendable {
    let client: Int32
    let stop: Int32
    let arming: Arming

    init(client: Int32, stop: Int32, arming: Arming) {
      self.client = client
      self.stop = stop
      self.arming = arming
    }

    func run() {
      defer { close(stop) }
      // Signals go to the main thread, whose relay or default action answers
      // them; this thread only polls.
      var all = sigset_t()
      sigfillset(&all)
      pthread_sigmask(SIG_BLOCK, &all, nil)
      var descriptors = [
        pollfd(fd: client, events: 0, revents: 0),
        pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
      ]
      while true {
        let ready = poll(&descriptors, 2, -1)
        if ready < 0 {
          if errno == EINTR { continue }
          return
        }
        if descriptors[1].revents != 0 { return }
        if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
          arming.clientWentAway()
          return
        }
      }
    }
  }
}
