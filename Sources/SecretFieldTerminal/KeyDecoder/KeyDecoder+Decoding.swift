import SecureMemory

extension KeyDecoder {
  /// The work of ``next(at:)``, in its own frame so that the stack wipe after it
  /// covers every local that held a secret byte.
  @inline(never)
  mutating func decodeNext(at now: ContinuousClock.Instant) throws(PromptError) -> Step {
    // The last event's payload is wiped before anything else is added to it,
    // or on the way out; plain text overwrites it in the window that copies the
    // new text (one protection pair for both instead of one each).
    var payloadIsStale = payloadDelivered
    payloadDelivered = false
    func wipeStalePayload() {
      if payloadIsStale { payload.removeAll() }
      payloadIsStale = false
    }
    defer { wipeStalePayload() }
    if let event = queued {
      queued = nil
      return deliver(event)
    }
    while true {
      if isInPaste {
        wipeStalePayload()
        guard let event = try continuePaste() else {
          pendingSince = nil
          return .needsInput
        }
        return deliver(event)
      }
      if input.isEmpty {
        pendingSince = nil
        return .needsInput
      }
      if let state = swallowing {
        let (length, rest) = input.withUnsafeBytes { SequenceScanner.swallow($0, from: 0, state) }
        consume(length)
        swallowing = rest
        continue
      }
      let limit = configuration.maximumSequenceCount
      let token = try Self.scan(
        input, limit: limit, movingTextTo: &payload, replacingPayload: payloadIsStale)
      if case .incomplete(let kind) = token {
        return waitOrGiveUp(kind, at: now)
      }
      pendingSince = nil
      switch token {
      case .incomplete:
        preconditionFailure("handled above")
      case .event(let event, let length):
        consume(length)
        return .event(event)
      case .overlong(let state, let length):
        consume(length)
        swallowing = state
        return .event(.unknownSequence)
      case .legacyKey(let event, let modifiers, let isRelease, let length):
        consume(length)
        if isRelease { continue }
        return reportingCapsLock(modifiers: modifiers, then: event)
      case .text(let length):
        // `scan` copied the text into the payload, over the stale one.
        payloadIsStale = false
        consume(length)
        return deliver(.text)
      case .pasteStart(let length):
        consume(length)
        payload.removeAll()
        isInPaste = true
        pasteOverflowed = false
      case .kittyKey(let key, let length):
        wipeStalePayload()
        if key.eventType == 3 {
          consume(length)
          continue
        }
        let event = try kittyEvent(key)
        consume(length)
        return reportingCapsLock(modifiers: key.modifiers, then: event)
      }
    }
  }

  /// An unfinished front: wait for more until the deadline, then take it as it
  /// is (Esc, an unknown sequence, or invalid text) and wipe it.
  private mutating func waitOrGiveUp(
    _ kind: InputToken.Incomplete, at now: ContinuousClock.Instant
  ) -> Step {
    if pendingSince == nil || pendingCount != input.count {
      pendingSince = now
      pendingCount = input.count
    }
    let deadline = pendingSince! + configuration.escapeTimeout
    guard now >= deadline else { return .needsInputBefore(deadline) }
    pendingSince = nil
    // The unfinished part always runs to the end of the input. A sequence's
    // bytes that come later still belong to it: swallow them to its end.
    if kind == .sequence {
      swallowing = input.withUnsafeBytes { SequenceScanner.swallowState(afterPending: $0) }
    }
    input.removeAll()
    switch kind {
    case .escape: return .event(.escape)
    case .sequence: return .event(.unknownSequence)
    case .character: return .event(.invalidText)
    }
  }

  private mutating func deliver(_ event: KeyEvent) -> Step {
    if event == .text || event == .paste { payloadDelivered = true }
    return .event(event)
  }

  /// Removes consumed bytes from the front; `removeSubrange` wipes the tail it
  /// frees.
  private mutating func consume(_ count: Int) {
    input.removeSubrange(0..<count)
  }

  /// Scans the front of the input and, when it is text, copies the text into the
  /// payload in the same read window on the input: at the end, or over the whole
  /// stale payload when `replacingPayload` (the tail the new text does not cover
  /// is zeroed by `replaceSubrange`).
  ///
  /// - Complexity: one protection pair on the input, and one on the payload for
  ///   text.
  static func scan(
    _ input: borrowing SecureBuffer, limit: Int, movingTextTo payload: inout SecureBuffer,
    replacingPayload: Bool
  ) throws(PromptError) -> InputToken {
    do {
      return try input.withUnsafeBytes { bytes throws(SecureMemoryError) in
        let token = SequenceScanner.scan(bytes, maximumSequenceCount: limit)
        if case .text(let length) = token {
          let text = UnsafeRawBufferPointer(rebasing: bytes[0..<length])
          try payload.replaceSubrange(
            replacingPayload ? 0..<payload.count : payload.count..<payload.count, with: text)
        }
        return token
      }
    } catch {
      throw .secureMemory(error)
    }
  }

  /// Copies the first `count` input bytes to the end of the payload, through
  /// `SecureBuffer`'s own copy (no `memcpy`, no Swift value).
  static func move(
    _ count: Int, from input: borrowing SecureBuffer, to payload: inout SecureBuffer
  ) throws(PromptError) {
    do {
      try input.withUnsafeBytes { bytes throws(SecureMemoryError) in
        try payload.append(UnsafeRawBufferPointer(rebasing: bytes[0..<count]))
      }
    } catch {
      throw .secureMemory(error)
    }
  }

  /// Reports a caps-lock change before `event`, when the modifiers say it
  /// changed: always when the caps bit is set (only the kitty protocol sets it),
  /// and when it is clear once the protocol has been seen.
  private mutating func reportingCapsLock(modifiers: Int?, then event: KeyEvent) -> Step {
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
  private mutating func continuePaste() throws(PromptError) -> KeyEvent? {
    while !input.isEmpty {
      let (contentCount, end) = input.withUnsafeBytes { PasteScanner.scan($0) }
      if contentCount > 0 {
        if !pasteOverflowed && payload.count + contentCount > configuration.maximumPasteCount {
          pasteOverflowed = true
          payload.removeAll()
        }
        if !pasteOverflowed { try Self.move(contentCount, from: input, to: &payload) }
        consume(contentCount)
      }
      switch end {
      case .found:
        consume(PasteScanner.endMarker.count)
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
