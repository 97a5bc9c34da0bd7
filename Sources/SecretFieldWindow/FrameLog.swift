import Glibc
import SystemCalls
import ToolSupport

/// For tests only: the window's account of each frame it showed, appended to
/// the file `SECRETFIELD_TEST_FRAME_LOG` names (``TestHook/frameLogVariable``),
/// one line a frame whose state changed. Nothing when the variable is unset.
///
/// A line holds the process, the dialog's number in it and what
/// ``PasswordDialog`` reports: counts, positions and which lines are shown,
/// never a character of the field. It is written after GDK painted the
/// frame (the frame clock's `after-paint`), so a screenshot taken once the
/// line is read shows it.
enum FrameLog {
  /// The file's descriptor, opened at the first line; -1 once it failed.
  nonisolated(unsafe) private static var descriptor: Int32?
  /// The number the next dialog of this process gets.
  nonisolated(unsafe) private static var dialogs = 0

  /// Whether lines are written at all.
  static let isEnabled = System.environmentValue(TestHook.frameLogVariable) != nil

  /// A number for a new dialog, so that a test tells a program's dialogs apart.
  static func nextDialogNumber() -> Int {
    dialogs += 1
    return dialogs
  }

  /// Appends `line` and a newline (one `write(2)` of `O_APPEND`, so lines of
  /// several processes do not mix).
  static func record(_ line: String) {
    guard isEnabled else { return }
    if descriptor == nil {
      let path = System.environmentValue(TestHook.frameLogVariable) ?? ""
      descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    }
    guard let descriptor, descriptor >= 0 else { return }
    System.write(line + "\n", to: descriptor)
  }
}
