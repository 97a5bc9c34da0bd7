/// What a field refuses to do with its content.
///
/// Each option turns a protection on; ``default`` is the set a password field
/// wants: no copy, no cut, masked while captured, re-masked on focus loss.
public struct FieldPolicy: OptionSet, Sendable, Hashable {
  /// The bits of the set.
  public let rawValue: UInt32

  /// A policy from its bits.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// ``SecretFieldState/copy(_:)`` throws instead of handing out the selection.
  public static let noCopy = FieldPolicy(rawValue: 1 << 0)
  /// ``SecretFieldState/cut(_:)`` throws and changes nothing.
  public static let noCut = FieldPolicy(rawValue: 1 << 1)
  /// ``SecretFieldState/paste(_:)`` throws and changes nothing.
  public static let noPaste = FieldPolicy(rawValue: 1 << 2)
  /// While ``SecretFieldState/isCaptured`` is true, the field renders fully masked
  /// and refuses to reveal.
  public static let maskOnCapture = FieldPolicy(rawValue: 1 << 3)
  /// Losing focus ends a full reveal (``ObfuscationMode/visible``) as well as a
  /// last-typed one.
  public static let remaskOnFocusLoss = FieldPolicy(rawValue: 1 << 4)

  /// No copy, no cut, mask on capture, re-mask on focus loss. Paste is allowed:
  /// password managers paste.
  public static let `default`: FieldPolicy = [.noCopy, .noCut, .maskOnCapture, .remaskOnFocusLoss]
}
