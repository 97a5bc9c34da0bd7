import Glibc

extension StrengthAnalysis {
  /// The state of a walk through the word graph: where it is, and what it has
  /// counted of the characters walked (capitals, look-alike characters).
  struct WordWalk {
    var node: Int32
    /// Characters walked before the current step of the walk began.
    var walked = 0
    var capitals = 0
    var lowercase = 0
    /// Per letter that has a look-alike (`Substitution.letterIndex(_:)`): how many
    /// times it was written as its look-alike, and how many times as itself.
    /// Byte arithmetic wraps, as zxcvbn-c's does between a substitution and
    /// the letter's count.
    var substituted = SIMD16<UInt8>(repeating: 0)
    var plain = SIMD16<UInt8>(repeating: 0)
    /// Per look-alike character (`Substitution.index`), the letter it stands
    /// for once chosen, 0 before.
    var chosen = SIMD32<UInt8>(repeating: 0)

    /// The ASCII `character` in lower case, counted as a capital or a
    /// lower-case letter: the case a word matches in and what its entropy
    /// counts.
    mutating func foldCase(_ character: UInt8) -> UInt8 {
      if character >= 0x41 && character <= 0x5A {
        capitals += 1
        return character | 0x20
      }
      if character >= 0x61 && character <= 0x7A { lowercase += 1 }
      return character
    }

    /// The letters the look-alike `character` may stand for on this walk:
    /// itself and the one chosen earlier, once chosen; all of them before.
    func options(for substitution: Substitution, _ character: UInt8) -> (UInt8, UInt8, UInt8) {
      let chosen = self.chosen[substitution.index]
      return chosen != 0 ? (character, chosen, 0) : substitution.options
    }
  }

  /// Finds the list words that start at `start` of the password, or of its
  /// reverse: zxcvbn-c's `DictionaryMatch` on the password and on the
  /// reversed one, which here is read backwards instead of copied.
  mutating func matchWords(start: Int, reversed: Bool) {
    walkWords(
      WordWalk(node: graph.root), start: start, limit: count - start, first: 0,
      reversed: reversed)
  }

  /// Walks the graph from `walk`, along the characters from `start +
  /// walk.walked`, at most `limit` of them. At a look-alike character the
  /// walk branches, once for the character itself and once for each letter
  /// it may stand for, each branch starting with `first`, the character to
  /// take in its place.
  private mutating func walkWords(
    _ walk: WordWalk, start: Int, limit: Int, first: UInt8, reversed: Bool
  ) {
    var walk = walk
    var length = 0
    while length < limit {
      guard spend() else { return }
      var character: UInt8
      if length == 0 && first != 0 {
        character = first
      } else {
        let scalar = self.character(start + walk.walked + length, reversed: reversed)
        guard scalar < 0x80 else { return }
        character = walk.foldCase(UInt8(scalar))
        let substitution = Substitution(character)
        if substitution.index >= 0 {
          let options = walk.options(for: substitution, character)
          for choice in 0..<3 {
            let option = choice == 0 ? options.0 : choice == 1 ? options.1 : options.2
            guard option != 0, graph.child(of: walk.node, character: option) != WordGraph.none
            else { continue }
            var branch = walk
            branch.walked = walk.walked + length
            if option != character {
              branch.chosen[substitution.index] = option
              let letter = Substitution.letterIndex(option)
              branch.substituted[letter] &+= 1
              branch.plain[letter] &-= 1
            }
            walkWords(
              branch, start: start, limit: limit - length, first: option, reversed: reversed)
          }
          return
        }
      }
      let child = graph.child(of: walk.node, character: character)
      guard child != WordGraph.none else { return }
      let letter = Substitution.letterIndex(character)
      if letter >= 0 { walk.plain[letter] &+= 1 }
      walk.node = child
      if graph.endsWord(child) {
        let length = walk.walked + length + 1
        var substitutions = 0
        for letter in 0..<Substitution.letterCount {
          substitutions += Int(walk.substituted[letter])
        }
        let entropy =
          wordEntropy(
            walk, length: length, substitutions: substitutions, start: start, reversed: reversed)
          + graph.logRank(child)
        let kind: StrengthPartKind =
          substitutions > 0
          ? .substitutedWord : graph.isPassword(child) ? .commonPassword : .word
        // zxcvbn-c bounds a part's repeats, and its allowance, by what is left
        // from the last look-alike character; a reversed word's allowance by
        // what is left from its start.
        recordWithRepeats(
          start: start, length: length, entropy: entropy, kind: kind, reversed: reversed,
          limit: limit, maximumLength: reversed ? count - start : limit)
        if isCut { return }
      }
      length += 1
    }
  }

