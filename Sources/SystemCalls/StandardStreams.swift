/// What a spawned program gets as its standard input, output and error.
package struct StandardStreams: Sendable {
  /// Where one of the three streams goes.
  package enum Stream: Sendable {
    /// This process's own descriptor of the same number.
    case inherited
    /// `/dev/null`, opened for the stream's direction.
    case null
    /// A descriptor of this process, duplicated onto the stream (`dup2`
    /// clears close-on-exec on the copy; the original closes at `exec`).
    case descriptor(Int32)
  }

  package var input: Stream
  package var output: Stream
  package var error: Stream

  package init(input: Stream = .inherited, output: Stream = .inherited, error: Stream = .inherited)
  {
    self.input = input
    self.output = output
    self.error = error
  }
}
