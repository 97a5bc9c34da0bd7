import SecretField
import SecureMemory

/// The secure buffers a ``PasswordPrompt`` hands its answer over in: made
/// before the first key, with the field's buffers, so that Enter allocates
/// nothing.
///
/// Enter copies the field into a buffer of its own, which the prompt returns
/// (the field is wiped and kept). Made at Enter, that buffer was the first
/// allocation the locked-memory limit could refuse after the password was
/// typed: the prompt was drawn, the password typed, and Enter failed. Made
/// here, a limit the prompt cannot live with is refused before anything is
/// drawn, and one it can live with holds to the end: one answer, two under a
/// confirmation (the first entry is kept while the second is typed). Each
/// holds what the field holds without growing (``PromptBuffers/textCapacity(for:)``)
/// and a byte more (a newline, for a tool); a longer password grows them at
/// the key that makes it longer (``ensureRoom(for:)``), where a refusal costs
/// that key only.
///
/// - Complexity: one secure allocation per answer at start, one page each
///   (sodium or secret memory).
struct PromptAnswers: ~Copyable {
  private var first: SecureBuffer?
  private var second: SecureBuffer?
  /// The bytes every answer held can take without growing (`.max` with none
  /// held).
  private(set) var capacity = Int.max

  /// No answer buffers: a prompt that makes them when it starts.
  init() {}

  /// The answers a prompt of `configuration` needs.
  ///
  /// - Throws: ``TerminalError`` with code `secureMemoryFailed` (the limit).
  init(configuration: PromptConfiguration) throws(TerminalError) {
    let capacity = PromptBuffers.textCapacity(for: configuration.fieldLimits) + 1
    do {
      let made = try SecureBuffer(capacity: capacity, storage: configuration.storage)
      self.capacity = made.capacity
      first = consume made
      if configuration.confirmation != nil {
        second = try SecureBuffer(capacity: capacity, storage: configuration.storage)
      }
    } catch {
      throw .secureMemory(error)
    }
  }

  /// Grows every answer held to take `count` bytes, ahead of an edit that may
  /// make the field that long.
  ///
  /// - Throws: ``TerminalError`` with code `secureMemoryFailed`; the answers
  ///   are then as they were.
  mutating func ensureRoom(for count: Int) throws(TerminalError) {
    var failure: SecureMemoryError?
    if var held = first.take() {
      do { try held.reserveCapacity(count) } catch { failure = error }
      first = consume held
    }
    if failure == nil, var held = second.take() {
      do { try held.reserveCapacity(count) } catch { failure = error }
      second = consume held
    }
    if let failure { throw .secureMemory(failure) }
    capacity = max(capacity, count)
  }

  /// An answer holding the field's text (through `SecureBuffer.append`, with
  /// room for one more byte): one made at start when one is left and has
  /// room, else a new one (a prompt that made none).
  mutating func take(
    copying field: borrowing SecretFieldState, storage: SecureStorage
  ) throws(TerminalError) -> SecureBuffer {
    var answer: SecureBuffer
    if let held = first.take() {
      answer = held
    } else if let held = second.take() {
      answer = held
    } else {
      do { answer = try SecureBuffer(capacity: field.utf8Count + 1, storage: storage) } catch {
        throw .secureMemory(error)
      }
    }
    do {
      try answer.reserveCapacity(field.utf8Count + 1)
      try field.withSecret { bytes throws(SecureMemoryError) in try answer.append(bytes) }
    } catch {
      throw .secureMemory(error)
    }
    return answer
  }

  /// Takes back an answer that was not the result (the entries of a
  /// confirmation that differed), wiped, for the next entry.
  mutating func giveBack(_ answer: consuming SecureBuffer) {
    answer.removeAll()
    capacity = min(capacity == .max ? answer.capacity : capacity, answer.capacity)
    if first == nil {
      first = consume answer
    } else if second == nil {
      second = consume answer
    }
  }
}
