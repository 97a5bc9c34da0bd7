/// What ``PinentryInterface/getPin(_:quality:)`` shows and how long it waits.
public struct PinRequest: Sendable, Hashable {
  /// Which of the entries of one `GETPIN` this is.
  public enum Stage: Sendable, Hashable {
    /// The passphrase itself.
    case passphrase
    /// The same passphrase again, to catch a typing error (`SETREPEAT`).
    case repetition
  }

  /// Which entry this is.
  public var stage: Stage
  /// The window or dialog title (`SETTITLE`), if the client set one.
  public var title: String?
  /// The text above the field (`SETDESC`), which may span several lines.
  public var description: String?
  /// The label before the field: `SETPROMPT`'s text for the passphrase,
  /// `SETREPEAT`'s for the repetition, else `OPTION default-prompt`, else `PIN:`.
  public var prompt: String
  /// An error to show once, above the field: `SETERROR`'s text (the agent's
  /// "Bad Passphrase (try 2 of 3)"), or `SETREPEATERROR`'s after a mismatch.
  public var error: String?
  /// The label of the button or key that submits (`SETOK`, `default-ok`, `OK`).
  public var okLabel: String
  /// The label of the button or key that cancels (`SETCANCEL`, `default-cancel`,
  /// `Cancel`).
  public var cancelLabel: String
  /// The client's identifier of the key (`SETKEYINFO`), for display only; nil
  /// when the key has none (`--clear`).
  public var keyInfo: String?
  /// How long to wait for the user (`SETTIMEOUT`); nil waits without limit. When
  /// it runs out, return `.ended(.timedOut)`.
  public var timeout: Duration?
  /// The quality bar to draw under the field (`SETQUALITYBAR`), on the
  /// passphrase entry only.
  public var qualityBar: QualityBar?
  /// The text to show when the repetition matches (`SETREPEATOK`), on the
  /// repetition entry only.
  public var repetitionMatchText: String?
  /// Hint texts for reveal, caps lock and buttons.
  public var texts: PinentryTexts
  /// The terminal and locale the client named.
  public var environment: PinentryEnvironment

  /// A request for `stage` with `prompt`, the default labels, and nothing else
  /// set.
  public init(
    stage: Stage = .passphrase, prompt: String = "PIN:", texts: PinentryTexts = PinentryTexts(),
    environment: PinentryEnvironment = PinentryEnvironment()
  ) {
    self.stage = stage
    self.prompt = prompt
    self.okLabel = texts.ok
    self.cancelLabel = texts.cancel
    self.texts = texts
    self.environment = environment
  }
}

/// A quality bar: a label and a bar from -100 to 100 under the passphrase field.
public struct QualityBar: Sendable, Hashable {
  /// The label before the bar (`SETQUALITYBAR`'s text, else `Quality:`).
  public var label: String
  /// A longer explanation (`SETQUALITYBAR_TT`), if the client sent one.
  public var tooltip: String?

  /// A bar labelled `label`.
  public init(label: String = "Quality:", tooltip: String? = nil) {
    self.label = label
    self.tooltip = tooltip
  }
}
