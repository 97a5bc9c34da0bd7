import SecureMemory

/// How many terminal columns text takes, by a table of the package's own rather
/// than `wcwidth`.
///
/// `wcwidth` answers only under a UTF-8 locale that is installed, and its answer
/// varies with the C library; a table of our own answers the same everywhere and
/// in tests. Rules, as `wcwidth` has them: East Asian Wide and Fullwidth
/// characters take two columns; combining and enclosing marks, format
/// characters (except the soft hyphen) and Hangul medial vowels and final
/// consonants take none; controls take none; everything else takes one. A
/// cluster takes the sum of its scalars, as xterm, VTE and most terminals draw
/// it; terminals differ on emoji ZWJ sequences, so a renderer should place the
/// caret by absolute column rather than trust the terminal to agree.
package enum CharacterWidth {
  /// The columns one scalar takes: 0, 1 or 2.
  ///
  /// - Complexity: O(log n) in the ~80 wide ranges.
  package static func columns(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x7F { return value >= 0x20 ? 1 : 0 }
    if value < 0xA0 { return 0 }
    if value == 0xAD { return 1 }
    if (0x1160...0x11FF).contains(value) { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    return isWide(value) ? 2 : 1
  }

  /// The columns valid UTF-8 text takes: the sum over its scalars. A byte that
  /// does not decode counts one column, as a replacement character would.
  ///
  /// Reads the bytes where they are, for text lent out from secure memory, and
  /// wipes the stack after: the decoded scalars passed through locals.
  ///
  /// - Complexity: O(`bytes.count`), plus `sodium_stackzero` of 16 KiB.
  package static func columns(ofUTF8 bytes: UnsafeRawBufferPointer) -> Int {
    let total = sumColumns(bytes)
    wipeStack()
    return total
  }

  @inline(never)
  static func sumColumns(_ bytes: UnsafeRawBufferPointer) -> Int {
    var iterator = bytes.makeIterator()
    var decoder = Unicode.UTF8()
    var total = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): total += columns(of: scalar)
      case .error: total += 1
      case .emptyInput: return total
      }
    }
  }

  static func isWide(_ value: UInt32) -> Bool {
    var low = 0
    var high = wideRanges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let range = wideRanges[middle]
      if value < range.lowerBound {
        high = middle - 1
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }
}
