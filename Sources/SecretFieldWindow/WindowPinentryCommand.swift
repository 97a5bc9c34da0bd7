package import ToolSupport

/// `secretfield-window pinentry [OPTIONS]`: a pinentry for gpg-agent that
/// asks in a window when the client names a display (`OPTION display`, or
/// `DISPLAY`/`WAYLAND_DISPLAY` in the environment), and on the terminal as
/// `pinentry-secretfield` does otherwise. Takes `pinentry-secretfield`'s
/// options and exit statuses (see `PinentryProgram`).
package enum WindowPinentryCommand {
  /// The name in messages.
  static let name = "secretfield-window pinentry"

  /// The text of `--help`.
  static let help = """
    Usage: secretfield-window pinentry [OPTIONS]

    A pinentry for gpg-agent: speaks Assuan on standard input and output and
    asks for passphrases in a window on the display the client names
    (OPTION display, else DISPLAY or WAYLAND_DISPLAY), or on the terminal the
    client names (GPG_TTY) when there is no display, keeping them in locked,
    guarded, zeroed memory. gpg-agent runs a program without arguments, so
    put a script in gpg-agent.conf's pinentry-program that runs:

      exec /path/to/secretfield-window pinentry "$@"

    Options (the client's OPTION commands override them):
      -D, --display DISPLAY    the X display to ask on
    \(PinentryProgram.optionsHelp)

    Keys in the window: Enter answers, Esc cancels, Tab shows or hides the
    passphrase; copy, cut and paste are refused.

    """

  /// Runs the pinentry with `arguments` (those after `pinentry`) and returns
  /// the status to exit with.
  package static func run(_ arguments: [String], context: CommandContext) -> ExitStatus {
    let environmentDisplay =
      context.environmentValue("DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
      ?? context.environmentValue("WAYLAND_DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
    return PinentryProgram.run(arguments, name: name, help: help) { terminal in
      WindowPinentry(terminal: terminal, environmentDisplay: environmentDisplay)
    }
  }
}
