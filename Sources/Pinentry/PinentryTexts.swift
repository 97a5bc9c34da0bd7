/// Labels and hints a pinentry shows, from the client's `OPTION default-*` or
/// our own defaults, accelerator marks stripped.
///
/// gpg-agent sends these translated into the user's language once per
/// connection (`OPTION default-ok=_OK`); a `_` marks the next letter as an
/// accelerator and `__` is a literal underscore. A terminal has no
/// accelerators, so the marks are removed.
public struct PinentryTexts: Sendable, Hashable {
  /// The submit label (`default-ok`).
  public var ok = "OK"
  /// The cancel label (`default-cancel`).
  public var cancel = "Cancel"
  /// The yes label (`default-yes`).
  public var yes = "Yes"
  /// The no label (`default-no`).
  public var no = "No"
  /// The prompt when the client sets none (`default-prompt`).
  public var prompt = "PIN:"
  /// The label of the offer to save the passphrase in a password manager
  /// (`default-pwmngr`); a terminal pinentry keeps no password manager.
  public var savePassphrase = "Save in password manager"
  /// The question before revealing the passphrase (`default-cf-visi`).
  public var confirmReveal = "Do you really want to make your passphrase visible on the screen?"
  /// The hint for the key that reveals the passphrase (`default-tt-visi`).
  public var reveal = "Make passphrase visible"
  /// The hint for the key that masks it again (`default-tt-hide`).
  public var hide = "Hide passphrase"
  /// The warning while Caps Lock is on (`default-capshint`, sent by newer
  /// agents; ours until one does).
  public var capsLock = "Caps Lock is on"

  /// Our defaults, in English.
  public init() {}
}

extension String {
  /// The text with accelerator marks removed: a single `_` goes, `__` becomes
  /// `_`, as GnuPG's pinentry labels use them.
  public var strippingAcceleratorMarks: String {
    var stripped = ""
    var pendingUnderscore = false
    for character in self {
      if character == "_" && !pendingUnderscore {
        pendingUnderscore = true
        continue
      }
      pendingUnderscore = false
      stripped.append(character)
    }
    return stripped
  }
}
