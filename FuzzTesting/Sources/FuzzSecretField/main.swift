import FuzzSupport
import SecretField
import SecureMemory

// The field: the fuzzer's bytes are a sequence of edits (type, paste, raw
// bytes that may be invalid UTF-8 or controls, selections, moves, deletions,
// reveal, capture, clear) applied to a SecretFieldState and to FieldModel, a
// String oracle. After every step the field's bytes, count, caret, selection
// and whether it refused must agree with the model, and a refused edit leaves
// the field as it was. Tight limits (16 characters, 48 bytes) so the limits
// are reached.

/// One field for every input (cleared before each).
final class FieldBox {
  var field = try! SecretFieldState(
    policy: [.maskOnCapture], limits: FieldLimits(maxCharacters: 16, maxBytes: 48))
}

nonisolated(unsafe) var box: FieldBox? = nil

/// Pieces that join into clusters only with their neighbours.
let pieces: [String] = [
  "a", "Z", "7", " ", "-", "é", "ß", "漢", "😀", "e\u{301}", "\u{301}", "\u{200D}", "\u{FE0F}",
  "👨‍👩‍👧", "👨", "🇫", "🇷", "🏽", "\u{1100}", "\u{1161}", "\u{11A8}", "क्ष", "\u{094D}",
]

/// libFuzzer's entry point: one input, checked as described above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSecretField(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(UnsafeRawBufferPointer(start: start, count: count))
  if box == nil { box = FieldBox() }
  let box = box!
  box.field.clear()
  if box.field.obfuscationMode == .visible { try! box.field.toggleReveal() }
  box.field.isCaptured = false
  var model = FieldModel(maxCharacters: 16, maxBytes: 48)
  var steps = 0
  while !input.isAtEnd && steps < 200 {
    steps += 1
    let operation = input.number(in: 0...15)
    // Only an edit can be refused; a window on the field for every step was a
    // good part of the target's time.
    let before = operation <= 3 || operation >= 15 ? box.field.withSecret { Array($0) } : []
    var expected: FieldModel.Refusal?
    var thrown: FieldError?
    switch operation {
    case 0, 1, 2:
      let piece = Array(pieces[input.number(in: 0...(pieces.count - 1))].utf8)
      expected = model.edit(model.selection, with: piece)
      thrown = attempt(piece) { raw throws(FieldError) in try box.field.insert(raw) }
    case 3:
      let bytes = Array(input.take(input.number(in: 1...8)))
      if bytes.isEmpty { continue }
      expected = model.edit(model.selection, with: bytes)
      thrown = attempt(bytes) { raw throws(FieldError) in try box.field.paste(raw) }
    case 4:
      let a = input.number(in: 0...255) % (model.count + 1)
      let b = input.number(in: 0...255) % (model.count + 1)
      model.anchor = min(a, b)
      model.caret = max(a, b)
      box.field.select(min(a, b)..<max(a, b))
    case 5:
      model.deleteSelection(orElse: max(model.caret - 1, 0)..<model.caret)
      box.field.deleteBackward()
    case 6:
      model.deleteSelection(orElse: model.caret..<min(model.caret + 1, model.count))
      box.field.deleteForward()
    case 7:
      model.deleteSelection(orElse: 0..<model.caret)
      box.field.deleteToStart()
    case 8:
      model.deleteSelection(orElse: model.caret..<model.count)
      box.field.deleteToEnd()
    case 9:
      model.deleteSelection(orElse: model.wordStart(before: model.caret)..<model.caret)
      box.field.deleteWordBackward()
    case 10, 11:
      let choice = input.number(in: 0...11)
      let extending = choice >= 6
      let movements: [(FieldModel.Movement, CaretMovement)] = [
        (.left, .left), (.right, .right), (.start, .start), (.end, .end),
        (.wordLeft, .wordLeft), (.wordRight, .wordRight),
      ]
      let (modelMove, fieldMove) = movements[choice % 6]
      model.move(modelMove, extending: extending)
      box.field.moveCaret(fieldMove, extendingSelection: extending)
    case 12:
      let refused = !model.isVisible && model.isCaptured
      thrown = attempt { () throws(FieldError) in try box.field.toggleReveal() }
      require((thrown != nil) == refused, "reveal while captured: \(String(describing: thrown))")
      if !refused { model.isVisible.toggle() }
      thrown = nil
    case 13:
      model.isCaptured.toggle()
      if model.isCaptured { model.isVisible = false }
      box.field.isCaptured = model.isCaptured
    case 14:
      model.text = ""
      model.anchor = 0
      model.caret = 0
      box.field.clear()
    default:
      let bytes = Array(input.take(input.number(in: 1...6)))
      if bytes.isEmpty { continue }
      expected = model.edit(model.selection, with: bytes)
      thrown = attempt(bytes) { raw throws(FieldError) in try box.field.insert(raw) }
    }
    let code: FieldModel.Refusal? =
      switch thrown?.code {
      case nil: nil
      case FieldError.Code.invalidUTF8: .invalidUTF8
      case FieldError.Code.controlCharacter: .controlCharacter
      case FieldError.Code.tooManyBytes: .tooManyBytes
      case FieldError.Code.tooManyCharacters: .tooManyCharacters
      default: nil
      }
    require(thrown == nil || code != nil, "unexpected error \(String(describing: thrown))")
    require(
      code == expected,
      "step \(steps): threw \(String(describing: code)), model \(String(describing: expected))")
    let after = box.field.withSecret { Array($0) }
    if thrown != nil { require(after == before, "a refused edit changed the field") }
    require(after == Array(model.text.utf8), "text \(after), model \(Array(model.text.utf8))")
    require(box.field.count == model.count, "count \(box.field.count), model \(model.count)")
    require(box.field.caret == model.caret, "caret \(box.field.caret), model \(model.caret)")
    require(
      box.field.selection == model.selection,
      "selection \(box.field.selection), model \(model.selection)")
    require(
      (box.field.obfuscationMode == .visible) == model.isVisible,
      "mode \(box.field.obfuscationMode), model visible \(model.isVisible)")
  }
  return 0
}

func attempt(_ body: () throws(FieldError) -> Void) -> FieldError? {
  do throws(FieldError) {
    try body()
    return nil
  } catch {
    return error
  }
}

/// Calls `body` with `bytes`; the error it threw, if any.
func attempt(
  _ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(FieldError) -> Void
) -> FieldError? {
  var failure: FieldError?
  bytes.withUnsafeBytes { raw in
    do throws(FieldError) { try body(raw) } catch { failure = error }
  }
  return failure
}
