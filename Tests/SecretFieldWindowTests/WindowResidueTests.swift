import Foundation
import Glibc
import TestSupport
import Testing

/// What the window's process holds of a typed password, read from outside
/// through `/proc/PID/mem` while it asks, in every mode that takes one (the
/// askpass; the pinentry's GETPIN, and its repetition, with the first entry
/// held; the git credential's window), typed, revealed and hidden again, and
/// while the answer's write to the caller blocks: nothing, since every
/// buffer is in secret memory, which root cannot read. The controls: the
/// same window with its memory in sodium memory
/// (`SECRETFIELD_TEST_SODIUM_MEMORY=1`), where the scan finds each buffer
/// that holds the password, and GTK's own `GtkPasswordEntry`, typed and
/// revealed the same way, in which it finds the copy GTK makes to lay out
/// revealed text. (A confirmation or a message has no field: nothing typed
/// into it is kept.)
@Suite(
  "secretfield-window: no readable copy of the password in any mode, while it asks or writes",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"),
  .enabled(if: getuid() == 0, "reading another process's memory needs root"))
struct WindowResidueTests {
  /// Letters and digits, which every keyboard map types and percent-escaping
  /// leaves as they are.
  static func typedMarker() -> (Marker, String) {
    let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".utf8)
    let plain = (0..<24).map { _ in letters.randomElement()! }
    let marker = plain.withUnsafeBytes { Marker(maskingBytesIn: $0) }
    return (marker, String(decoding: plain, as: UTF8.self))
  }

  /// Where the window keeps its secrets: secret memory, as it does, or, for
  /// the control, the sodium memory the tests' variable asks for, which shows
  /// that the scan reads the buffers' pages when they can be read.
  enum FieldMemory: String, CaseIterable, CustomTestStringConvertible {
    case secret = "secret memory: no copy a root scan can read"
    case sodium = "control, sodium memory: every buffer that holds it is found"

    var testDescription: String { rawValue }
    var environment: [String: String?] {
      self == .sodium ? ["SECRETFIELD_TEST_SODIUM_MEMORY": "1"] : [:]
    }
    var expectedCopies: Int { self == .secret ? 0 : 1 }
    /// Screenshots of the two run side by side: a name each.
    var artifactSuffix: String { self == .secret ? "secret" : "sodium" }
  }

  @Test(
    "askpass: typed, revealed, hidden again: no copy but the field's",
    arguments: FieldMemory.allCases)
  func askpassRevealLeavesNoCopy(_ memory: FieldMemory) throws {
    let (marker, text) = Self.typedMarker()
    let display = try TestDisplay()
    let window = try display.openAskpass(environment: memory.environment)
    try display.type(text)
    let typed = try display.scan(window, for: marker, after: "24 masks") {
      $0.cells == 24
    }
    try display.key("Tab")
    try display.waitForFrame("revealed") { $0.revealed == 24 }
    _ = try display.screenshot(artifact: "residue-revealed-\(memory.artifactSuffix)")
    let revealed = try ResidueScanner(processID: window.processID).scan(for: marker)
    try display.key("Tab")
    let hidden = try display.scan(window, for: marker, after: "hidden again") {
      $0.cells == 24 && $0.revealed == 0
    }
    try display.key("Escape")
    let run = try window.finish()
    #expect(run.status == 1)
    #expect(typed.copies == memory.expectedCopies, "\(typed)")
    #expect(revealed.copies == memory.expectedCopies, "\(revealed)")
    #expect(hidden.copies == memory.expectedCopies, "\(hidden)")
    print(
      "window-residue: askpass \(memory.artifactSuffix): typed \(typed.copies), revealed "
        + "\(revealed.copies), hidden \(hidden.copies)")
  }

