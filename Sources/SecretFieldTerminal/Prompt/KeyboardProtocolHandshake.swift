/// Finds out whether the terminal speaks the kitty keyboard protocol, without
/// ever waiting for it: the prompt's caps-lock warning depends on the answer.
///
/// The prompt asks for the current flags (`CSI ? u`) and then for the primary
/// device attributes (`CSI c`), in one write. Every terminal answers the second;
/// only one with the protocol answers the first, and before the second. So a
/// flags reply means support (push flags 1, 8 and 16: only with flag 8 are the
/// lock bits reported for text keys), and an attributes reply without one
/// before it means none. A terminal that answers neither within
/// ``replyTimeout`` is treated as plain; a flags reply that comes later still
/// counts, since it proves support, even after an attributes reply: that one
/// answered an earlier request.
///
/// Pure: no I/O and no clock. ``PasswordPrompt``'s loop sends ``query``, feeds
/// replies (``KeyEvent/keyboardFlags(_:)``, ``KeyEvent/deviceAttributes``) to
/// ``receive(_:)``, pushes ``flags`` with
/// ``TerminalDevice/pushKeyboardFlags(_:)`` when it says so, and calls
/// ``expire(at:)`` when ``deadline`` passes; keys typed meanwhile are handled
/// as usual. Another front end on the same terminal types can do the same.
package struct KeyboardProtocolHandshake: Sendable, Hashable {
  /// Where the handshake stands.
  package enum State: Sendable, Hashable {
    /// The query has not been sent.
    case notAsked
    /// The query went out; replies are due by the deadline.
    case awaitingReplies(deadline: ContinuousClock.Instant)
    /// No reply in time: plain for now, but a late flags reply still counts.
    case noReplyInTime
    /// The terminal answered the flags query: the flags are (to be) pushed.
    case supported
    /// The attributes reply came first: no protocol, and no caps-lock state.
    case unsupported
  }

  /// What the prompt writes to ask: `CSI ? u` then `CSI c`.
  package static let query =
    ControlSequence.queryKeyboardFlags + ControlSequence.requestDeviceAttributes

  /// The flags pushed where the protocol is spoken: disambiguate, report all
  /// keys as escape codes, report associated text.
  package static let flags = KeyboardFlags.passwordPrompt

  /// How long the replies may take before the terminal is treated as plain.
  package let replyTimeout: Duration
  /// Where it stands.
  package private(set) var state = State.notAsked
  /// The attributes reply came, whenever it came: the terminal answers `CSI c`.
  package private(set) var hasSeenAttributesReply = false

  /// A handshake that waits `replyTimeout` for the replies.
  package init(replyTimeout: Duration) {
    self.replyTimeout = replyTimeout
  }

  /// When the replies are due, while they are awaited.
  package var deadline: ContinuousClock.Instant? {
    if case .awaitingReplies(let deadline) = state { deadline } else { nil }
  }

  /// True until the terminal has answered one way or the other: a query sent
  /// before a stop may have been lost with the input the stop flushed.
  package var isUnanswered: Bool {
    switch state {
    case .notAsked, .awaitingReplies, .noReplyInTime: true
    case .supported, .unsupported: false
    }
  }

  /// Notes that ``query`` was sent at `now`.
  package mutating func sent(at now: ContinuousClock.Instant) {
    state = .awaitingReplies(deadline: now + replyTimeout)
  }

  /// Takes a terminal reply; returns true when the flags should be pushed now.
  package mutating func receive(_ reply: KeyEvent) -> Bool {
    if case .deviceAttributes = reply { hasSeenAttributesReply = true }
    switch (reply, state) {
    case (.keyboardFlags, .awaitingReplies), (.keyboardFlags, .noReplyInTime):
      state = .supported
      return true
    case (.deviceAttributes, .awaitingReplies), (.deviceAttributes, .noReplyInTime):
      state = .unsupported
      return false
    case (.keyboardFlags, .unsupported):
      // The terminal answers the flags query before the attributes request
      // sent with it, so the attributes reply seen first answered an earlier
      // `CSI c` (a prompt before this one that stopped waiting for it), and
      // this query's is still on its way.
      state = .supported
      hasSeenAttributesReply = false
      return true
    default:
      // A reply to nothing asked, or a second one: the state is settled.
      return false
    }
  }

  /// How many attributes replies a new `CSI c` sent now brings: 1 when the
  /// terminal answered the handshake, 2 when it answered the flags query and
  /// the attributes reply to the handshake is still on its way; nil when it
  /// is not known to answer.
  package var attributesRepliesToAwait: Int? {
    switch state {
    case .supported: hasSeenAttributesReply ? 1 : 2
    case .unsupported: 1
    case .notAsked, .awaitingReplies, .noReplyInTime: nil
    }
  }

  /// Treats the terminal as plain when the replies are overdue at `now`.
  package mutating func expire(at now: ContinuousClock.Instant) {
    if let deadline, now >= deadline { state = .noReplyInTime }
  }
}
