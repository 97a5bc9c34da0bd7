/// What woke ``TerminalDevice/waitForInput(or:until:)``.
package struct Readiness: OptionSet, Sendable, Hashable {
  /// The raw value: one bit per source.
  package let rawValue: Int
  /// A set from its raw value.
  package init(rawValue: Int) { self.rawValue = rawValue }

  /// The terminal has bytes to read (or hung up: the read will say).
  package static let input = Readiness(rawValue: 1 << 0)
  /// A signal is waiting in the relay (or interrupted the wait).
  package static let signal = Readiness(rawValue: 1 << 1)
  /// The caller's extra descriptor is readable (``TerminalDevice/waitForInput(or:watching:until:)``).
  package static let watched = Readiness(rawValue: 1 << 2)
}
