import Pinentry
import SecureMemory

/// A user interface that answers from a script, for protocol tests. Entered
/// passphrases are copied into secure memory from the script's arrays (test
/// oracles) at the moment they are "typed".
struct ScriptedInterface: PinentryInterface {
  /// One answer to `getPin`.
  enum PinStep {
    /// Enter these bytes; first ask the client for their quality, when offered.
    case enter([UInt8], estimatingQuality: Bool = false)
    case cancel, timeOut, fullyCancel
    case fail(AssuanError)

    static func enter(_ text: String, estimatingQuality: Bool = false) -> PinStep {
      .enter(Array(text.utf8), estimatingQuality: estimatingQuality)
    }
  }

  var pinSteps: [PinStep] = []
  var confirmSteps: [ConfirmResult] = []

  /// What the session asked, in order.
  var pinRequests: [PinRequest] = []
  var confirmRequests: [ConfirmRequest] = []
  /// Whether each `getPin` was offered a quality handle.
  var qualityOffered: [Bool] = []
  /// The client's quality estimates, in order.
  var qualityScores: [Int?] = []

  init(pins: [PinStep] = [], confirms: [ConfirmResult] = []) {
    pinSteps = pins
    confirmSteps = confirms
  }

  mutating func getPin(_ request: PinRequest, quality: PassphraseQuality?) -> PinResult {
    pinRequests.append(request)
    qualityOffered.append(quality != nil)
    guard !pinSteps.isEmpty else { return .failed(.general("script has no more passphrases")) }
    switch pinSteps.removeFirst() {
    case .enter(let bytes, let estimate):
      let buffer = secureBuffer(bytes)
      if estimate, let quality { qualityScores.append(quality.estimate(buffer)) }
      return .entered(buffer)
    case .cancel: return .cancelled
    case .timeOut: return .timedOut
    case .fullyCancel: return .fullyCancelled
    case .fail(let error): return .failed(error)
    }
  }

  mutating func confirm(_ request: ConfirmRequest) -> ConfirmResult {
    confirmRequests.append(request)
    guard !confirmSteps.isEmpty else { return .failed(.general("script has no more answers")) }
    return confirmSteps.removeFirst()
  }
}
