public import SecureMemory

/// Turns the bytes a terminal sends into ``KeyEvent``s, keeping every byte in
/// secure memory.
///
/// Bytes go from `read(2)` into the decoder's landing area: secure memory
/// (locked, guarded, in secret memory where the configuration's storage gives
/// it) that stays open between reads because it is wiped as soon as what
/// landed is decoded. The prompt's path,
/// ``read(from:maximumCount:at:handling:)``, decodes the bytes there and hands
/// every event to a handler: text is lent straight from where it landed, so a
/// typed key costs no protection change before the field's own edit (one
/// pair). What must wait for more bytes (half a character, an unfinished
/// escape sequence) moves into the no-access input; the next read's bytes
/// join it there. ``receive(atMost:receivingWith:at:handling:)`` and
/// ``decode(at:handling:)`` are the same without the `read`. The older path,
/// ``receive(_:)`` and then ``next(at:)``, returns one event per call and
/// copies text, through `SecureBuffer`'s own copy, into a secure payload
/// buffer that ``withPayload(_:)`` lends out until the next call. Pastes and
/// kitty protocol text go through the payload on either path. Consumed input
/// is wiped as it is removed.
///
/// The decoder is pure: no I/O, no clock. Time comes in with ``next(at:)``, and
/// a lone Esc (or any unfinished sequence) becomes an event only when the caller
/// asks again at or after the instant ``Step/needsInputBefore(_:)`` named.
///
/// - Complexity: O(bytes consumed) per call, plus a stack wipe
///   (`sodium_stackzero`, 16 KiB) after every call that looked at input.
@_spi(Testing) public struct KeyDecoder: ~Copyable {
  /// How the decoder bounds what it waits for and gathers.
  public struct Configuration: Sendable, Hashable {
    /// How long a lone Esc, an unfinished escape sequence or a split character
    /// may wait for the rest before it is taken as it is. 100 ms by default,
    /// far above the gap between the bytes of one key even over ssh, and below
    /// what a person notices.
    public var escapeTimeout: Duration = .milliseconds(100)
    /// The most bytes a bracketed paste may have; a longer one becomes
    /// ``KeyEvent/pasteTooLong``. 8 KiB by default, the field's own limit.
    public var maximumPasteCount: Int = 8 * 1024
    /// The most bytes of an escape sequence or string kept while it arrives.
    /// A longer one is taken as unknown at once and the rest of it, however
    /// long, is consumed to its end without being kept.
    public var maximumSequenceCount: Int = 4 * 1024
    /// Which memory the decoder's buffers (the terminal's bytes, a text or
    /// paste) are in: sealed by default (see `SecureStorage`); the landing
    /// area a key is read into, which holds nothing between keys, is then in
    /// secret memory where the kernel offers it.
    public var storage: SecureStorage = .sealed

    /// The defaults.
    public init() {}
  }

  /// What ``next(at:)`` found.
  public enum Step: Sendable, Hashable {
    /// An event; call again for the next one.
    case event(KeyEvent)
    /// All input is consumed (or a paste waits for its end): read more, with no
    /// deadline.
    case needsInput
    /// An Esc or an unfinished sequence waits for more bytes: read more, but call
    /// ``next(at:)`` again at this instant if none arrive.
    case needsInputBefore(ContinuousClock.Instant)
  }

  /// The limits in force.
  public var configuration: Configuration { state.configuration }
  /// Where a `read(2)` lands: open between reads, and wiped before the
  /// prompt waits again (`LandingArea`).
  var landing: LandingArea
  /// Bytes from the terminal that wait for the rest of a character or
  /// sequence, no-access between reads.
  var input: SecureBuffer
  /// The bytes of the last paste or kitty protocol text event, or of a paste
  /// being gathered (plain text is lent from the input itself).
  var payload: SecureBuffer
  /// Everything else the decoder keeps between calls.
  var state: DecoderState

  /// The caps-lock state last reported by the terminal; nil until a kitty
  /// protocol key reported it.
  public var capsLock: Bool? { state.capsLock }

