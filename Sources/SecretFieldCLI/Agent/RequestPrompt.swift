import PasswordAgent
import SecretField
import SecretFieldTerminal

/// The prompt a systemd password request is asked with: its `Message=` as the
/// prompt's text, escaped; a line above it that says which request it is
/// (its place among those waiting, the asking process, `Id=` and `Icon=`);
/// the typing masked with Tab to reveal, shown from the start for `Echo=1`,
/// not shown at all for `Silent=1`.
enum RequestPrompt {
  /// The prompt text when a request has no `Message=`.
  static let defaultPrompt = "Password:"

  /// The configuration for `request`, the `position`th (from 1) of `count`,
  /// on `terminalPath`.
  static func configuration(
    for request: PasswordRequest, position: Int, count: Int, terminalPath: String,
    allowsSuspend: Bool
  ) -> PromptConfiguration {
    let message = request.displayMessage
    var configuration = PromptConfiguration(prompt: message.isEmpty ? defaultPrompt : message)
    configuration.description = heading(for: request, position: position, count: count)
    configuration.terminalPath = terminalPath
    configuration.allowsSuspend = allowsSuspend
    if request.isSilent {
      configuration.echo = .silent
    } else if request.echoes {
      configuration.obfuscationMode = .visible
    }
    return configuration
  }

  /// `Password request 2 of 3 · PID 812 · cryptsetup:/dev/sda5 · drive-harddisk`,
  /// what came from the request escaped.
  static func heading(for request: PasswordRequest, position: Int, count: Int) -> String {
    var parts = [count > 1 ? "Password request \(position) of \(count)" : "Password request"]
    if let processID = request.processID { parts.append("PID \(processID)") }
    if let id = request.id { parts.append(PasswordRequest.escaped(id)) }
    if let icon = request.icon { parts.append("icon " + PasswordRequest.escaped(icon)) }
    return parts.joined(separator: " · ")
  }

  /// One line of `--list`: `'Disk passphrase:' (PID 812, id cryptsetup:/dev/sda5, 28 s left)`.
  static func listing(_ pending: PendingRequest, now: UInt64) -> String {
    let request = pending.request
    var details: [String] = []
    if let processID = request.processID { details.append("PID \(processID)") }
    if let id = request.id { details.append("id " + PasswordRequest.escaped(id)) }
    if let left = request.remainingMicroseconds(at: now) {
      details.append("\((left + 999_999) / 1_000_000) s left")
    }
    if request.acceptsCached { details.append("accepts a cached passphrase") }
    let detailText = details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")"
    return "'\(request.displayMessage)'\(detailText) \(PasswordRequest.escaped(pending.fileName))"
  }
}