  /// Finds the context words that start at `start` of the password or of its
  /// reverse, in any case and with look-alike characters: zxcvbn-c's
  /// `UserMatch`, a word's rank being its place among them. Notes each word
  /// of ``StrengthRules/contextWordMinimumLength`` or more found.
  mutating func matchContextWords(start: Int, reversed: Bool) {
    let limit = count - start
    for (index, word) in context.enumerated() where word.count > 0 && word.count <= limit {
      var walk = WordWalk(node: graph.root)
      var substitutions = 0
      var matched = true
      for offset in 0..<word.count {
        let scalar = character(start + offset, reversed: reversed)
        let wanted = word.scalars[offset]
        guard scalar < 0x80 else {
          let forms = word.otherCases[offset]
          guard scalar == wanted || any(forms .== SIMD4(repeating: scalar)) else {
            matched = false
            break
          }
          continue
        }
        let character = walk.foldCase(UInt8(scalar))
        let substitution = Substitution(character)
        if substitution.index >= 0 {
          let options = walk.options(for: substitution, character)
          let letter = UInt8(truncatingIfNeeded: wanted)
          guard wanted < 0x80, letter == options.0 || letter == options.1 || letter == options.2
          else {
            matched = false
            break
          }
          // As zxcvbn-c: the choice holds for the rest of the word, and counts
          // as a substitution, even when the word has the character itself;
          // except for `!`, whose choice it forgets.
          if substitution.index != 0 {
            walk.chosen[substitution.index] = letter
            let counted = Substitution.letterIndex(letter)
            if counted >= 0 { walk.substituted[counted] &+= 1 }
            substitutions += 1
          }
        } else if UInt32(character) == wanted {
          let letter = Substitution.letterIndex(character)
          if letter >= 0 { walk.plain[letter] &+= 1 }
        } else {
          matched = false
          break
        }
      }
      guard matched else { continue }
      let entropy =
        wordEntropy(
          walk, length: word.count, substitutions: substitutions, start: start, reversed: reversed)
        + log(Double(index + 1))
      recordWithRepeats(
        start: start, length: word.count, entropy: entropy,
        kind: .contextWord, reversed: reversed, limit: limit, maximumLength: limit)
      if word.count >= StrengthRules.contextWordMinimumLength && index < 64 {
        contextWordsFound |= 1 << UInt64(index)
      }
    }
  }

  /// zxcvbn-c's guesses for a word's spelling, in nats: its capitals (none,
  /// all, or only the first or last: 1 bit; else the ways to place them),
  /// and its look-alike characters (the ways to place them, at least 1 bit).
  private func wordEntropy(
    _ walk: WordWalk, length: Int, substitutions: Int, start: Int, reversed: Bool
  ) -> Double {
    var entropy = 0.0
    if walk.capitals > 0 {
      let edgeIsCapital =
        Self.isCapital(character(start, reversed: reversed))
        || Self.isCapital(character(start + length - 1, reversed: reversed))
      if walk.capitals == length || (walk.capitals == 1 && edgeIsCapital) {
        entropy = Self.ln2
      } else {
        var ways = 0.0
        for placed in (0...min(walk.capitals, walk.lowercase)).reversed() {
          ways += Self.choose(walk.capitals + walk.lowercase, placed)
        }
        entropy = ways > 0 ? log(ways) : 0
      }
    }
    if substitutions > 0 {
      var ways = 0.0
      for letter in (0..<Substitution.letterCount).reversed() where walk.substituted[letter] > 0 {
        let substituted = Int(walk.substituted[letter])
        var plain = Int(walk.plain[letter])
        let rest = length - substitutions
        if rest >= 0 && plain > rest { plain = rest }
        for placed in (0...min(substituted, plain)).reversed() {
          ways += Self.choose(plain + substituted, placed)
        }
      }
      var extra = ways > 0 ? log(ways) : 0
      if extra < Self.ln2 { extra = Self.ln2 }
      entropy += extra
    }
    return entropy
  }

