internal import CGtk
import SecretField

/// Draws a field's `DisplayLine` with cairo: the frame, the selection, one
/// cell per character, the caret. Every cell has the same width, so a masked
/// line shows how many characters there are and nothing else: two passwords of
/// the same length draw the same pixels.
struct FieldPainter {
  /// The cairo context of the drawing area (`cairo_t *`).
  let cairo: OpaquePointer
  let width: Double
  let height: Double

  /// The width of one character's cell, in pixels.
  static let cellWidth = 14.0
  /// The space between the frame and the first cell.
  static let padding = 8.0
  /// The radius of a masked character's circle.
  static let maskRadius = 4.0

  /// Paints `line`. `revealed` is called for each revealed cell with the
  /// cell's left edge and baseline, to draw the character itself there.
  func paint(
    _ line: DisplayLine, focused: Bool,
    revealed: (DisplayLine.Cell, _ x: Double, _ baseline: Double) -> Void
  ) {
    let middle = height / 2
    // Scrolled so that the caret stays inside the frame.
    let room = width - 2 * Self.padding - 2
    let caretOffset = Double(line.caret) * Self.cellWidth
    let scroll = max(0, caretOffset - room)
    func left(_ cell: Int) -> Double { Self.padding + Double(cell) * Self.cellWidth - scroll }

    // The frame.
    cairo_set_source_rgb(cairo, 1, 1, 1)
    cairo_rectangle(cairo, 0.5, 0.5, width - 1, height - 1)
    cairo_fill_preserve(cairo)
    if focused {
      cairo_set_source_rgb(cairo, 0.21, 0.52, 0.89)
      cairo_set_line_width(cairo, 2)
    } else {
      cairo_set_source_rgb(cairo, 0.6, 0.6, 0.6)
      cairo_set_line_width(cairo, 1)
    }
    cairo_stroke(cairo)

    cairo_save(cairo)
    cairo_rectangle(cairo, 2, 2, width - 4, height - 4)
    cairo_clip(cairo)
    if !line.selection.isEmpty {
      cairo_set_source_rgb(cairo, 0.75, 0.84, 0.96)
      cairo_rectangle(
        cairo, left(line.selection.lowerBound), 5, Double(line.selection.count) * Self.cellWidth,
        height - 10)
      cairo_fill(cairo)
    }
    cairo_set_source_rgb(cairo, 0.1, 0.1, 0.1)
    for cell in line.cells {
      let x = left(cell.index)
      guard x + Self.cellWidth > 0, x < width else { continue }
      switch cell.content {
      case .masked:
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, x + Self.cellWidth / 2, middle, Self.maskRadius, 0, 2 * Double.pi)
        cairo_fill(cairo)
      case .revealed:
        revealed(cell, x, middle + 5)
      }
    }
    if focused {
      let x = left(line.caret).rounded() + 0.5
      cairo_set_source_rgb(cairo, 0, 0, 0)
      cairo_set_line_width(cairo, 1)
      cairo_move_to(cairo, x, 6)
      cairo_line_to(cairo, x, height - 6)
      cairo_stroke(cairo)
    }
    cairo_restore(cairo)
  }

  /// Draws the NUL-terminated UTF-8 `text` at `x`, `baseline`, centred in a
  /// cell, in the toy monospace font. Wraps `cairo_show_text`.
  func show(_ text: UnsafePointer<CChar>, x: Double, baseline: Double) {
    cairo_select_font_face(cairo, "monospace", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    cairo_set_font_size(cairo, 15)
    cairo_move_to(cairo, x + 2, baseline)
    cairo_show_text(cairo, text)
  }
}
