import Pinentry
import SecretField
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

  /// One answer to `confirm`.
  enum ConfirmStep: Sendable, Hashable {
    case confirmed, declined, cancelled, timedOut, fullyCancelled
    case failed(AssuanError)
  }

  var pinSteps: [PinStep] = []
  var confirmSteps: [ConfirmStep] = []

  /// What the session asked, in order.
  var pinRequests: [PinRequest] = []
  var confirmRequests: [ConfirmRequest] = []
  /// Whether each `getPin` was offered a quality handle.
  var qualityOffered: [Bool] = []
  /// The client's quality estimates, in order.
  var qualityScores: [Int?] = []

  init(pins: [PinStep] = [], confirms: [ConfirmStep] = []) {
    pinSteps = pins
    confirmSteps = confirms
  }

  mutating func getPin(
    _ request: PinRequest, quality: PassphraseQuality?
  ) throws(AssuanError) -> EntryOutcome<SecureBuffer> {
    pinRequests.append(request)
    qualityOffered.append(quality != nil)
    guard !pinSteps.isEmpty else { throw .general("script has no more passphrases") }
    switch pinSteps.removeFirst() {
    case .enter(let bytes, let estimate):
      let buffer = secureBuffer(bytes)
      if estimate, let quality { qualityScores.append(quality.estimate(buffer)) }
      return .submitted(buffer)
    case .cancel: return .ended(.cancelled(.escape))
    case .timeOut: return .ended(.timedOut)
    case .fullyCancel: return .ended(.cancelled(.interrupt))
    case .fail(let error): throw error
    }
  }

  mutating func confirm(_ request: ConfirmRequest) throws(AssuanError) -> EntryOutcome<Void> {
    confirmRequests.append(request)
    guard !confirmSteps.isEmpty else { throw .general("script has no more answers") }
    switch confirmSteps.removeFirst() {
    case .confirmed: return .yes
    case .declined: return .ended(.declined)
    case .cancelled: return .ended(.cancelled(.escape))
    case .timedOut: return .ended(.timedOut)
    case .fullyCancelled: return .ended(.cancelled(.interrupt))
    case .failed(let error): throw error
    }
  }
}
