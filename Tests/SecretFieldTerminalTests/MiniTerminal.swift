import SecretFieldTerminal

/// A small terminal emulator for unit tests of the renderer: it understands
/// exactly the sequences the prompt writes (CR, LF, `CSI n A/B/C/D/G/K/J/m`,
/// BEL) and places text by ``CharacterWidth``, as a terminal with the same
/// table would. A test oracle, in ordinary memory.
struct MiniTerminal {
  let columns: Int
  let rows: Int
  /// One string per cell; a wide character's second cell is "".
  var grid: [[String]]
  var row = 0
  var column = 0
  /// Lines scrolled off the top.
  var scrollback: [String] = []
  /// Everything written, as received, for failure messages.
  var log = ""

  init(columns: Int, rows: Int = 10) {
    self.columns = columns
    self.rows = rows
    grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
  }

  /// The text of row `index`, trailing spaces removed.
  func line(_ index: Int) -> String {
    var text = grid[index].joined()
    while text.last == " " { text.removeLast() }
    return text
  }

  /// The rows from the cursor's row down, trailing empty rows removed.
  var visibleLines: [String] {
    var lines = (0..<rows).map(line)
    while lines.last == "" { lines.removeLast() }
    return lines
  }

  mutating func write(_ text: String) {
    log += text
    var scalars = Array(text.unicodeScalars)[...]
    while let scalar = scalars.popFirst() {
      switch scalar.value {
      case 0x0D: column = 0
      case 0x0A: lineFeed()
      case 0x07: break
      case 0x1B:
        guard scalars.first == "[" else { continue }
        scalars.removeFirst()
        var parameters = ""
        while let next = scalars.first, next.value >= 0x30 && next.value <= 0x3F {
          parameters.unicodeScalars.append(next)
          scalars.removeFirst()
        }
        guard let final = scalars.popFirst() else { return }
        control(final, parameters)
      default:
        put(scalar)
      }
    }
  }

  mutating func lineFeed() {
    if row == rows - 1 {
      scrollback.append(line(0))
      grid.removeFirst()
      grid.append(Array(repeating: " ", count: columns))
    } else {
      row += 1
    }
  }

  mutating func put(_ scalar: Unicode.Scalar) {
    let width = CharacterWidth.columns(of: scalar)
    if width == 0 {
      // A combining scalar joins the cell before the cursor.
      let target = max(0, column - 1)
      grid[row][target] += String(scalar)
      return
    }
    if column + width > columns {
      column = 0
      lineFeed()
    }
    grid[row][column] = String(scalar)
    if width == 2 && column + 1 < columns { grid[row][column + 1] = "" }
    column += width
  }

  mutating func control(_ final: Unicode.Scalar, _ parameters: String) {
    let count = Int(parameters) ?? 1
    switch final {
    case "A": row = max(0, row - count)
    case "B": row = min(rows - 1, row + count)
    case "C": column = min(columns - 1, column + count)
    case "D": column = max(0, column - count)
    case "G": column = min(columns - 1, max(0, count - 1))
    case "K":
      for index in column..<columns { grid[row][index] = " " }
    case "J":
      for index in column..<columns { grid[row][index] = " " }
      for below in (row + 1)..<rows {
        grid[below] = Array(repeating: " ", count: columns)
      }
    default:
      break  // m (attributes), and what the prompt does not send
    }
  }
}