  @Test(
    "pinentry: GETPIN typed; with SETREPEAT the repetition typed while the first is held",
    arguments: FieldMemory.allCases)
  func pinentryLeavesNoCopy(_ memory: FieldMemory) throws {
    let (marker, text) = Self.typedMarker()
    let display = try TestDisplay()
    let script = ["OPTION display=\(display.name)", "SETREPEAT Repeat:", "GETPIN", "BYE"]
    let pinentry = try startWindow(
      ["pinentry"], display: display,
      environment: memory.environment.merging(["DISPLAY": nil]) { $1 },
      input: script.joined(separator: "\n") + "\n")
    let first = try display.focusNewWindow(named: WindowPinentryTests.title, openedBy: pinentry)
    try display.type(text)
    let asking = try display.scan(pinentry, for: marker, after: "the passphrase") {
      $0.dialog == 1 && $0.cells == 24
    }
    try display.key("Return")
    try display.focusNewWindow(named: WindowPinentryTests.title, after: [first], openedBy: pinentry)
    try display.type(text)
    let repeating = try display.scan(pinentry, for: marker, after: "the repetition") {
      $0.dialog == 2 && $0.cells == 24
    }
    try display.key("Return")
    let run = try pinentry.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.contains("D \(text)\n"), "\(run.output)")
    #expect(asking.copies == memory.expectedCopies, "GETPIN: \(asking)")
    #expect(repeating.copies == 2 * memory.expectedCopies, "the repetition: \(repeating)")
    print(
      "window-residue: pinentry \(memory.artifactSuffix): GETPIN \(asking.copies), repetition "
        + "with the first held \(repeating.copies)")
  }

  @Test(
    "git credential window: the user name typed, the password typed: no copy of the password",
    arguments: FieldMemory.allCases)
  func credentialLeavesNoCopy(_ memory: FieldMemory) throws {
    let (marker, text) = Self.typedMarker()
    let display = try TestDisplay()
    let host = "sfw-\(UInt32.random(in: 0...UInt32.max)).invalid"
    let helper = try openWindow(
      ["credential", "get"], display: display, environment: memory.environment,
      input: "protocol=https\nhost=\(host)\n\n", title: WindowCredentialTests.title)
    try display.type("alice")
    try display.key("Return")
    try display.type(text)
    let asking = try display.scan(helper, for: marker, after: "the password") {
      $0.focus == "password" && $0.cells == 24
    }
    try display.submit(helper, expecting: "username=alice\npassword=\(text)\n\n")
    #expect(asking.copies == memory.expectedCopies, "\(asking)")
    print("window-residue: credential \(memory.artifactSuffix): asking \(asking.copies)")
  }

  /// A window whose answer is written to a pipe the caller does not read.
  enum BlockedWriter: String, CaseIterable, CustomTestStringConvertible {
    case askpass = "the askpass's answer"
    case pinentry = "the pinentry's D line"

    var testDescription: String { rawValue }
  }

  @Test(
    "the answer's write blocks on a full pipe: it waits in secret memory (control: sodium)",
    arguments: BlockedWriter.allCases, FieldMemory.allCases)
  func blockedWriteLeavesNoCopy(_ writer: BlockedWriter, _ memory: FieldMemory) throws {
    let (marker, text) = Self.typedMarker()
    let display = try TestDisplay()
    let program: TestProcess
    switch writer {
    case .askpass:
      program = try startWindow(
        ["askpass"], display: display, environment: memory.environment, holdsOutput: true)
    case .pinentry:
      program = try startWindow(
        ["pinentry"], display: display,
        environment: memory.environment.merging(["DISPLAY": nil]) { $1 },
        input: "OPTION display=\(display.name)\nGETPIN\nBYE\n", holdsOutput: true)
      // The greeting and the option's OK are read; then nothing is, until
      // after the scan.
      #expect(program.waitForOutput(containing: "OK Pleased to meet you\nOK\n"))
    }
    let filler = try program.fillOutput()
    try display.focusWindow(
      named: writer == .askpass ? askpassTitle : WindowPinentryTests.title)
    try display.type(text)
    try display.waitForFrame("24 masks") { $0.cells == 24 }
    try display.key("Return")
    try program.waitUntilBlockedWriting(to: 1)
    let blocked = try ResidueScanner(processID: program.processID).scan(for: marker)
    let run = try program.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.count > filler)
    #expect(run.output.contains(writer == .askpass ? text + "\n" : "D \(text)\n"))
    if memory == .secret {
      #expect(blocked.copies == 0, "\(blocked)")
    } else {
      #expect(blocked.copies >= 1, "the control finds the answer waiting: \(blocked)")
    }
    print("window-residue: \(writer) blocked \(memory.artifactSuffix): \(blocked.copies)")
  }

  @Test("control: GtkPasswordEntry, revealed, holds a second copy the scan finds")
  func passwordEntryCopies() throws {
    let program = try Self.passwordEntryProgram()
    let (marker, text) = Self.typedMarker()
    let display = try TestDisplay()
    let entry = try openWindow([], program: program.path, display: display, title: "password-entry")
    try display.type(text)
    #expect(entry.waitForError(containing: "length 24"), "the entry has the text")
    let typed = try ResidueScanner(processID: entry.processID).scan(for: marker)
    try display.key("F2")
    #expect(entry.waitForError(containing: "visible 1"), "revealed")
    _ = try display.screenshot(artifact: "residue-gtk-revealed")
    let revealed = try ResidueScanner(processID: entry.processID).scan(for: marker)
    try display.key("Escape")
    _ = try entry.finish()
    #expect(typed.copies == 1, "its locked pool: \(typed)")
    #expect(revealed.copies >= 2, "\(revealed)")
    print("window-residue: GtkPasswordEntry: typed \(typed.copies), revealed \(revealed.copies)")
  }

  /// A GtkPasswordEntry in a window titled `password-entry`: F2 does what its
  /// peek icon does (its GtkText made visible, or not), Return prints its text
  /// and a newline and quits, as an askpass written the ordinary GTK way
  /// would, Esc quits. It reports on standard error (`length N`, `visible
  /// B`) after each change, drawn: the event the tests wait for. Built with
  /// `cc` and `pkg-config gtk4`.
  static func passwordEntryProgram() throws -> CompiledProgram {
    try CompiledProgram(name: "password-entry", source: passwordEntrySource, packages: ["gtk4"])
  }

  static let passwordEntrySource = """
    #include <gtk/gtk.h>
    #include <stdio.h>
    #include <string.h>
    static GtkWidget *entry;
    static GMainLoop *loop;
    static int reportedLength = -1, reportedVisible = -1;
    static GtkText *text(void) {
      for (GtkWidget *child = gtk_widget_get_first_child(entry); child;
           child = gtk_widget_get_next_sibling(child))
        if (GTK_IS_TEXT(child)) return GTK_TEXT(child);
      return NULL;
    }
    static void painted(GdkFrameClock *clock, gpointer data) {
      int length = (int)strlen(gtk_editable_get_text(GTK_EDITABLE(entry)));
      int visible = gtk_text_get_visibility(text());
      if (length != reportedLength || visible != reportedVisible) {
        reportedLength = length;
        reportedVisible = visible;
        gdk_display_flush(gdk_display_get_default());
        fprintf(stderr, "length %d visible %d\\n", length, visible);
      }
    }
    static gboolean key(GtkEventControllerKey *c, guint keyval, guint code,
                        GdkModifierType state, gpointer data) {
      if (keyval == GDK_KEY_F2) {
        gtk_text_set_visibility(text(), !gtk_text_get_visibility(text()));
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
    static void mapped(GtkWidget *window, gpointer data) {
      GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
      g_signal_connect(gdk_surface_get_frame_clock(surface), "after-paint", G_CALLBACK(painted),
                       NULL);
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
      g_signal_connect(window, "map", G_CALLBACK(mapped), NULL);
      gtk_window_present(GTK_WINDOW(window));
      g_main_loop_run(loop);
      return 0;
    }
    """
}

extension TestDisplay {
  /// Waits for the next frame `condition` holds for, then scans `window`'s
  /// memory for `marker`.
  fileprivate func scan(
    _ window: TestProcess, for marker: Marker, after what: String,
    where condition: (Frame) -> Bool
  ) throws -> ResidueScanner.Report {
    try waitForFrame(what, where: condition)
    return try ResidueScanner(processID: window.processID).scan(for: marker)
  }
}
