import CPasswordLists

/// The bundled word lists (`CPasswordLists`), read in place: a minimal acyclic
/// automaton whose nodes end words with their rank, walked one character at a
/// time so that no word is ever built out of the password.
///
/// The format is in `Scripts/generate-password-lists.py`. A node is an `Int32`:
/// a record's offset, or for a node that ends a word and has no edges (stored
/// inside its parent's edge) the negative ``leaf(_:)``.
struct WordGraph: @unchecked Sendable {
  // Sendable: everything it points to is read-only after `init`.

  /// The graph's bytes, in the C target's read-only data.
  private let bytes: UnsafePointer<UInt8>
  /// The symbol of each ASCII byte (0 to 127), or `noSymbol`.
  private let symbols: UnsafeMutablePointer<UInt8>
  /// The root's child for each symbol, or `none`.
  private let rootChildren: UnsafeMutablePointer<Int32>
  /// The root node.
  let root: Int32
  /// log2 of a rank is stored times this.
  let rankSteps: Double

  /// No node: a walk ends.
  static let none = Int32.min
  private static let noSymbol: UInt8 = 0xFF

  /// The lists as bundled.
  static let bundled = WordGraph()

  private init() {
    bytes = secretfield_password_lists()
    let size = Int(secretfield_password_lists_size())
    precondition(
      size > 12 && bytes[0] == 0x53 && bytes[1] == 0x46 && bytes[2] == 0x57 && bytes[3] == 0x31,
      "WordGraph: the bundled lists are not in the expected format")
    let symbolCount = Int(bytes[4])
    symbols = .allocate(capacity: 128)
    symbols.initialize(repeating: Self.noSymbol, count: 128)
    for index in 0..<symbolCount { symbols[Int(bytes[5 + index])] = UInt8(index) }
    var offset = 5 + symbolCount
    root = Int32(bytes[offset]) | Int32(bytes[offset + 1]) << 8 | Int32(bytes[offset + 2]) << 16
    offset += 3
    rankSteps = Double(bytes[offset])
    rootChildren = .allocate(capacity: 64)
    rootChildren.initialize(repeating: Self.none, count: 64)
    for symbol in 0..<symbolCount {
      rootChildren[symbol] = child(of: root, symbol: UInt8(symbol))
    }
  }

  /// The child of `node` along the ASCII character `character`, or ``none``.
  @inline(__always)
  func child(of node: Int32, character: UInt8) -> Int32 {
    guard character < 0x80 else { return Self.none }
    let symbol = symbols[Int(character)]
    guard symbol != Self.noSymbol else { return Self.none }
    if node == root { return rootChildren[Int(symbol)] }
    return child(of: node, symbol: symbol)
  }

  /// True when the path to `node` spells a word of the lists.
  @inline(__always)
  func endsWord(_ node: Int32) -> Bool {
    node < 0 || bytes[Int(node)] & 0x40 != 0
  }

  /// True when the word `node` ends is on the password list.
  @inline(__always)
  func isPassword(_ node: Int32) -> Bool {
    node < 0 ? Self.payload(ofLeaf: node) & 0x80 != 0 : bytes[Int(node)] & 0x80 != 0
  }

  /// The natural logarithm of the rank of the word `node` ends.
  @inline(__always)
  func logRank(_ node: Int32) -> Double {
    let steps = node < 0 ? Self.payload(ofLeaf: node) & 0x7F : bytes[Int(node) + 1]
    return Double(steps) / rankSteps * 0.693_147_180_559_945_3
  }

  private func child(of node: Int32, symbol: UInt8) -> Int32 {
    guard node >= 0 else { return Self.none }
    let record = bytes + Int(node)
    let header = record[0]
    let edgeCount = Int(header & 0x3F)
    let labels = record + (header & 0x40 != 0 ? 2 : 1)
    var payload = edgeCount
    var index = 0
    while index < edgeCount {
      let label = labels[index]
      let labelSymbol = label & 0x3F
      if labelSymbol == symbol { break }
      if labelSymbol > symbol { return Self.none }
      payload += Self.payloadSize(label)
      index += 1
    }
    guard index < edgeCount else { return Self.none }
    let label = labels[index]
    let target = labels + payload
    switch label >> 6 {
    case 0:
      // The record that follows this one: skip the rest of the payloads.
      var end = payload + Self.payloadSize(label)
      for rest in index + 1..<edgeCount { end += Self.payloadSize(labels[rest]) }
      return Int32(labels - bytes) + Int32(end)
    case 1:
      return Self.leaf(target[0])
    case 2:
      let distance = Int16(bitPattern: UInt16(target[0]) | UInt16(target[1]) << 8)
      return node + Int32(distance)
    default:
      return Int32(target[0]) | Int32(target[1]) << 8 | Int32(target[2]) << 16
    }
  }

  /// How many words the graph holds, and how many of them are passwords:
  /// every path from the root to a node that ends a word.
  ///
  /// - Complexity: a walk of every node once (memoised), for tests.
  func wordCounts() -> (words: Int, passwords: Int) {
    var memo: [Int32: (words: Int, passwords: Int)] = [:]
    func count(_ node: Int32) -> (words: Int, passwords: Int) {
      if let known = memo[node] { return known }
      var total = (words: 0, passwords: 0)
      if node != root && endsWord(node) {
        total.words += 1
        if isPassword(node) { total.passwords += 1 }
      }
      if node >= 0 {
        let edgeCount = Int(bytes[Int(node)] & 0x3F)
        let labels = bytes + Int(node) + (bytes[Int(node)] & 0x40 != 0 ? 2 : 1)
        for index in 0..<edgeCount {
          let below = count(child(of: node, symbol: labels[index] & 0x3F))
          total.words += below.words
          total.passwords += below.passwords
        }
      }
      memo[node] = total
      return total
    }
    return count(root)
  }

  @inline(__always)
  private static func payloadSize(_ label: UInt8) -> Int {
    switch label >> 6 {
    case 0: 0
    case 1: 1
    case 2: 2
    default: 3
    }
  }

  /// The node for a leaf whose parent's edge holds `payload`.
  @inline(__always)
  private static func leaf(_ payload: UInt8) -> Int32 { -1 - Int32(payload) }

  @inline(__always)
  private static func payload(ofLeaf node: Int32) -> UInt8 { UInt8(truncatingIfNeeded: -1 - node) }
}
