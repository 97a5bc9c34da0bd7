/// What ``PinentryInterface/confirm(_:)`` shows and how long it waits.
public struct ConfirmRequest: Sendable, Hashable {
  /// The window or dialog title (`SETTITLE`), if the client set one.
  public var title: String?
  /// The question or message (`SETDESC`).
  public var description: String?
  /// An error to show once (`SETERROR`).
  public var error: String?
  /// The label of the button that confirms (`SETOK`, `default-ok`, `OK`).
  public var okLabel: String
  /// The label of a button that declines without cancelling (`SETNOTOK`); nil
  /// when there is no such button.
  public var notOkLabel: String?
  /// The label of the button that cancels (`SETCANCEL`, `default-cancel`,
  /// `Cancel`); nil for a message with one button (`CONFIRM --one-button`,
  /// `MESSAGE`).
  public var cancelLabel: String?
  /// How long to wait for the user (`SETTIMEOUT`); nil waits without limit.
  public var timeout: Duration?
  /// Hint texts for buttons.
  public var texts: PinentryTexts
  /// The terminal and locale the client named.
  public var environment: PinentryEnvironment

  /// A confirmation with OK and Cancel and nothing else set.
  public init(
    texts: PinentryTexts = PinentryTexts(), environment: PinentryEnvironment = PinentryEnvironment()
  ) {
    self.okLabel = texts.ok
    self.cancelLabel = texts.cancel
    self.texts = texts
    self.environment = environment
  }

  /// True for a message with a single OK button.
  public var isMessage: Bool { notOkLabel == nil && cancelLabel == nil }
}