  /// A decoder with empty secure buffers.
  ///
  /// - Throws: ``TerminalError`` with code `secureMemoryFailed` when secure memory
  ///   cannot be had (the message says why: usually the locked memory limit).
  public init(configuration: Configuration = Configuration()) throws(TerminalError) {
    state = DecoderState(configuration: configuration)
    let landing = try Self.makeLanding(storage: configuration.storage)
    let input = try Self.makeBuffer(storage: configuration.storage)
    let payload = try Self.makeBuffer(storage: configuration.storage)
    self.landing = landing
    self.input = input
    self.payload = payload
  }

  /// A decoder whose input buffer (what waits for the rest of a character or
  /// sequence) is in `region`, beside a field's text
  /// (`SecretFieldState.init(policy:limits:obfuscationMode:maskGlyph:sharing:)`),
  /// so that it costs no locked page of its own. The landing area and the
  /// payload (pastes, kitty text) keep buffers of their own, in the
  /// configuration's storage.
  ///
  /// Make the region with room for ``inputCapacity`` bytes.
  ///
  /// - Throws: ``TerminalError`` with code `secureMemoryFailed` when secure memory
  ///   cannot be had.
  public init(
    configuration: Configuration = Configuration(), sharing region: SharedSecureRegion
  ) throws(TerminalError) {
    state = DecoderState(configuration: configuration)
    let input: SecureBuffer
    do { input = try SecureBuffer(capacity: Self.inputCapacity, sharing: region) } catch {
      throw .secureMemory(error)
    }
    let landing = try Self.makeLanding(storage: configuration.storage)
    let payload = try Self.makeBuffer(storage: configuration.storage)
    self.landing = landing
    self.input = input
    self.payload = payload
  }

  /// The bytes the input buffer holds before it grows: 256, one `read` of the
  /// prompt's.
  public static let inputCapacity = 256

  private static func makeLanding(storage: SecureStorage) throws(TerminalError) -> LandingArea {
    do { return try LandingArea(capacity: inputCapacity, storage: storage) } catch {
      throw .secureMemory(error)
    }
  }

  private static func makeBuffer(storage: SecureStorage) throws(TerminalError) -> SecureBuffer {
    do { return try SecureBuffer(capacity: inputCapacity, storage: storage) } catch {
      throw .secureMemory(error)
    }
  }

  /// Lends the input buffer to `body` to append what the terminal sent, as in
  /// `try decoder.receive { try $0.read(from: terminal.descriptor, timeout: .zero) }`.
  ///
  /// Only append: the decoder owns what is already there.
  public mutating func receive<Result, Failure: Error>(
    _ body: (inout SecureBuffer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(&input)
  }

  /// How many bytes wait in the input.
  public var pendingInputCount: Int { input.count }

  /// Lends the bytes of the last ``KeyEvent/text`` or ``KeyEvent/paste`` event,
  /// read-only, inside a window on the secure payload. Valid until the next
  /// ``next(at:)``, which wipes them.
  ///
  /// Lends an empty buffer when the last event had no payload, so a paste still
  /// being gathered is never seen half-way.
  public func withPayload<Result: ~Copyable, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    guard state.payloadDelivered else {
      return try body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
    return try payload.withUnsafeBytes(body)
  }

  /// How many bytes the last text or paste event has.
  public var payloadCount: Int { state.payloadDelivered ? payload.count : 0 }

  /// Wipes everything: pending input, payload, a paste in progress. Use it when
  /// the prompt ends.
  public mutating func reset() {
    input.removeAll()
    payload.removeAll()
    let capsLock = state.capsLock
    state = DecoderState(configuration: state.configuration)
    state.capsLock = capsLock
  }

  /// Decodes the next event from the input, as of `now`.
  ///
  /// Wipes the previous event's payload first, then the stack after: the
  /// scanner's locals held secret bytes.
  ///
  /// - Throws: ``TerminalError`` with code `secureMemoryFailed` when the payload
  ///   cannot grow; the input is then left as it was.
  public mutating func next(at now: ContinuousClock.Instant) throws(TerminalError) -> Step {
    let step = try decodeNext(at: now)
    wipeStack()
    return step
  }
}

extension KeyDecoder {
  /// Decodes every event the input holds, as of `now` (a lone Esc or an
  /// unfinished sequence at its deadline, or what a handler that stopped
  /// left), and hands each to `body` with its bytes, where reads land.
  ///
  /// For ``KeyEvent/text``, the bytes are lent from the landing area, moved
  /// there from the no-access input, as a read's are. A paste or
  /// a kitty protocol text key is lent from the payload and wiped as soon as
  /// `body` returns; other events get an empty buffer. Every pointer is valid
  /// only while `body` runs.
  ///
  /// `body` returns false to stop; the events not yet decoded stay in the input
  /// for the next call.
  ///
  /// - Returns: what the last call of ``next(at:)`` would have returned
  ///   (``Step/needsInput`` or ``Step/needsInputBefore(_:)``), or nil when
  ///   `body` stopped.
  /// - Throws: ``TerminalError`` from `body`, or with code `secureMemoryFailed`
  ///   when the payload cannot grow; what was handled before is consumed.
  /// - Complexity: O(bytes consumed); none when the input is empty, else two
  ///   `mprotect` calls to move what waits where reads land and two to put
  ///   back what still waits; two more per paste, plus what `body` costs; a
  ///   stack wipe (16 KiB) after.
  public mutating func decode(
    at now: ContinuousClock.Instant,
    handling body: EventHandler
  ) throws(TerminalError) -> Step? {
    // One wipe for the decoding and for what `body` wipes after (a field's
    // edit), which ran inside the window.
    let wipe = StackWipeScope()
    defer { wipe.end() }
    return try decodeAll(at: now, handling: body)
  }

