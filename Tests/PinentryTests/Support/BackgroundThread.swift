import Glibc

/// A POSIX thread running one closure, joined explicitly. Tests use it to run a
/// session while the test plays the client on its own thread.
final class BackgroundThread {
  private var thread = pthread_t()

  private final class Work {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  init(_ body: @escaping @Sendable () -> Void) {
    let work = Unmanaged.passRetained(Work(body)).toOpaque()
    let created = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
        return nil
      }, work)
    precondition(created == 0, "BackgroundThread: pthread_create failed with \(created)")
  }

  /// Waits for the closure to return.
  func join() {
    pthread_join(thread, nil)
  }
}
