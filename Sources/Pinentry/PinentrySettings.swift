/// What the client has set for the requests to come: the texts of the `SET`
/// commands, the timeout, and the connection's `OPTION`s.
///
/// Texts are kept as the client sent them, percent-unescaped; accelerator
/// marks are stripped when a request is built. Empty texts count as unset.
public struct PinentrySettings: Sendable, Hashable {
  /// `SETTITLE`.
  public var title: String?
  /// `SETDESC`.
  public var description: String?
  /// `SETPROMPT`, with its accelerator marks.
  public var prompt: String?
  /// `SETERROR`: shown by the next `GETPIN` or `CONFIRM` only.
  public var error: String?
  /// `SETOK`, with its accelerator marks.
  public var okLabel: String?
  /// `SETNOTOK`, with its accelerator marks.
  public var notOkLabel: String?
  /// `SETCANCEL`, with its accelerator marks.
  public var cancelLabel: String?
  /// `SETKEYINFO`, as sent; nil after `SETKEYINFO --clear`.
  public var keyInfo: String?
  /// `SETREPEAT`: the prompt for the repetition, empty for the default; set,
  /// it asks the next `GETPIN` (only) for a repetition.
  public var repeatPrompt: String?
  /// `SETREPEATERROR`: shown when the repetition does not match.
  public var repeatError: String?
  /// `SETREPEATOK`: shown when it does.
  public var repeatOk: String?
  /// `SETQUALITYBAR`: the bar's label; the next `GETPIN` only.
  public var qualityBar: String?
  /// `SETQUALITYBAR_TT`: the bar's explanation.
  public var qualityBarTooltip: String?
  /// `SETTIMEOUT`: how long a request waits for the user; nil for no limit.
  /// Kept across `RESET`, as pinentry keeps it.
  public var timeout: Duration?
  /// The `OPTION default-*` texts, or ours. Kept across `RESET`.
  public var texts = PinentryTexts()
  /// The terminal and locale `OPTION`s. Kept across `RESET`.
  public var environment = PinentryEnvironment()

  /// The repetition's prompt when `SETREPEAT` came without text.
  public static let defaultRepeatPrompt = "Repeat:"
  /// The text shown after a mismatched repetition when the client set none.
  public static let defaultRepeatError = "The passphrases do not match"

  /// Nothing set.
  public init() {}

  /// Forgets what `RESET` forgets: every `SET` text. Keeps the timeout and the
  /// `OPTION`s, which gpg-agent sends once per connection.
  public mutating func reset() {
    self = PinentrySettings(timeout: timeout, texts: texts, environment: environment)
  }

  private init(timeout: Duration?, texts: PinentryTexts, environment: PinentryEnvironment) {
    self.timeout = timeout
    self.texts = texts
    self.environment = environment
  }

  /// The request for one entry of `GETPIN`.
  ///
  /// - Parameters:
  ///   - stage: the passphrase, or its repetition after `SETREPEAT`.
  ///   - error: the error to show, when it is not `SETERROR`'s (after a
  ///     mismatched repetition).
  public func pinRequest(stage: PinRequest.Stage, error: String?) -> PinRequest {
    var request = PinRequest(stage: stage, texts: texts, environment: environment)
    request.title = title
    request.description = description
    switch stage {
    case .passphrase:
      request.prompt = prompt?.strippingAcceleratorMarks ?? texts.prompt
      request.qualityBar = qualityBar.map {
        QualityBar(label: $0.strippingAcceleratorMarks, tooltip: qualityBarTooltip)
      }
    case .repetition:
      if let repeatPrompt, !repeatPrompt.isEmpty {
        request.prompt = repeatPrompt.strippingAcceleratorMarks
      } else {
        request.prompt = Self.defaultRepeatPrompt
      }
      request.repetitionMatchText = repeatOk
    }
    request.error = error
    request.okLabel = okLabel?.strippingAcceleratorMarks ?? texts.ok
    request.cancelLabel = cancelLabel?.strippingAcceleratorMarks ?? texts.cancel
    request.keyInfo = keyInfo
    request.timeout = timeout
    return request
  }

  /// The request for `CONFIRM`, or for `CONFIRM --one-button` and `MESSAGE`.
  public func confirmRequest(oneButton: Bool) -> ConfirmRequest {
    var request = ConfirmRequest(texts: texts, environment: environment)
    request.title = title
    request.description = description
    request.error = error
    request.okLabel = okLabel?.strippingAcceleratorMarks ?? texts.ok
    if !oneButton {
      request.notOkLabel = notOkLabel?.strippingAcceleratorMarks
      request.cancelLabel = cancelLabel?.strippingAcceleratorMarks ?? texts.cancel
    } else {
      request.cancelLabel = nil
    }
    request.timeout = timeout
    return request
  }

  /// Forgets what lasts for one `GETPIN`: the error, the repetition and the
  /// quality bar, as pinentry does.
  mutating func finishPinRequest() {
    error = nil
    repeatPrompt = nil
    qualityBar = nil
  }

  /// Forgets what lasts for one `CONFIRM`: the error and the quality bar.
  mutating func finishConfirmRequest() {
    error = nil
    qualityBar = nil
  }
}
