import AllocationCounter
import SecretField
@_spi(Testing) import SecretFieldTerminal
import SecureMemory

/// `key_path_append`: one printable key typed at the end of a masked prompt,
/// in process, from the terminal's byte to the screen's bytes: the byte goes
/// into the decoder's secure input, is decoded and handed to the editor
/// (`PromptField.handle`) straight from there, in the one window it arrived
/// in (the field's text shares that window's region: `SharedSecureRegion`) (`KeyDecoder.receive(atMost:receivingWith:at:handling:)`, the event
/// loop's `read(from:at:handling:)` without the `read`), and the frame is drawn as the
/// prompt draws it (`render`, `cellColumns`, `statusLines`,
/// `PromptRenderer.draw`), its text gathered into a reused byte array instead
/// of written. No pty, no system call but the windows' `mprotect`.
///
/// Baseline (the floor): one protection pair on a raw `sodium_malloc` region
/// with a one-byte store, what any protected keystroke must pay.
///
/// Extra figures, counted over 1,000 keys (exact, not timed):
/// `key_path_append_mprotect` (protection changes per key, from SecureMemory's
/// `ProtectionChangeCount` seam) and `key_path_append_allocations` (calls of
/// malloc, calloc or realloc per key, from the executable's counting
/// allocator, `AllocationCounter`).
struct KeyPathBenchmarks: BenchmarkGroup {
  /// The field holds between `start` and `limit` characters while keys are
  /// timed: the length of a password, so the frame's cost is a short line's.
  static let start = 16
  static let limit = 64
  static let countedKeys = 1_000
  static let typed = UInt8(ascii: "x")

  let names = ["key_path_append", "key_path_append_mprotect", "key_path_append_allocations"]

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    var path = try KeyPath()
    let floor = RawSodiumRegion(size: 256, fill: 0x61)
    floor.protectNoAccess()
    defer { floor.free() }

    // The counts: around each key alone, so an entry's restart is not counted,
    // after a first entry to the limit has grown the buffers the frames reuse.
    path.restart(typing: Self.limit)
    path.restart(typing: 0)
    var protections = 0
    var allocations = 0
    for _ in 0..<Self.countedKeys {
      if path.count == Self.limit { path.restart(typing: 0) }
      let protectionsBefore = ProtectionChangeCount.current
      let allocationsBefore = allocation_counter_calls()
      path.typeKey()
      allocations += Int(allocation_counter_calls() - allocationsBefore)
      protections += ProtectionChangeCount.current - protectionsBefore
    }
    blackhole(path.screen.count)

    path.restart(typing: Self.start)
    let measurements = sampler.measureSingleIterations(
      ["key path", "floor"],
      prepare: { variant in
        if variant == 0, path.count >= Self.limit { path.restart(typing: Self.start) }
      },
      run: { variant in
        if variant == 0 {
          path.typeKey()
        } else {
          floor.storeInWriteWindow(Self.typed, at: 0)
        }
      },
      finish: { variant in if variant == 0 { blackhole(path.screen.count) } })

    return [
      .timed(
        "key_path_append", measurements[0],
        baseline: ("raw (mprotect_readwrite, 1-byte store, mprotect_noaccess)", measurements[1]),
        note: "decoder byte in -> screen bytes out, masked, \(Self.start)-\(Self.limit)"
          + " characters, no pty (one key per sample, clock read around it)"),
      BenchmarkResult(
        name: "key_path_append_mprotect", unit: "calls",
        value: Summary(single: Double(protections) / Double(Self.countedKeys)),
        baseline: nil, iterationsPerSample: nil,
        note: "protection changes per key (SecureMemory's ProtectionChangeCount) over"
          + " \(Self.countedKeys) keys; target 2"),
      BenchmarkResult(
        name: "key_path_append_allocations", unit: "calls",
        value: Summary(single: Double(allocations) / Double(Self.countedKeys)),
        baseline: nil, iterationsPerSample: nil,
        note: "malloc+calloc+realloc calls per key (the executable's counting allocator),"
          + " over \(Self.countedKeys) keys after a first entry grew the buffers; target 0"),
    ]
  }
}

