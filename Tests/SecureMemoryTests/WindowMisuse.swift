import SecureMemory
import Testing

/// A misuse of a buffer's window that its page protection must stop with a
/// fault, whatever memory the buffer is in: each crash suite runs every one.
enum WindowMisuse: String, Codable, Sendable, CaseIterable, CustomTestStringConvertible {
  /// Reads through a pointer kept from a window already closed: the page is
  /// no-access again.
  case readAfterClose
  /// Writes through the pointer of a read-only window.
  case writeInReadWindow

  var testDescription: String {
    switch self {
    case .readAfterClose: "a read through a pointer kept from a closed window"
    case .writeInReadWindow: "a write through a read-only window"
    }
  }

  /// Commits the misuse on `buffer`, which holds at least one byte; returns
  /// only if the protection failed.
  func commit(on buffer: borrowing SecureBuffer) {
    switch self {
    case .readAfterClose:
      let escaped = buffer.withUnsafeBytes { $0.baseAddress! }
      print(escaped.load(as: UInt8.self))
    case .writeInReadWindow:
      buffer.withUnsafeBytes {
        UnsafeMutableRawPointer(mutating: $0.baseAddress!).storeBytes(of: 1, as: UInt8.self)
      }
    }
  }
}
