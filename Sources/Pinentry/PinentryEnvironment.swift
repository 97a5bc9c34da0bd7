/// The terminal, locale and owner the client named with `OPTION`, kept for the
/// whole connection (`RESET` keeps them).
public struct PinentryEnvironment: Sendable, Hashable {
  /// The terminal to prompt on (`ttyname`); nil means `/dev/tty`. Never the
  /// Assuan pipe.
  public var ttyName: String?
  /// The X display to show a window on (`display`: gpg-agent passes the
  /// client's `DISPLAY`); nil when the client named none. A terminal
  /// interface ignores it; a window front end opens its dialog there.
  public var display: String?
  /// The terminal type (`ttytype`), as `TERM` would say.
  public var ttyType: String?
  /// The character set of the terminal's locale (`lc-ctype`).
  public var lcCtype: String?
  /// The language for messages (`lc-messages`).
  public var lcMessages: String?
  /// Whether to grab the keyboard (`grab`, `no-grab`); gpg-agent sends
  /// `no-grab` unless told otherwise. Meaningless on a terminal.
  public var grabsKeyboard = true
  /// The process on whose behalf the client asks (`owner`: `PID[/UID] HOST`).
  public var owner: String?
  /// A file to touch after the terminal is restored (`touch-file`): gpg-agent
  /// passes its socket, so watchers see that the pinentry was active.
  public var touchFile: String?
  /// Whether the client allows an external password cache
  /// (`allow-external-password-cache`); we keep none.
  public var allowsExternalPasswordCache = false
  /// The character to mask the passphrase with (`invisible-char`).
  public var invisibleCharacter: String?

  /// No option set.
  public init() {}
}
