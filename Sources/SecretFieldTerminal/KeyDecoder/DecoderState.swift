import SecureMemory

/// Everything the decoder keeps between calls but the bytes themselves: the
/// limits, a queued event, the state of a paste, the wait for an unfinished
/// sequence, a sequence being swallowed, the caps-lock state. A few flags and
/// counts, never a byte of input.
///
/// Its methods decode from an ``InputView`` that a window on the decoder's
/// input lends, so that scanning, lending the text and removing what was
/// consumed share that one window.
struct DecoderState {
  let configuration: KeyDecoder.Configuration
  /// The payload belongs to an event already returned, to be wiped on the next
  /// call.
  var payloadDelivered = false
  /// An event to return before reading more input: the key whose caps-lock
  /// report came first.
  var queued: KeyEvent?
  /// Inside `CSI 200~ … CSI 201~`.
  var isInPaste = false
  /// The paste passed the limit; its bytes are being dropped.
  var pasteOverflowed = false
  /// When the unfinished front of the input was first seen, and how many bytes
  /// the input had then: new bytes restart the wait.
  var pendingSince: ContinuousClock.Instant?
  var pendingCount = 0
  /// Inside a sequence whose start was dropped (too long, or timed out): its
  /// remaining bytes are consumed to its end and never become text. A few
  /// flags, not the bytes.
  var swallowing: SequenceScanner.Swallow?
  /// The caps-lock state last reported by the terminal; nil until a kitty
  /// protocol key reported it.
  var capsLock: Bool?

  init(configuration: KeyDecoder.Configuration) {
    self.configuration = configuration
  }

  /// Decodes the next event from `view`, consuming what it used (but a text
  /// run or an unknown sequence: its length comes back as `text`, and the
  /// caller consumes it once it has taken the bytes). A text or paste event from the payload sets
  /// ``payloadDelivered``.
  ///
  /// `payloadIsStale` says the payload still holds the last event's bytes: they
  /// are wiped before anything is added to it (and the flag cleared).
  ///
  /// - Throws: ``TerminalError`` with code `secureMemoryFailed` when the payload
  ///   cannot grow; what the failed step would have consumed stays.
  mutating func step(
    _ view: inout InputView, payload: inout SecureBuffer, payloadIsStale: inout Bool,
    at now: ContinuousClock.Instant
  ) throws(TerminalError) -> (step: KeyDecoder.Step, text: Int?) {
    func wipeStalePayload() {
      if payloadIsStale { payload.removeAll() }
      payloadIsStale = false
    }
    if let event = queued {
      queued = nil
      return (deliver(event), nil)
    }
    while true {
      if isInPaste {
        wipeStalePayload()
        guard let event = try continuePaste(&view, payload: &payload) else {
          pendingSince = nil
          return (.needsInput, nil)
        }
        return (deliver(event), nil)
      }
      if view.isEmpty {
        pendingSince = nil
        return (.needsInput, nil)
      }
      if let state = swallowing {
        let (length, rest) = SequenceScanner.swallow(view.front, from: 0, state)
        view.consume(length)
        swallowing = rest
        continue
      }
      let token = SequenceScanner.scan(
        view.front, maximumSequenceCount: configuration.maximumSequenceCount)
      if case .incomplete(let kind) = token {
        return (waitOrGiveUp(kind, &view, at: now), nil)
      }
      pendingSince = nil
      switch token {
      case .incomplete:
        preconditionFailure("handled above")
      case .event(.unknownSequence, let length)
      where length <= configuration.maximumSequenceCount:
        // Its bytes go to the handler as the text's do: a sequence is never
        // text, so never secret, and a host may know what the decoder does not.
        return (.event(.unknownSequence), length)
      case .event(let event, let length):
        view.consume(length)
        return (.event(event), nil)
      case .overlong(let state, let length):
        view.consume(length)
        swallowing = state
        return (.event(.unknownSequence), nil)
      case .legacyKey(let event, let modifiers, let isRelease, let length):
        if case .unknownSequence = event, !isRelease,
          length <= configuration.maximumSequenceCount
        {
          return (.event(.unknownSequence), length)
        }
        view.consume(length)
        if isRelease { continue }
        return (reportingCapsLock(modifiers: modifiers, then: event), nil)
      case .text(let length):
        return (.event(.text), length)
      case .pasteStart(let length):
        view.consume(length)
        payload.removeAll()
        payloadIsStale = false
        isInPaste = true
        pasteOverflowed = false
      case .kittyKey(let key, let length):
        wipeStalePayload()
        if key.eventType == 3 {
          view.consume(length)
          continue
        }
        let event = try kittyEvent(key, in: view.front, payload: &payload)
        view.consume(length)
        return (reportingCapsLock(modifiers: key.modifiers, then: event), nil)
      }
    }
  }

