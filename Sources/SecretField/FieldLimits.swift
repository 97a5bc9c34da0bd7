/// The most a field holds; an insert or paste that would pass either limit is
/// refused with ``FieldError`` and leaves the field unchanged.
public struct FieldLimits: Sendable, Hashable {
  /// The most user-perceived characters (grapheme clusters). Default 1,024.
  public var maxCharacters: Int
  /// The most UTF-8 bytes. Default 8 KiB.
  public var maxBytes: Int

  /// Limits of `maxCharacters` characters and `maxBytes` bytes.
  ///
  /// - Precondition: both are positive.
  public init(maxCharacters: Int = 1024, maxBytes: Int = 8 * 1024) {
    precondition(maxCharacters > 0 && maxBytes > 0, "FieldLimits: limits must be positive")
    self.maxCharacters = maxCharacters
    self.maxBytes = maxBytes
  }

  /// 1,024 characters and 8 KiB.
  public static let `default` = FieldLimits()
}
