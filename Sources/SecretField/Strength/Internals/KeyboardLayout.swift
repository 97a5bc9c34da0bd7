/// A keyboard the estimate looks for walks on: which key lies next to which,
/// in which direction, and which characters are a key's shifted ones.
///
/// Built once from the rows of the layout, as zxcvbn-c's tables describe the
/// same five (US and UK QWERTY, Dvorak, a PC and a Mac keypad). Keyboards are
/// slanted: each row sits half a key right of the one above, and a key has
/// six neighbours (left, up-left, up-right, right, down-right, down-left).
/// Keypads are aligned, with eight (left, up-left, up, up-right, right,
/// down-right, down, down-left). A walk turns when its direction changes.
struct KeyboardLayout: @unchecked Sendable {
  // Sendable: the tables are written in `init` only.

  /// Directions from a key: 6 on a keyboard, 8 on a keypad.
  let directions: Int
  /// For each ASCII key, its neighbour in each direction (0 for none), at
  /// `key * directions + direction`; `isKey` says which rows are keys.
  private let neighbours: UnsafeMutablePointer<UInt8>
  private let isKey: UnsafeMutablePointer<Bool>
  /// For each shifted ASCII character, its key's unshifted one; 0 otherwise.
  private let unshifted: UnsafeMutablePointer<UInt8>
  /// Whether the layout has shifted characters (keypads have none).
  let hasShift: Bool
  /// How many keys there are.
  let keyCount: Int
  /// How many neighbour slots are empty, over all keys.
  let blankCount: Int

  /// Makes a slanted layout from its rows: each row's unshifted characters,
  /// its shifted ones (the same length, or empty), and how many half keys it
  /// starts right of the first row.
  private init(slantedRows rows: [(unshifted: String, shifted: String, indent: Int)]) {
    var positions: [Position: UInt8] = [:]
    var shifts: [(UInt8, UInt8)] = []
    for (row, layout) in rows.enumerated() {
      let keys = Array(layout.unshifted.utf8)
      for (index, key) in keys.enumerated() {
        positions[Position(x: layout.indent + 2 * index, y: row)] = key
      }
      for (shifted, key) in zip(layout.shifted.utf8, keys) where shifted != 0x20 {
        shifts.append((shifted, key))
      }
    }
    self.init(
      positions: positions, steps: [(-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1), (-1, 1)],
      shifts: shifts)
  }

  /// Makes an aligned layout from its rows, a space for no key.
  private init(alignedRows rows: [String]) {
    var positions: [Position: UInt8] = [:]
    for (row, keys) in rows.enumerated() {
      for (column, key) in keys.utf8.enumerated() where key != 0x20 {
        positions[Position(x: column, y: row)] = key
      }
    }
    self.init(
      positions: positions,
      steps: [(-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1)], shifts: [])
  }

  private init(positions: [Position: UInt8], steps: [(Int, Int)], shifts: [(UInt8, UInt8)]) {
    directions = steps.count
    neighbours = .allocate(capacity: 128 * steps.count)
    neighbours.initialize(repeating: 0, count: 128 * steps.count)
    isKey = .allocate(capacity: 128)
    isKey.initialize(repeating: false, count: 128)
    unshifted = .allocate(capacity: 128)
    unshifted.initialize(repeating: 0, count: 128)
    var blanks = 0
    for (position, key) in positions {
      isKey[Int(key)] = true
      for (direction, step) in steps.enumerated() {
        let neighbour = positions[Position(x: position.x + step.0, y: position.y + step.1)]
        if let neighbour {
          neighbours[Int(key) * steps.count + direction] = neighbour
        } else {
          blanks += 1
        }
      }
    }
    for (shifted, key) in shifts { unshifted[Int(shifted)] = key }
    hasShift = !shifts.isEmpty
    keyCount = positions.count
    blankCount = blanks
  }

  /// The key a character is typed on, and whether with shift; nil for a
  /// character not on this layout's keys.
  @inline(__always)
  func key(for character: UInt32) -> (key: UInt8, shifted: Bool)? {
    guard character < 0x80 else { return nil }
    let shiftedKey = unshifted[Int(character)]
    if shiftedKey != 0 { return (shiftedKey, true) }
    return (UInt8(character), false)
  }

  /// The direction (1 to ``directions``) in which `next` lies from `key`, or 0
  /// when it is not a neighbour. Searched from the last direction back, as
  /// zxcvbn-c does.
  @inline(__always)
  func direction(from key: UInt8, to next: UInt8) -> Int {
    guard isKey[Int(key)] else { return 0 }
    let row = neighbours + Int(key) * directions
    var direction = directions
    while direction > 0 {
      if row[direction - 1] == next { return direction }
      direction -= 1
    }
    return 0
  }

  private struct Position: Hashable {
    var x: Int
    var y: Int
  }

  /// The layouts, in the order zxcvbn-c tries them. A space in a shifted row
  /// is a key whose shifted character is left out, as zxcvbn-c's tables leave
  /// out `+` above `=` (and the UK `¬` and `£`, outside ASCII).
  static let all: [KeyboardLayout] = [
    KeyboardLayout(slantedRows: [
      ("`1234567890-=", "~!@#$%^&*()_ ", 0),
      ("qwertyuiop[]\\", "QWERTYUIOP{}|", 3),
      ("asdfghjkl;'", "ASDFGHJKL:\"", 4),
      ("zxcvbnm,./", "ZXCVBNM<>?", 5),
    ]),
    KeyboardLayout(slantedRows: [
      ("`1234567890[]", "~!@#$%^&*(){}", 0),
      ("',.pyfgcrl/=\\", "\"<>PYFGCRL? |", 3),
      ("aoeuidhtns-", "AOEUIDHTNS_", 4),
      (";qjkxbmwvz", ":QJKXBMWVZ", 5),
    ]),
    KeyboardLayout(slantedRows: [
      ("`1234567890-=", " !\" $%^&*()_ ", 0),
      ("qwertyuiop[]", "QWERTYUIOP{}", 3),
      ("asdfghjkl;'#", "ASDFGHJKL:@~", 4),
      ("\\zxcvbnm,./", "|ZXCVBNM<>?", 3),
    ]),
    KeyboardLayout(alignedRows: [" =/*", "789-", "456+", "123", " 0."]),
    KeyboardLayout(alignedRows: [" /*-", "789+", "456", "123", " 0."]),
  ]
}
