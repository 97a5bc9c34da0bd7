/// Text the field benchmarks type and paste. It is made up, not a secret: it
/// lives in ordinary arrays, as a host's clipboard text would before the field
/// copies it into secure memory.
enum BenchmarkText {
  /// `count` printable ASCII characters (letters, digits, symbols; no space), one
  /// byte each.
  static func ascii(count: Int) -> [UInt8] {
    let alphabet = Array("Tr0ub4dor&3-correct#horse!battery%staple".utf8)
    return (0..<count).map { alphabet[$0 % alphabet.count] }
  }

  /// One period of the mixed text: ASCII, accented Latin precomposed and
  /// decomposed, Greek and Cyrillic, CJK, Hangul as conjoining jamo, emoji with
  /// ZWJ sequences, skin tones and variation selectors, flags, stacked combining
  /// marks. Every grapheme rule the field meets in a real paste, and no control
  /// character.
  static let mixedPeriod: [UInt8] = Array(
    ("Tr0ub4dor&3 correct horse battery staple "
      + "café naïve Ångström e\u{301}a\u{308}o\u{302}\u{323} "
      + "ελληνικά кириллица "
      + "密码安全パスワード비밀번호 \u{1100}\u{1161}\u{11A8} "
      + "👨‍👩‍👧‍👦 👩🏽‍💻 🏳️‍🌈 ❤️ 🇫🇷🇯🇵 "
      + "Z\u{324}\u{354}\u{367}\u{311}\u{313} ")
      .utf8)

  /// Exactly `byteCount` bytes of mixed text: ``mixedPeriod`` repeated, then
  /// ASCII to fill up, so the text never ends inside a scalar.
  static func mixed(byteCount: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(byteCount)
    while bytes.count + mixedPeriod.count <= byteCount { bytes += mixedPeriod }
    bytes += ascii(count: byteCount - bytes.count)
    return bytes
  }
}
