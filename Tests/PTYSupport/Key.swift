/// Keys as a terminal sends them, one write each.
public enum Key {
  /// Escape.
  public static let escape = "\u{1B}"
  /// The control sequence introducer, `ESC [`.
  public static let csi = "\u{1B}["
  /// Left arrow.
  public static let left = csi + "D"
  /// Right arrow.
  public static let right = csi + "C"
  /// Home.
  public static let home = csi + "H"
  /// End.
  public static let end = csi + "F"
  /// Home as an SS3 sequence (`ESC O H`).
  public static let homeSS3 = escape + "OH"
  /// End as an SS3 sequence (`ESC O F`).
  public static let endSS3 = escape + "OF"
  /// Delete.
  public static let delete = csi + "3~"
  /// Backspace (DEL).
  public static let backspace = "\u{7F}"
  /// Ctrl-H, the other backspace.
  public static let controlH = "\u{08}"
  /// Tab.
  public static let tab = "\t"
  /// Enter (CR).
  public static let enter = "\r"
  /// Ctrl-A.
  public static let controlA = "\u{01}"
  /// Ctrl-B.
  public static let controlB = "\u{02}"
  /// Ctrl-C.
  public static let controlC = "\u{03}"
  /// Ctrl-D.
  public static let controlD = "\u{04}"
  /// Ctrl-E.
  public static let controlE = "\u{05}"
  /// Ctrl-F.
  public static let controlF = "\u{06}"
  /// Ctrl-K.
  public static let controlK = "\u{0B}"
  /// Ctrl-L.
  public static let controlL = "\u{0C}"
  /// Ctrl-U.
  public static let controlU = "\u{15}"
  /// Ctrl-W.
  public static let controlW = "\u{17}"
  /// Ctrl-Z.
  public static let controlZ = "\u{1A}"

  /// A bracketed paste of `text`.
  public static func paste(_ text: String) -> String { csi + "200~" + text + csi + "201~" }
}
