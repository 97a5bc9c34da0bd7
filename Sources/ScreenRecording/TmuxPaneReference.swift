/// A tmux pane as the environment of a process inside it names it.
package struct TmuxPaneReference: Sendable, Hashable {
  /// The server's socket, from `TMUX` (`socket,server-pid,session`); nil when
  /// `TMUX` does not name one.
  package var socketPath: String?
  /// The pane ID, as `%3`, from `TMUX_PANE`.
  package var paneID: String

  /// A reference from its parts.
  package init(socketPath: String?, paneID: String) {
    self.socketPath = socketPath
    self.paneID = paneID
  }

  /// The pane named by `TMUX` and `TMUX_PANE` in `environment`, or nil when
  /// either is missing or empty.
  package init?(environment: [String: String]) {
    guard let tmux = environment["TMUX"], !tmux.isEmpty,
      let pane = environment["TMUX_PANE"], !pane.isEmpty
    else { return nil }
    // The socket path may itself hold commas: the server PID and the session
    // index are the last two fields.
    let fields = tmux.split(separator: ",", omittingEmptySubsequences: false)
    let socket = fields.count >= 3 ? fields.dropLast(2).joined(separator: ",") : nil
    self.init(socketPath: socket.flatMap { $0.isEmpty ? nil : $0 }, paneID: pane)
  }
}
