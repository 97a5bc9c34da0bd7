/// What tmux says about the pane named in `TMUX_PANE`.
package enum TmuxPaneAnswer: Sendable, Hashable {
  /// tmux answered for the pane.
  case pane(TmuxPaneState)
  /// tmux could not be asked or did not answer: `reason` says why.
  case unavailable(reason: String)
}
