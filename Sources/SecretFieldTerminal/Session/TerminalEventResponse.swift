/// What a ``TerminalEventHandler`` tells the ``TerminalEventLoop`` after an
/// event: go on, draw once the events at hand are handled, or end.
package enum TerminalEventResponse<Ending> {
  /// Nothing to draw; wait for the next event.
  case proceed
  /// Draw (``TerminalEventHandler/redraw(terminal:)``) once the events that
  /// arrived together are handled.
  case redraw
  /// The loop ends and returns this.
  case end(Ending)
}
