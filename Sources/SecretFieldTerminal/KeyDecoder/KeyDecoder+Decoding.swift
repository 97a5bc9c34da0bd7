import SecureMemory

extension KeyDecoder {
  /// The work of ``next(at:)``, in its own frame so that the stack wipe after it
  /// covers every local that held a secret byte.
  ///
  /// One protection pair on the input for scanning, copying a text run out and
  /// removing what was consumed; one on the payload when text is copied into it
  /// (over the last event's bytes, which that same window wipes).
  @inline(never)
  mutating func decodeNext(at now: ContinuousClock.Instant) throws(TerminalError) -> Step {
    var payloadIsStale = state.payloadDelivered
    state.payloadDelivered = false
    defer { if payloadIsStale { payload.removeAll() } }
    if let event = state.queued {
      state.queued = nil
      return state.deliver(event)
    }
    if input.isEmpty {
      state.pendingSince = nil
      return .needsInput
    }
    let outcome: Result<Step, TerminalError> = input.withUnsafeBytesRemovingPrefix {
      bytes, removing in
      var view = InputView(bytes)
      defer { removing = view.consumed }
      do throws(TerminalError) {
        let (step, text) = try state.step(
          &view, payload: &payload, payloadIsStale: &payloadIsStale, at: now)
        if let text, case .event(let event) = step {
          let range = payloadIsStale ? 0..<payload.count : payload.count..<payload.count
          do throws(SecureMemoryError) {
            try payload.replaceSubrange(range, with: view.slice(0..<text))
          } catch {
            throw .secureMemory(error)
          }
          payloadIsStale = false
          view.consume(text)
          return .success(state.deliver(event))
        }
        return .success(step)
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }

  /// The handler of ``decode(at:handling:)`` and its kin.
  public typealias EventHandler = (_ event: KeyEvent, _ bytes: UnsafeRawBufferPointer)
    throws(TerminalError) -> Bool

  /// The work of ``decode(at:handling:)``, in its own frame for the stack wipe.
  @inline(never)
  mutating func decodeAll(
    at now: ContinuousClock.Instant, handling body: EventHandler
  ) throws(TerminalError) -> Step? {
    wipeDeliveredPayload()
    if state.queued == nil && input.isEmpty {
      state.pendingSince = nil
      return .needsInput
    }
    let pending = input.count
    guard landing.room(after: pending) > 0 else {
      return try input.withUnsafeBytesRemovingPrefix { bytes, removing in
        Self.decodeAll(bytes, &removing, &state, &payload, at: now, handling: body)
      }.get()
    }
    // Where reads land, as a read's events are: a handler sees the same
    // bytes at the same place whether they came now or waited.
    landing.reserveFront(pending)
    return try decodeLanded(at: now, handling: body)
  }

  /// The work of ``receive(atMost:receivingWith:at:handling:)``, in its own
  /// frame for the stack wipe.
  @inline(never)
  mutating func receiveAll(
    atMost maximumCount: Int, receivingWith receive: (UnsafeMutableRawBufferPointer) -> Int,
    at now: ContinuousClock.Instant, handling body: EventHandler
  ) throws(TerminalError) -> Step?? {
    wipeDeliveredPayload()
    let pending = input.count
    guard maximumCount > landing.room(after: pending) else {
      landing.receive(atMost: maximumCount, leavingFront: pending, receivingWith: receive)
      guard landing.count > 0 else { return nil }
      return .some(try decodeLanded(at: now, handling: body))
    }
    // More than lands at once: into the input, which grows, in its window.
    var decoded: Result<Step?, TerminalError> = .success(nil)
    let received: Bool
    do {
      received = try input.append(atMost: maximumCount, receivingWith: receive) { bytes in
        var removing = 0
        decoded = Self.decodeAll(bytes, &removing, &state, &payload, at: now, handling: body)
        return removing
      }
    } catch {
      throw .secureMemory(error)
    }
    guard received else { return nil }
    return .some(try decoded.get())
  }

  /// The work of ``read(from:maximumCount:at:handling:)``, in its own frame for
  /// the stack wipe.
  @inline(never)
  mutating func readAll(
    from descriptor: Int32, maximumCount: Int, at now: ContinuousClock.Instant,
    handling body: EventHandler
  ) throws(TerminalError) -> (outcome: ReadOutcome, step: Step?) {
    wipeDeliveredPayload()
    let pending = input.count
    guard landing.room(after: pending) > 0 else {
      return try readIntoInput(
        from: descriptor, maximumCount: maximumCount, at: now, handling: body)
    }
    let outcome: ReadOutcome
    do {
      outcome = try landing.read(
        from: descriptor, maximumCount: maximumCount, leavingFront: pending)
    } catch {
      throw .readFailed(errno: error.errno, error.description)
    }
    guard case .bytes = outcome else { return (outcome, nil) }
    return (outcome, try decodeLanded(at: now, handling: body))
  }

  /// A read straight into the input, decoded in its window: for when what
  /// waits there (a sequence near its limit) leaves the landing area no room.
  private mutating func readIntoInput(
    from descriptor: Int32, maximumCount: Int, at now: ContinuousClock.Instant,
    handling body: EventHandler
  ) throws(TerminalError) -> (outcome: ReadOutcome, step: Step?) {
    var decoded: Result<Step?, TerminalError> = .success(nil)
    let outcome: ReadOutcome
    do {
      outcome = try input.read(from: descriptor, maximumCount: maximumCount, timeout: .zero) {
        bytes in
        var removing = 0
        decoded = Self.decodeAll(bytes, &removing, &state, &payload, at: now, handling: body)
        return removing
      }
    } catch {
      throw .readFailed(errno: error.errno, error.description)
    }
    guard case .bytes = outcome else { return (outcome, nil) }
    return (outcome, try decoded.get())
  }

  /// Decodes and handles what landed, behind what waited in the input, and
  /// wipes the landing area before the caller waits again.
  ///
  /// What waited (half a character, an unfinished sequence: rare) moves into
  /// the front the read left for it, so the events are decoded and handled
  /// where the bytes landed, and a key's text is lent from there: no
  /// protection change before the handler's own. An unfinished rest, or
  /// events a handler that stopped left, move back into the no-access input.
  private mutating func decodeLanded(
    at now: ContinuousClock.Instant, handling body: EventHandler
  ) throws(TerminalError) -> Step? {
    defer { landing.wipe() }
    if !input.isEmpty { Self.movePending(from: &input, to: &landing) }
    var removing = 0
    let decoded = landing.withUnsafeBytes { bytes in
      Self.decodeAll(bytes, &removing, &state, &payload, at: now, handling: body)
    }
    if removing < landing.count {
      try landing.withUnsafeBytes { bytes throws(TerminalError) in
        do throws(SecureMemoryError) {
          try input.append(UnsafeRawBufferPointer(rebasing: bytes[removing...]))
        } catch {
          throw .secureMemory(error)
        }
      }
    }
    return try decoded.get()
  }

  /// Moves every byte of `input` into the front `landing`'s last read left
  /// for it, wiping it from the input in the same window.
  private static func movePending(from input: inout SecureBuffer, to landing: inout LandingArea) {
    input.withUnsafeBytesRemovingPrefix { bytes, removing in
      landing.fillFront(with: bytes)
      removing = bytes.count
    }
  }

  /// Wipes the payload an earlier ``next(at:)`` lent.
  private mutating func wipeDeliveredPayload() {
    if state.payloadDelivered {
      state.payloadDelivered = false
      payload.removeAll()
    }
  }

  /// Decodes every event in `bytes`, the input inside its window, and hands
  /// each to `body`; sets `removing` to what was consumed.
  private static func decodeAll(
    _ bytes: UnsafeRawBufferPointer, _ removing: inout Int, _ state: inout DecoderState,
    _ payload: inout SecureBuffer, at now: ContinuousClock.Instant, handling body: EventHandler
  ) -> Result<Step?, TerminalError> {
    var view = InputView(bytes)
    defer { removing = view.consumed }
    var payloadIsStale = false
    do throws(TerminalError) {
      while true {
        let (step, text) = try state.step(
          &view, payload: &payload, payloadIsStale: &payloadIsStale, at: now)
        guard case .event(let event) = step else { return .success(step) }
        let goesOn: Bool
        if let text {
          // Consumed first: the bytes stay where they are, readable, until the
          // window ends.
          let bytes = view.slice(0..<text)
          view.consume(text)
          goesOn = try body(event, bytes)
        } else if state.payloadDelivered {
          state.payloadDelivered = false
          defer { payload.removeAll() }
          goesOn = try payload.withUnsafeBytes { payload throws(TerminalError) in
            try body(event, payload)
          }
        } else {
          goesOn = try body(event, UnsafeRawBufferPointer(start: nil, count: 0))
        }
        if !goesOn { return .success(nil) }
      }
    } catch {
      return .failure(error)
    }
  }
}
