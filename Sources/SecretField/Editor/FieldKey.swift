/// A key as it was pressed, in words every front end shares: the input of
/// ``FieldKeyBindings``.
///
/// A front end turns its own key events into these (a terminal's escape
/// sequences, GDK's key values and modifier masks), then asks the bindings
/// what the key does: so Shift+Delete cuts in the terminal and in the window
/// alike.
public struct FieldKey: Sendable, Hashable, CustomStringConvertible {
  /// Which key.
  public enum Name: Sendable, Hashable {
    /// Tab, Enter and Esc.
    case tab, enter, escape
    /// The editing keys.
    case backspace, delete, insert
    /// The cursor and page keys.
    case up, down, left, right, home, end, pageUp, pageDown
    /// F1 to F12 (and beyond, where the keyboard has them).
    case function(Int)
    /// A letter, digit or punctuation key, lower-case.
    case character(Unicode.Scalar)
  }

  /// The modifiers held with a key.
  public struct Modifiers: OptionSet, Sendable, Hashable {
    /// The bits, as xterm's and the kitty protocol's modifier parameter less
    /// one.
    public let rawValue: UInt8
    /// The modifiers of `rawValue`'s bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Shift.
    public static let shift = Modifiers(rawValue: 1)
    /// Alt (Option, Meta).
    public static let alt = Modifiers(rawValue: 2)
    /// Ctrl.
    public static let control = Modifiers(rawValue: 4)
    /// Super (the Windows or Command key). A key held with it is the
    /// desktop's, never the field's.
    public static let `super` = Modifiers(rawValue: 8)
  }

  /// Which key.
  public var name: Name
  /// What was held with it.
  public var modifiers: Modifiers

  /// The key `name` with `modifiers` held.
  public init(_ name: Name, _ modifiers: Modifiers = []) {
    self.name = name
    self.modifiers = modifiers
  }

  /// The key as a user would name it: `Ctrl+Shift+Left`, `Shift+Delete`.
  public var description: String {
    var text = ""
    if modifiers.contains(.control) { text += "Ctrl+" }
    if modifiers.contains(.alt) { text += "Alt+" }
    if modifiers.contains(.shift) { text += "Shift+" }
    switch name {
    case .character(let scalar): text += String(scalar).uppercased()
    case .backspace: text += "Backspace"
    case .delete: text += "Delete"
    case .insert: text += "Insert"
    case .left: text += "Left"
    case .right: text += "Right"
    case .up: text += "Up"
    case .down: text += "Down"
    case .home: text += "Home"
    case .end: text += "End"
    case .pageUp: text += "PageUp"
    case .pageDown: text += "PageDown"
    case .function(let number): text += "F\(number)"
    case .tab: text += "Tab"
    case .enter: text += "Enter"
    case .escape: text += "Esc"
    }
    return text
  }
}
