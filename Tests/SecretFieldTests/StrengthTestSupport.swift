import CZxcvbn
import Glibc
import SecretField
import SecureMemory
import TestSupport

/// Judges `password` (a test's oracle value, so a `String` is fine here) with
/// a judge of `rules`.
func judgeStrength(
  _ password: String, rules: StrengthRules = StrengthRules(),
  budget: StrengthBudget = .unlimited
) -> PasswordStrength {
  var judge = try! StrengthJudge(rules: rules)
  var buffer = try! SecureBuffer(capacity: max(password.utf8.count, 1))
  Array(password.utf8).withUnsafeBytes { try! buffer.append($0) }
  return judge.judge(buffer, budget: budget)
}

/// zxcvbn-c (Debian's libzxcvbn), the oracle: its estimate of `password`
/// with `userWords` as its user dictionary, in bits, and the same figures
/// ours gives (log10 of the guesses, zxcvbn's score).
enum ZxcvbnOracle {
  static func bits(_ password: String, userWords: [String] = []) -> Double {
    let words = userWords.map { strdup($0) }
    defer { words.forEach { free($0) } }
    var list: [UnsafePointer<CChar>?] = words.map { UnsafePointer($0) } + [nil]
    return list.withUnsafeMutableBufferPointer { list in
      ZxcvbnMatch(password, list.baseAddress, nil)
    }
  }

  /// zxcvbn-c's estimate of the NUL-terminated `password`, in bits.
  static func bits(cString password: UnsafePointer<CChar>) -> Double {
    ZxcvbnMatch(password, nil, nil)
  }

  static func guessesLog10(_ password: String, userWords: [String] = []) -> Double {
    bits(password, userWords: userWords) * 0.301_029_995_663_981_2
  }

  static func score(guessesLog10: Double) -> Int {
    let thresholds = [1e3 + 5, 1e6 + 5, 1e8 + 5, 1e10 + 5].map { log10($0) }
    return thresholds.firstIndex { guessesLog10 < $0 } ?? 4
  }
}

/// A few hundred varied passwords: list words and their variants (case,
/// digits, look-alikes, reversal, repeats), keyboard walks, sequences,
/// dates, passphrases and random strings of several alphabets.
enum VariedPasswords {
  static let words = [
    "password", "dragon", "monkey", "football", "sunshine", "princess", "shadow", "superman",
    "michael", "jennifer", "jordan", "hunter", "charlie", "letmein", "trustno1", "welcome",
    "freedom", "whatever", "computer", "internet", "baseball", "master", "silver", "orange",
    "correct", "horse", "battery", "staple", "mountain", "river", "elephant", "purple",
    "smith", "johnson", "garcia", "elizabeth", "patricia", "thomas", "william", "anderson",
    "government", "information", "available", "particular", "knowledge", "experience",
  ]

  static let walks = [
    "qwerty", "qwertyuiop", "asdfgh", "asdfghjkl", "zxcvbnm", "1qaz2wsx", "qazwsx", "!QAZ2wsx",
    "1q2w3e4r", "q1w2e3r4t5", "zaq12wsx", "poiuytrewq", "mnbvcxz", "qwertz", "azerty",
    "7410852963", "147258369", "789456123", "159753", "963852741", "aoeuidhtns", "',.pyfgcrl",
    "QWERTYUIOP", "Qwerty123!", "qweasdzxc", "1234qwer", "zxcasdqwe", "!@#$%^&*", "~!@#$%^&*()_+",
    "yhnujm", "plokij", "wsxedc", "rfvtgb", "qwe123", "asd456zxc",
  ]

  static let shapes = [
    "aaaaaaaa", "aaaaaaaaaaaaaaaa", "zzzzzzzzzzzz", "1111111111", "abababab", "abcabcabcabc",
    "xq7xq7xq7", "12341234", "abcdefgh", "abcdefghijklmnop", "zyxwvuts", "ZYXWVUTSR",
    "1234567890", "0987654321", "13579", "2468024680", "acegikmoq", "9753197531",
    "1234567890123456", "qwertyuiopasdfgh", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "01/02/1985", "1985-02-01", "12121990", "19900101", "7/4/76", "31.12.2015", "2015_06_04",
    "1999", "2024", "march1985", "06071979", "1/1/2000", "20001231",
  ]

  static let alphabets = [
    "abcdefghijklmnopqrstuvwxyz",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
    "0123456789",
    "!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~",
    "abcdef0123456789",
  ]

  /// The passwords, in a fixed order.
  static let all: [String] = {
    var generator = SeededGenerator(seed: 0x5EC2_E7F1_E1D0)
    var passwords: [String] = []
    for word in words {
      passwords.append(word)
      passwords.append(word.prefix(1).uppercased() + word.dropFirst())
      passwords.append(word.uppercased())
      passwords.append(word + String(Int.random(in: 1...2024, using: &generator)))
      passwords.append(leet(word))
      passwords.append(String(word.reversed()))
      passwords.append(word + word)
      passwords.append(word + "!" + String(Int.random(in: 10...99, using: &generator)))
    }
    passwords += walks
    passwords += shapes
    for _ in 0..<40 {
      let count = Int.random(in: 3...5, using: &generator)
      let separator = [" ", "-", "", "."].randomElement(using: &generator)!
      passwords.append(
        (0..<count).map { _ in words.randomElement(using: &generator)! }.joined(
          separator: separator))
    }
    for alphabet in alphabets {
      let characters = Array(alphabet)
      for _ in 0..<16 {
        let length = Int.random(in: 6...24, using: &generator)
        passwords.append(
          String((0..<length).map { _ in characters.randomElement(using: &generator)! }))
      }
    }
    for _ in 0..<30 {
      let word = words.randomElement(using: &generator)!
      let walk = walks.randomElement(using: &generator)!
      let shape = shapes.randomElement(using: &generator)!
      passwords.append([word, walk, shape].shuffled(using: &generator).joined())
    }
    return passwords
  }()

  /// `word` with zxcvbn's usual look-alikes for a, e, i, o, s.
  static func leet(_ word: String) -> String {
    String(
      word.map { character -> Character in
        switch character {
        case "a": "@"
        case "e": "3"
        case "i": "1"
        case "o": "0"
        case "s": "$"
        default: character
        }
      })
  }
}
