/// What the locale says about the terminal's character set, and so which mask
/// glyph the terminal can show.
public struct TerminalLocale: Sendable, Hashable {
  /// The terminal takes and shows UTF-8.
  public let isUTF8: Bool

  /// The locale that `environment` selects: the first of `LC_ALL`, `LC_CTYPE`
  /// and `LANG` that is set and not empty, as the C library picks it. UTF-8 when
  /// its codeset (after the dot) is `UTF-8` or `utf8`, in any case; with none
  /// set, the C locale, which is not UTF-8.
  public init(environment: [String: String]) {
    let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }
      .first { !$0.isEmpty }
    isUTF8 = name.map(Self.namesUTF8) ?? false
  }

  /// The locale named `name` (a value of `LC_CTYPE`, such as a pinentry's
  /// client sends): UTF-8 as ``init(environment:)`` decides it; nil or empty
  /// is the C locale. No dictionary to build, for a caller that has the name.
  public init(localeName name: String?) {
    isUTF8 = name.map(Self.namesUTF8) ?? false
  }

  /// Whether a locale name such as `en_US.UTF-8` or `C.utf8@euro` names UTF-8.
  static func namesUTF8(_ name: String) -> Bool {
    guard let dot = name.firstIndex(of: ".") else { return false }
    let codeset = name[name.index(after: dot)...].prefix { $0 != "@" }.lowercased()
    return codeset == "utf-8" || codeset == "utf8"
  }

  /// The locale of this process's environment (`getenv`).
  public static var current: TerminalLocale {
    var environment: [String: String] = [:]
    for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
      environment[name] = Platform.environmentValue(name)
    }
    return TerminalLocale(environment: environment)
  }

  /// The glyph that masks one character: "•" (U+2022) on a UTF-8 terminal, "*"
  /// elsewhere. Both take one column.
  public var maskGlyph: String { isUTF8 ? "\u{2022}" : "*" }
}