  @inline(__always)
  private static func isCapital(_ scalar: UInt32) -> Bool { scalar >= 0x41 && scalar <= 0x5A }
}

/// The look-alike characters zxcvbn-c knows, each standing for one or two
/// letters: `!` `|` `1` for i, `|` `1` `7` for l, `@` `4` for a, `(` `<` `[`
/// `{` for c, and `$` s, `%` x, `+` t, `0` o, `2` z, `3` e, `5` s, `6` g, `7`
/// t, `8` b, `9` g.
struct Substitution {
  /// The character's place among the look-alikes, in ASCII order (`!` is
  /// 0), or -1 for a character that is none.
  let index: Int
  /// The character itself, then the letters it may stand for (0 for none).
  let options: (UInt8, UInt8, UInt8)

  /// How many letters have look-alikes (``letterIndex(_:)``).
  static let letterCount = 12

  /// The look-alike `character` is, if it is one. A switch rather than a
  /// table: no global to reach for each character.
  @inline(__always)
  init(_ character: UInt8) {
    let (index, first, second): (Int, UInt8, UInt8) =
      switch character {
      case 0x21: (0, 0x69, 0)  // ! i
      case 0x24: (1, 0x73, 0)  // $ s
      case 0x25: (2, 0x78, 0)  // % x
      case 0x28: (3, 0x63, 0)  // ( c
      case 0x2B: (4, 0x74, 0)  // + t
      case 0x30: (5, 0x6F, 0)  // 0 o
      case 0x31: (6, 0x69, 0x6C)  // 1 i l
      case 0x32: (7, 0x7A, 0)  // 2 z
      case 0x33: (8, 0x65, 0)  // 3 e
      case 0x34: (9, 0x61, 0)  // 4 a
      case 0x35: (10, 0x73, 0)  // 5 s
      case 0x36: (11, 0x67, 0)  // 6 g
      case 0x37: (12, 0x6C, 0x74)  // 7 l t
      case 0x38: (13, 0x62, 0)  // 8 b
      case 0x39: (14, 0x67, 0)  // 9 g
      case 0x3C: (15, 0x63, 0)  // < c
      case 0x40: (16, 0x61, 0)  // @ a
      case 0x5B: (17, 0x63, 0)  // [ c
      case 0x7B: (18, 0x63, 0)  // { c
      case 0x7C: (19, 0x69, 0x6C)  // | i l
      default: (-1, 0, 0)
      }
    self.index = index
    options = (character, first, second)
  }

  /// The index of `letter` among the letters that have look-alikes
  /// (`abcegilostxz`, the order their counts are kept in), or -1.
  @inline(__always)
  static func letterIndex(_ letter: UInt8) -> Int {
    switch letter {
    case 0x61: 0  // a
    case 0x62: 1  // b
    case 0x63: 2  // c
    case 0x65: 3  // e
    case 0x67: 4  // g
    case 0x69: 5  // i
    case 0x6C: 6  // l
    case 0x6F: 7  // o
    case 0x73: 8  // s
    case 0x74: 9  // t
    case 0x78: 10  // x
    case 0x7A: 11  // z
    default: -1
    }
  }
}