  /// An unfinished front: wait for more until the deadline, then take it as it
  /// is (Esc, an unknown sequence, or invalid text) and consume it.
  private mutating func waitOrGiveUp(
    _ kind: InputToken.Incomplete, _ view: inout InputView, at now: ContinuousClock.Instant
  ) -> KeyDecoder.Step {
    if pendingSince == nil || pendingCount != view.remaining {
      pendingSince = now
      pendingCount = view.remaining
    }
    let deadline = pendingSince! + configuration.escapeTimeout
    guard now >= deadline else { return .needsInputBefore(deadline) }
    if kind == .escape {
      // ESC, or ESC ESC with nothing after: each is Esc, the second at once,
      // since it has waited as long.
      view.consume(1)
      pendingCount = view.remaining
      if view.isEmpty { pendingSince = nil }
      return .event(.escape)
    }
    if kind == .sequence, SequenceScanner.endsInStringsEscape(view.front) {
      // A string waiting at an ESC that no `\` followed: the string ends
      // there, and the ESC, which has waited as long, is Esc at once.
      view.consume(view.remaining - 1)
      pendingCount = view.remaining
      return .event(.unknownSequence)
    }
    pendingSince = nil
    // The unfinished part always runs to the end of the input. A sequence's
    // bytes that come later still belong to it: swallow them to its end.
    if kind == .sequence {
      swallowing = SequenceScanner.swallowState(afterPending: view.front)
    }
    view.consumeAll()
    switch kind {
    case .escape: preconditionFailure("handled above")
    case .sequence: return .event(.unknownSequence)
    case .character: return .event(.invalidText)
    }
  }

  mutating func deliver(_ event: KeyEvent) -> KeyDecoder.Step {
    // By pattern, not `==`: a comparison of this enum allocates in a debug
    // build, and the key path counts its allocations there.
    switch event {
    case .text, .paste, .unknownSequence: payloadDelivered = true
    default: break
    }
    return .event(event)
  }

  /// Reports a caps-lock change before `event`, when the modifiers say it
  /// changed: always when the caps bit is set (only the kitty protocol sets it),
  /// and when it is clear once the protocol has been seen.
  private mutating func reportingCapsLock(modifiers: Int?, then event: KeyEvent) -> KeyDecoder.Step
  {
    let isOn = max(0, (modifiers ?? 1) - 1) & ModifierBits.capsLock != 0
    if (capsLock != nil || isOn) && capsLock != isOn {
      capsLock = isOn
      queued = event
      return .event(.capsLock(isOn: isOn))
    }
    return deliver(event)
  }

  // MARK: Bracketed paste

  /// Moves what has arrived of a paste into the payload (or drops it once over
  /// the limit); returns the paste's event when its end marker has arrived.
  private mutating func continuePaste(
    _ view: inout InputView, payload: inout SecureBuffer
  ) throws(TerminalError) -> KeyEvent? {
    while !view.isEmpty {
      let (contentCount, end) = PasteScanner.scan(view.front)
      if contentCount > 0 {
        if !pasteOverflowed && payload.count + contentCount > configuration.maximumPasteCount {
          pasteOverflowed = true
          payload.removeAll()
        }
        if !pasteOverflowed {
          do throws(SecureMemoryError) {
            try payload.append(view.slice(0..<contentCount))
          } catch {
            throw .secureMemory(error)
          }
        }
        view.consume(contentCount)
      }
      switch end {
      case .found:
        view.consume(PasteScanner.endMarker.count)
        isInPaste = false
        if pasteOverflowed {
          pasteOverflowed = false
          return .pasteTooLong
        }
        return .paste
      case .partial, .none:
        return nil
      }
    }
    return nil
  }
}

/// Finds the end of a bracketed paste (`CSI 201~`) in what has arrived.
enum PasteScanner {
  static let endMarker: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

  enum End: Equatable {
    /// The end marker follows the content.
    case found
    /// The bytes after the content could be the start of the end marker.
    case partial
    /// No end marker yet.
    case none
  }

  /// How many bytes from the front are paste content, and what follows them.
  static func scan(_ bytes: UnsafeRawBufferPointer) -> (contentCount: Int, end: End) {
    var offset = 0
    while offset < bytes.count {
      if bytes[offset] == endMarker[0] {
        var matched = 1
        while matched < endMarker.count, offset + matched < bytes.count,
          bytes[offset + matched] == endMarker[matched]
        {
          matched += 1
        }
        if matched == endMarker.count { return (offset, .found) }
        if offset + matched == bytes.count { return (offset, .partial) }
      }
      offset += 1
    }
    return (bytes.count, .none)
  }
}
