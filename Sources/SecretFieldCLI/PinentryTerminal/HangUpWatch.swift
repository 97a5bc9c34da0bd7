import Glibc
import SecretFieldTerminal

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
/// it sends `SIGHUP` to this process: the relay of the running prompt catches
/// it, and the prompt restores the terminal, wipes the field, and dies by it,
/// as it would if the terminal itself had hung up.
///
/// - Complexity: one thread and one pipe per request; no work while nothing
///   happens.
final class HangUpWatch: Sendable {
  private let thread: pthread_t?
  private let stopWrite: Int32

  /// Starts watching `descriptor`; nil (or a failure to start) watches nothing.
  init(descriptor: Int32?) {
    var ends: [Int32] = [-1, -1]
    guard let descriptor, pipe(&ends) == 0 else {
      thread = nil
      stopWrite = -1
      return
    }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    let stopRead = ends[0]
    let context = Unmanaged.passRetained(Watch(client: descriptor, stop: stopRead)).toOpaque()
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
      stopWrite = -1
      return
    }
    thread = created
    stopWrite = ends[1]
  }

  /// Stops the thread and waits for it; the pipe is closed.
  func stop() {
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

    init(client: Int32, stop: Int32) {
      self.client = client
      self.stop = stop
    }

    func run() {
      defer { close(stop) }
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
          kill(getpid(), SIGHUP)
          return
        }
      }
    }
  }
}
