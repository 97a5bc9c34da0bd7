package import SecretField
/// A ``ConfirmationPrompt`` with buttons, without the terminal: its texts, its
/// buttons, which one is selected, and what a key does.
///
/// The first button is selected at first. Keys: Tab and Right select the next
/// button, Left the one before (both wrap); Enter presses the selected one;
/// Esc and ^D cancel; ^C cancels as an interrupt (a pinentry's "fully
/// cancelled"); ^L draws the dialog again. Other keys change nothing.
///
/// Pure: no I/O and no clock.
package struct ConfirmationButtonRow: Sendable, Hashable {
  /// What the dialog should do after a key.
  package enum Reaction: Sendable, Hashable {
    /// Nothing changed.
    case none
    /// The selection moved: draw the buttons again.
    case redrawButtons
    /// Draw everything again.
    case redrawAll
    /// The dialog ends with this answer.
    case end(EntryOutcome<Void>)
  }

  /// The lines above the buttons, each cleaned of control characters.
  package let textLines: [String]
  /// The buttons, their labels cleaned of control characters, in order.
  package let buttons: [ConfirmationButton]
  /// The index of the selected button.
  package private(set) var selected = 0
  /// The button Enter pressed, once it did.
  package private(set) var pressed: Int?
  /// The dim line under the buttons that names the keys.
  package let hint: String

  /// The dialog of `text` (its lines above the buttons) and `buttons`, worded
  /// for a terminal of `locale`.
  ///
  /// - Precondition: `buttons` is not empty.
  package init(text: String, buttons: [ConfirmationButton], locale: TerminalLocale) {
    precondition(!buttons.isEmpty, "a confirmation with buttons needs at least one")
    textLines =
      text.isEmpty
      ? []
      : text.split(separator: "\n", omittingEmptySubsequences: false).map {
        DisplayText.sanitized(String($0))
      }
    self.buttons = buttons.map {
      ConfirmationButton($0.role, label: DisplayText.sanitized($0.label))
    }
    let separator = locale.isUTF8 ? " \u{00B7} " : " | "
    if buttons.count == 1 {
      hint = "Enter: " + self.buttons[0].label
    } else {
      let arrows = locale.isUTF8 ? "Tab \u{2190} \u{2192}" : "Tab, Left, Right"
      var parts = [arrows + ": choose", "Enter: select"]
      if let cancel = self.buttons.first(where: { $0.role == .cancel }) {
        parts.append("Esc: " + cancel.label)
      }
      hint = parts.joined(separator: separator)
    }
  }

  /// The selected button.
  package var selectedButton: ConfirmationButton.Role { buttons[selected].role }

  /// Applies one key.
  package mutating func handle(_ event: KeyEvent) -> Reaction {
    switch event {
    case .submit:
      pressed = selected
      switch selectedButton {
      case .yes: return .end(.yes)
      case .no: return .end(.ended(.declined))
      case .cancel: return .end(.ended(.cancelled(.button)))
      }
    case .escape:
      return .end(.ended(.cancelled(.escape)))
    case .endOfInput:
      return .end(.ended(.cancelled(.endOfInput)))
    case .cancel:
      return .end(.ended(.cancelled(.interrupt)))
    case .tab, .moveRight:
      guard buttons.count > 1 else { return .none }
      selected = (selected + 1) % buttons.count
      return .redrawButtons
    case .moveLeft:
      guard buttons.count > 1 else { return .none }
      selected = (selected + buttons.count - 1) % buttons.count
      return .redrawButtons
    case .redraw:
      return .redrawAll
    default:
      return .none
    }
  }

  // MARK: Drawing

  /// Reverse video on and off, for the selected button.
  static let reverse = "\u{1B}[7m"
  static let plain = "\u{1B}[0m"

  /// The buttons as one line that fits `columns - 1` columns: while
  /// `isActive`, the selected one in brackets and reverse video; once the
  /// dialog ended, the one pressed (if any) in brackets without it. Labels are
  /// shortened when they do not fit.
  package func buttonLine(columns: Int, isActive: Bool = true) -> String {
    let count = buttons.count
    // "[ label ]" and one space between buttons.
    let room = max(count, columns - 1 - count * 4 - (count - 1))
    let fullWidth = buttons.reduce(0) { $0 + DisplayText.columns(of: $1.label) }
    let limit = fullWidth <= room ? Int.max : max(1, room / count)
    var parts: [String] = []
    for (index, entry) in buttons.enumerated() {
      let label = DisplayText.truncated(entry.label, toColumns: limit)
      if !isActive {
        parts.append(index == pressed ? "[ " + label + " ]" : "  " + label + "  ")
      } else if index == selected {
        parts.append(Self.reverse + "[ " + label + " ]" + Self.plain)
      } else {
        parts.append("  " + label + "  ")
      }
    }
    return parts.joined(separator: " ")
  }

  /// The hint, shortened to fit `columns - 1` columns.
  package func hintLine(columns: Int) -> String {
    DisplayText.truncated(hint, toColumns: max(1, columns - 1))
  }
}
