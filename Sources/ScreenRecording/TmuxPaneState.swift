/// The state of one tmux pane, as `display-message` and `list-clients` report it.
package struct TmuxPaneState: Sendable, Hashable {
  /// `#{pane_pipe}` is 1: `pipe-pane` copies the pane's output to a command.
  package var isPiped: Bool
  /// The pane's terminal (`#{pane_tty}`) is the terminal the prompt uses. When
  /// false, the `TMUX_PANE` came from elsewhere (an agent started in tmux and
  /// now prompting on another terminal) and says nothing about this one.
  package var isThisTerminal: Bool
  /// The process IDs of the clients attached to the pane's session: what
  /// shows the pane on a real terminal, and what a recorder around
  /// `tmux attach` is an ancestor of.
  package var clientProcessIDs: [Int32]

  /// A state from its parts.
  package init(isPiped: Bool, isThisTerminal: Bool, clientProcessIDs: [Int32] = []) {
    self.isPiped = isPiped
    self.isThisTerminal = isThisTerminal
    self.clientProcessIDs = clientProcessIDs
  }
}
