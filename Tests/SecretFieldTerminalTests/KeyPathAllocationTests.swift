import AllocationCounter
import Glibc
import SecretField
import SecretFieldTerminal
import Testing

/// The prompt's key path without its terminal, as `PromptLoop` runs it: the
/// editor takes a key, the field renders into a kept line, the renderer draws
/// into a kept ``ScreenOutput``, and a ``ScreenWriter`` writes it, to a pipe
/// here. Counts the allocations of each step on this thread with the test
/// binary's counting allocator (`AllocationCounter`, which defines malloc,
/// calloc and realloc for the whole process).
private struct CountedKeyPath: ~Copyable {
  var editor: PromptField
  var renderer: PromptRenderer
  var line: DisplayLine
  var cellColumns: [Int] = []
  var statusLines: [PromptStatusLine] = []
  var output = ScreenOutput()
  var writer: ScreenWriter
  /// The pipe the writer writes to: its read end, then its write end.
  let pipe: (read: Int32, write: Int32)
  /// Every frame's bytes, gathered outside the counts, to compare with what
  /// came through the pipe.
  var written: [UInt8] = []
  var editedFrom: Int?
  let now = ContinuousClock.now
  /// The key typed, made before anything is counted.
  let key: [UInt8] = [UInt8(ascii: "x")]

  init() throws {
    // First, so that a failure leaves nothing half made.
    var descriptors: [Int32] = [-1, -1]
    guard Glibc.pipe(&descriptors) == 0 else { throw PipeFailed() }
    let configuration = PromptConfiguration()
    let locale = TerminalLocale(environment: ["LANG": "C.UTF-8"])
    editor = try PromptField(configuration: configuration, locale: locale)
    renderer = PromptRenderer(
      configuration: configuration, locale: locale,
      statusLineCapacity: editor.maximumStatusLineCount(annotating: false))
    line = editor.field.render(at: now)
    pipe = (descriptors[0], descriptors[1])
    writer = ScreenWriter(descriptor: descriptors[1])
  }

  deinit {
    close(pipe.read)
    close(pipe.write)
  }

  struct PipeFailed: Error {}

  /// The frame written; the allocations it took.
  mutating func write() throws -> UInt {
    let before = allocation_counter_thread_calls()
    try writer.write(output, revealingFrom: editor.field)
    let allocations = allocation_counter_thread_calls() - before
    written += output.text
    return allocations
  }

  /// What came through the pipe so far (less than its 64 KiB).
  func readBack() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: 65_536)
    let count = bytes.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, $0.count) }
    return Array(bytes.prefix(max(0, count)))
  }

  /// A key handled; the allocations it took.
  mutating func handle(_ event: KeyEvent) -> UInt {
    let now = self.now
    let before = allocation_counter_thread_calls()
    let reaction = key.withUnsafeBytes { editor.handle(event, payload: $0, at: now) }
    let allocations = allocation_counter_thread_calls() - before
    precondition(reaction.outcome == nil && !reaction.ringsBell, "the key was refused")
    editedFrom = reaction.editedFrom
    return allocations
  }

  /// A frame drawn into the kept buffers; the allocations it took.
  mutating func draw() -> UInt {
    let before = allocation_counter_thread_calls()
    editor.field.render(at: now, into: &line)
    renderer.cellColumns(of: line, in: editor.field, into: &cellColumns)
    editor.statusLines(for: line, annotation: nil, into: &statusLines)
    renderer.draw(
      line, cellColumns: cellColumns, status: statusLines, columns: 80, rows: 24,
      editedFrom: editedFrom, into: &output)
    let allocations = allocation_counter_thread_calls() - before
    editedFrom = nil
    return allocations
  }

  /// The frame drawn as operations, as the allocating API returns them.
  var operations: [ScreenOperation] { output.operations }
}

@Suite("The key path allocates nothing once its buffers have grown")
struct KeyPathAllocationTests {
  @Test("a masked key typed at the end, and a backspace at the end: no allocation, key to bytes")
  func appendAndBackspace() throws {
    var path = try CountedKeyPath()
    // The first entry grows every buffer to the length of the field.
    #expect(path.draw() > 0, "control: the first frame's buffers are allocated, and counted")
    _ = try path.write()
    for _ in 0..<32 {
      _ = path.handle(.text)
      _ = path.draw()
      _ = try path.write()
    }
    for _ in 0..<32 {
      _ = path.handle(.deleteBackward)
      _ = path.draw()
      _ = try path.write()
    }
    for length in 1...32 {
      #expect(path.handle(.text) == 0, "typing character \(length)")
      #expect(path.draw() == 0, "drawing character \(length)")
      #expect(try path.write() == 0, "writing character \(length)")
      #expect(path.operations.count == 1, "one text, nothing revealed")
    }
    for length in (0..<32).reversed() {
      #expect(path.handle(.deleteBackward) == 0, "erasing down to \(length)")
      #expect(path.draw() == 0, "drawing \(length) characters")
      #expect(try path.write() == 0, "writing \(length) characters")
    }
    #expect(path.readBack() == path.written, "every frame reached the pipe, in order")
  }

  @Test("a first entry's frames grow their buffers by doubling: fewer allocations than keys")
  func firstEntryGrowsByDoubling() throws {
    // What the process sets up once, on the first frames any prompt draws
    // (about 30 allocations on the first two keys), is not this entry's
    // buffers growing: paid here, on a path of its own, whatever ran first.
    do {
      var warmUp = try CountedKeyPath()
      for _ in 0..<2 {
        _ = warmUp.handle(.text)
        _ = warmUp.draw()
        _ = try warmUp.write()
      }
    }
    var path = try CountedKeyPath()
    _ = path.draw()
    _ = try path.write()
    let keys = 128
    var allocations: UInt = 0
    for _ in 0..<keys {
      _ = path.handle(.text)
      allocations += path.draw()
      allocations += try path.write()
    }
    // Each buffer doubles about seven times on the way to 128 cells; an exact
    // reservation made the line's cells anew for every key (128 and more).
    #expect(allocations > 0, "control: the buffers did grow, and it was counted")
    #expect(allocations < UInt(keys) / 2, "\(allocations) allocations for \(keys) keys")
    #expect(path.readBack() == path.written, "every frame reached the pipe, in order")
  }

  @Test("control: the counter sees the allocating API on this thread")
  func allocatingAPICounted() throws {
    var driver = try PromptDriver()
    driver.draw()
    driver.type("x")
    let before = allocation_counter_thread_calls()
    let frame = driver.draw()
    let allocations = allocation_counter_thread_calls() - before
    #expect(frame == [.text("•")])
    #expect(allocations > 0, "the operations array and its string are allocated")
  }

  @Test("the bytes drawn into a kept output are the operations' bytes")
  func sameBytes() throws {
    var path = try CountedKeyPath()
    var driver = try PromptDriver()
    _ = path.draw()
    driver.draw()
    for _ in 0..<3 {
      _ = path.handle(.text)
      _ = path.draw()
      driver.type("x")
      #expect(path.operations == driver.draw())
    }
    _ = path.handle(.deleteBackward)
    _ = path.draw()
    driver.handle(.deleteBackward)
    #expect(path.operations == driver.draw())
  }
}
