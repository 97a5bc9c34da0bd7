import Foundation
import Glibc
import TestSupport
import Testing

/// What the window's process holds of a typed password, read from outside
/// through `/proc/PID/mem` while the dialog is up: typed, revealed and hidden
/// again, no copy, the field's text being sealed (ciphertext under a key in
/// secret memory, the dialog's default), so that any copy found is one GTK,
/// Pango or HarfBuzz made. The control is GTK's own `GtkPasswordEntry`,
/// typed and revealed the same way, in which the same scan finds the copy
/// GTK makes to lay out revealed text.
@Suite(
  "secretfield-window: revealing draws the password without copying it",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"),
  .enabled(if: getuid() == 0, "reading another process's memory needs root"))
struct WindowResidueTests {
  /// Letters and digits, which every keyboard map xdotool uses can type.
  static func typedMarker() -> (Marker, String) {
    let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".utf8)
    let plain = (0..<24).map { _ in letters.randomElement()! }
    let marker = plain.withUnsafeBytes { Marker(maskingBytesIn: $0) }
    return (marker, String(decoding: plain, as: UTF8.self))
  }

  @Test("typed: no copy (the field's is sealed); revealed: still none; hidden again: none")
  func revealLeavesOneCopy() throws {
    let (marker, text) = Self.typedMarker()
    let display = try VirtualDisplay()
    let window = try startWindow(["askpass"], display: display)
    try display.focusWindow(named: "secretfield-askpass")
    try display.type(text)
    _ = try display.settledScreenshot(artifact: "residue-typed")
    let typed = try ResidueScanner(processID: window.processID).scan(for: marker)
    try display.key("Tab")
    _ = try display.settledScreenshot(artifact: "residue-revealed")
    let revealed = try ResidueScanner(processID: window.processID).scan(for: marker)
    try display.key("Tab")
    _ = try display.settledScreenshot(artifact: "residue-hidden")
    let hidden = try ResidueScanner(processID: window.processID).scan(for: marker)
    try display.key("Escape")
    let run = try window.finish()
    #expect(run.status == 1)
    #expect(typed.copies == 0, "\(typed)")
    #expect(revealed.copies == 0, "\(revealed)")
    #expect(hidden.copies == 0, "\(hidden)")
  }

  @Test("control: GtkPasswordEntry, revealed, holds a second copy the scan finds")
  func passwordEntryCopies() throws {
    let program = try Self.passwordEntryProgram()
    let (marker, text) = Self.typedMarker()
    let display = try VirtualDisplay()
    let entry = try startWindow([], program: program.path, display: display)
    try display.focusWindow(named: "password-entry")
    try display.type(text)
    _ = try display.settledScreenshot(artifact: "residue-gtk-typed")
    let typed = try ResidueScanner(processID: entry.processID).scan(for: marker)
    try display.key("F2")
    _ = try display.settledScreenshot(artifact: "residue-gtk-revealed")
    let revealed = try ResidueScanner(processID: entry.processID).scan(for: marker)
    try display.key("Escape")
    _ = try entry.finish()
    #expect(typed.copies == 1, "its locked pool: \(typed)")
    #expect(revealed.copies >= 2, "\(revealed)")
  }

  /// A GtkPasswordEntry in a window titled `password-entry`: F2 does what its
  /// peek icon does (its GtkText made visible, or not), Return prints its text
  /// and a newline and quits, as an askpass written the ordinary GTK way
  /// would, Esc quits. Built with `cc` and `pkg-config gtk4`.
  static func passwordEntryProgram() throws -> CompiledProgram {
    try CompiledProgram(name: "password-entry", source: passwordEntrySource, packages: ["gtk4"])
  }

  static let passwordEntrySource = """
    #include <gtk/gtk.h>
    #include <stdio.h>
    static GtkWidget *entry;
    static GMainLoop *loop;
    static gboolean key(GtkEventControllerKey *c, guint keyval, guint code,
                        GdkModifierType state, gpointer data) {
      if (keyval == GDK_KEY_F2) {
        for (GtkWidget *child = gtk_widget_get_first_child(entry); child;
             child = gtk_widget_get_next_sibling(child))
          if (GTK_IS_TEXT(child))
            gtk_text_set_visibility(GTK_TEXT(child), !gtk_text_get_visibility(GTK_TEXT(child)));
        return TRUE;
      }
      if (keyval == GDK_KEY_Return) {
        printf("%s\\n", gtk_editable_get_text(GTK_EDITABLE(entry)));
        g_main_loop_quit(loop);
        return TRUE;
      }
      if (keyval == GDK_KEY_Escape) {
        g_main_loop_quit(loop);
        return TRUE;
      }
      return FALSE;
    }
    int main(void) {
      gtk_init();
      loop = g_main_loop_new(NULL, FALSE);
      GtkWidget *window = gtk_window_new();
      gtk_window_set_title(GTK_WINDOW(window), "password-entry");
      entry = gtk_password_entry_new();
      gtk_password_entry_set_show_peek_icon(GTK_PASSWORD_ENTRY(entry), TRUE);
      gtk_window_set_child(GTK_WINDOW(window), entry);
      GtkEventController *controller = gtk_event_controller_key_new();
      gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE);
      g_signal_connect(controller, "key-pressed", G_CALLBACK(key), NULL);
      gtk_widget_add_controller(window, controller);
      gtk_window_present(GTK_WINDOW(window));
      g_main_loop_run(loop);
      return 0;
    }
    """
}
