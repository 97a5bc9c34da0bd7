import Glibc
import SecureMemory
import Testing

/// Runs `body(index)` on `count` new POSIX threads at once and waits for all.
///
/// Real threads, not tasks: the cooperative pool has only as many threads as
/// cores, and the point is many threads on few cores.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  final class Start {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
  }
  var threads: [pthread_t] = []
  for index in 0..<count {
    let start = Unmanaged.passRetained(Start { body(index) }).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Start>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, start)
    precondition(created == 0, "pthread_create failed")
    threads.append(thread)
  }
  for thread in threads { pthread_join(thread, nil) }
}

/// Buffers made before the threads start, read by all of them at once.
final class SharedBuffers: @unchecked Sendable {
  // Unchecked: only read windows are opened on them, which may be concurrent.
  let buffers: [HeldBuffer]
  init(_ buffers: [HeldBuffer]) { self.buffers = buffers }
}

/// Counts the checks that failed, across threads.
final class FailureCount: @unchecked Sendable {
  private var count = 0
  private var lock = pthread_mutex_t()
  init() { pthread_mutex_init(&lock, nil) }
  func add(_ failures: Int) {
    pthread_mutex_lock(&lock)
    count += failures
    pthread_mutex_unlock(&lock)
  }
  var total: Int {
    pthread_mutex_lock(&lock)
    defer { pthread_mutex_unlock(&lock) }
    return count
  }
}

@Suite("SecureArena from many threads")
struct SecureArenaConcurrencyTests {
  @Test(
    "8 threads allocate, grow, free and read secrets on one arena while all read shared ones; every secret keeps its own bytes"
  )
  func eightThreads() async {
    // In a child: a race that made a page no-access under an open window
    // would end it by SIGSEGV, and the test would say so.
    await #expect(processExitsWith: .success) {
      let arena = try! SecureArena(name: "threads", storage: .strongestAvailable)
      let shared = SharedBuffers(
        (0..<200).map { index in
          var buffer = try! SecureBuffer(capacity: 32, in: arena)
          fill(&buffer, index: 1_000_000 + index, count: 32)
          return HeldBuffer(buffer)
        })
      let failures = FailureCount()
      runOnThreads(8) { thread in
        var generator = SystemRandomNumberGenerator()
        var live: [(index: Int, count: Int, held: HeldBuffer)] = []
        var bad = 0
        for step in 0..<3000 {
          let index = thread * 100_000 + step
          switch UInt8.random(in: 0..<8, using: &generator) {
          case 0, 1, 2:
            let count = Int.random(in: 1...300, using: &generator)
            var buffer = try! SecureBuffer(capacity: count, in: arena)
            fill(&buffer, index: index, count: count)
            live.append((index, count, HeldBuffer(buffer)))
          case 3...4 where !live.isEmpty:
            let victim = live.remove(at: Int.random(in: 0..<live.count, using: &generator))
            if !holdsPattern(victim.held.buffer, index: victim.index, count: victim.count) {
              bad += 1
            }
          case 5 where !live.isEmpty:
            // Grow one by a new secret's worth: it moves to a larger class.
            let position = Int.random(in: 0..<live.count, using: &generator)
            let entry = live[position]
            entry.held.buffer.removeAll()
            let count = min(entry.count * 2 + 1, 3000)
            fill(&entry.held.buffer, index: index, count: count)
            live[position] = (index, count, entry.held)
          default:
            let pick = Int.random(in: 0..<shared.buffers.count, using: &generator)
            if !holdsPattern(shared.buffers[pick].buffer, index: 1_000_000 + pick, count: 32) {
              bad += 1
            }
          }
        }
        for entry in live
        where !holdsPattern(entry.held.buffer, index: entry.index, count: entry.count) {
          bad += 1
        }
        failures.add(bad)
      }
      #expect(failures.total == 0)
      let intact = shared.buffers.indices.allSatisfy {
        holdsPattern(shared.buffers[$0].buffer, index: 1_000_000 + $0, count: 32)
      }
      #expect(intact)
      // Control: the checker sees a wrong byte.
      let checkerSeesWrongBytes = !holdsPattern(
        shared.buffers[0].buffer, index: 1_000_001, count: 32)
      #expect(checkerSeesWrongBytes)
    }
  }
}