/// The prompt's key path without its terminal: a decoder, an editor and a
/// renderer, and the screen's bytes gathered in a reused array.
private struct KeyPath: ~Copyable {
  var decoder: KeyDecoder
  var editor: PromptField
  var renderer: PromptRenderer
  let configuration: PromptConfiguration
  /// The frame's line, widths, status lines and screen bytes, kept with their
  /// capacity as `PromptLoop` keeps them.
  var line: DisplayLine
  var cellColumns: [Int] = []
  var statusLines: [PromptStatusLine] = []
  var output = ScreenOutput()
  /// What the last frame wrote, kept with its capacity.
  var screen: [UInt8] = []
  let key: UnsafeMutableRawBufferPointer

  init() throws {
    let configuration = PromptConfiguration()
    let locale = TerminalLocale(environment: ["LANG": "C.UTF-8"])
    // As the prompt makes them (`PromptBuffers`): the field's text and the
    // decoder's input in one shared region, so the field's edit inside the
    // decoder's window costs no protection pair of its own.
    let region = try PromptField.makeSharedRegion(configuration: configuration)
    let editor = try PromptField(configuration: configuration, locale: locale, sharing: region)
    let decoder = try KeyDecoder(sharing: region)
    let statusLineCapacity = editor.maximumStatusLineCount(annotating: false)
    self.configuration = configuration
    self.decoder = decoder
    line = editor.field.render(at: .now)
    self.editor = editor
    renderer = PromptRenderer(
      configuration: configuration, locale: locale, statusLineCapacity: statusLineCapacity)
    key = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
    key[0] = KeyPathBenchmarks.typed
    screen.reserveCapacity(4096)
  }

  deinit { key.deallocate() }

  var count: Int { editor.field.count }

  /// A new entry, drawn, with `characters` keys typed.
  mutating func restart(typing characters: Int) {
    editor.startEntry(message: nil)
    renderer.startEntry(prompt: configuration.prompt)
    draw(editedFrom: nil)
    for _ in 0..<characters { typeKey() }
  }

  /// One key: in through the decoder, applied, drawn, as the prompt's event
  /// loop does it: the byte lands in the decoder's input (where `read(2)` would
  /// put it) and the field takes it from there, inside that one window
  /// (`KeyDecoder.receive(atMost:receivingWith:at:handling:)`).
  mutating func typeKey() {
    let typed = key[0]
    var reaction: PromptField.Reaction?
    do {
      let step = try decoder.receive(
        atMost: 1,
        receivingWith: { spare in
          spare[0] = typed
          return 1
        }, at: .now
      ) { event, payload throws(TerminalError) in
        precondition(event == .text, "key_path_append: the decoder did not return the key as text")
        reaction = editor.handle(event, payload: payload, at: .now)
        return true
      }
      guard case .needsInput?? = step else {
        preconditionFailure("key_path_append: the key was not decoded whole")
      }
    } catch {
      preconditionFailure("key_path_append: the decoder failed: \(error)")
    }
    guard let reaction, reaction.outcome == nil, !reaction.ringsBell else {
      preconditionFailure("key_path_append: key refused")
    }
    draw(editedFrom: reaction.editedFrom)
  }

  /// Draws the frame as `PromptLoop.draw` does, gathering the text.
  mutating func draw(editedFrom: Int?) {
    editor.field.render(at: .now, into: &line)
    renderer.cellColumns(of: line, in: editor.field, into: &cellColumns)
    editor.statusLines(for: line, annotation: nil, into: &statusLines)
    renderer.draw(
      line, cellColumns: cellColumns, status: statusLines, columns: 80, rows: 24,
      editedFrom: editedFrom, into: &output)
    precondition(output.reveals.isEmpty, "key_path_append: a masked frame revealed text")
    // What `ScreenWriter` does with a frame's text before its one write.
    screen.removeAll(keepingCapacity: true)
    screen.append(contentsOf: output.text)
  }
}