  /// Lets `receive` write into the landing area (at most `maximumCount`
  /// bytes; it returns how many, as `read(2)` does), then decodes and handles
  /// every event where the bytes landed, as
  /// ``read(from:maximumCount:at:handling:)`` does. More than the landing
  /// area holds (``inputCapacity`` rounded up to whole pages) goes into the
  /// input instead, in one window.
  ///
  /// - Returns: nil when nothing was received (and nothing decoded), else what
  ///   ``decode(at:handling:)`` returns, inside an optional.
  /// - Throws: as ``decode(at:handling:)`` does, and ``TerminalError`` with code
  ///   `secureMemoryFailed` when the input cannot grow.
  /// - Complexity: no `mprotect` call but for what `body` makes, and two when
  ///   bytes must wait in the input.
  public mutating func receive(
    atMost maximumCount: Int,
    receivingWith receive: (UnsafeMutableRawBufferPointer) -> Int,
    at now: ContinuousClock.Instant, handling body: EventHandler
  ) throws(TerminalError) -> Step?? {
    let wipe = StackWipeScope()
    defer { wipe.end() }
    return try receiveAll(atMost: maximumCount, receivingWith: receive, at: now, handling: body)
  }

  /// Reads what `descriptor` has with one `read(2)` into the landing area,
  /// then decodes and handles every event where it landed, and wipes the
  /// landing area: a key typed costs no protection change before `body`'s own.
  /// Call it when `poll` said the descriptor is readable: it does not wait
  /// again (a terminal in raw mode with `VMIN` 1 would block until a byte
  /// comes).
  ///
  /// - Returns: what the read found, and when bytes arrived, what
  ///   ``decode(at:handling:)`` returns (nil when `body` stopped). When none
  ///   arrived nothing is decoded: call ``decode(at:handling:)`` for a
  ///   deadline that passed.
  /// - Throws: ``TerminalError`` with code `readFailed` for an error from
  ///   `read`; as ``decode(at:handling:)`` does.
  public mutating func read(
    from descriptor: Int32, maximumCount: Int = 256, at now: ContinuousClock.Instant,
    handling body: EventHandler
  ) throws(TerminalError) -> (outcome: ReadOutcome, step: Step?) {
    let wipe = StackWipeScope()
    defer { wipe.end() }
    return try readAll(from: descriptor, maximumCount: maximumCount, at: now, handling: body)
  }
}

extension TerminalError {
  static func secureMemory(_ error: SecureMemoryError) -> Self {
    Self(.secureMemoryFailed, errno: error.errno, error.description)
  }
}
