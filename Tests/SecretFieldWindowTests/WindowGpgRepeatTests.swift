import Foundation
import TestSupport
import Testing

/// `gpg --symmetric` with no terminal (a session of its own, no `GPG_TTY`) and
/// a display: its gpg-agent asks for the new passphrase and its repetition
/// (`SETREPEAT`) through `secretfield-window pinentry`, one dialog each.
@Suite(
  "gpg --symmetric asks for a new passphrase twice through secretfield-window pinentry",
  .enabled(
    if: WindowTestEnvironment.isAvailable
      && ["gpg", "gpg-agent", "gpgconf"].allSatisfy { WindowTestEnvironment.path(of: $0) != nil },
    "needs the window test programs and GnuPG's gpg, gpg-agent and gpgconf"))
struct WindowGpgRepeatTests {
  static let plainText = "the plain text\n"

  /// Starts `gpg --pinentry-mode ask --symmetric` on a small file in `home`;
  /// returns gpg and the path it writes.
  func startEncryption(
    home: WindowGnuPGHome, display: TestDisplay
  ) throws -> (TestProcess, String) {
    let plain = home.path + "/plain.txt"
    try Self.plainText.write(toFile: plain, atomically: false, encoding: .utf8)
    let encrypted = plain + ".gpg"
    let gpg = try TestProcess(
      ["gpg", "--pinentry-mode", "ask", "--symmetric", "--output", encrypted, plain],
      environment: .changed(home.environment(display: display)), newSession: true)
    return (gpg, encrypted)
  }

  /// A display of the test's own, a GnuPG home whose agent asks on it, and
  /// ``startEncryption(home:display:)`` there.
  func startEncryptionOnNewDisplay() throws -> (
    display: TestDisplay, home: WindowGnuPGHome, gpg: TestProcess, encrypted: String
  ) {
    let display = try TestDisplay()
    let home = try WindowGnuPGHome()
    try home.startAgent(display: display)
    let (gpg, encrypted) = try startEncryption(home: home, display: display)
    return (display, home, gpg, encrypted)
  }

  /// `gpg -d` of `path` with `passphrase` given on the command line (loopback),
  /// the agent's cache of symmetric passphrases not used.
  func decrypt(_ path: String, passphrase: String, home: WindowGnuPGHome) throws -> ProgramRun {
    try runProgram(
      [
        "gpg", "--batch", "--no-symkey-cache", "--pinentry-mode", "loopback", "--passphrase",
        passphrase, "--decrypt", path,
      ], environment: ["GNUPGHOME": home.path, "HOME": home.path, "GPG_TTY": nil])
  }

  /// Types `passphrase` and Return into the next dialog; returns its name.
  func answer(
    _ passphrase: String, display: TestDisplay, after seen: [String]
  ) throws -> [String] {
    let dialog = try display.focusNewWindow(named: WindowPinentryTests.title, after: seen)
    try display.type(passphrase)
    try display.key("Return")
    return seen + [dialog]
  }

  @Test("typed, then repeated: gpg encrypts with it, and the file decrypts with it alone")
  func passphraseAndRepetition() throws {
    let (display, home, gpg, encrypted) = try startEncryptionOnNewDisplay()
    var seen = try answer("Tr0ub4dor&3 horse", display: display, after: [])
    seen = try answer("Tr0ub4dor&3 horse", display: display, after: seen)
    let run = try gpg.finish()
    #expect(run.status == 0, "\(run.error)")
    let decrypted = try decrypt(encrypted, passphrase: "Tr0ub4dor&3 horse", home: home)
    #expect(decrypted.status == 0, "\(decrypted.error)")
    #expect(decrypted.output == Self.plainText)
    let wrong = try decrypt(encrypted, passphrase: "Tr0ub4dor&3 house", home: home)
    #expect(wrong.status != 0, "control: another passphrase does not decrypt it")
  }

  @Test("control: a repetition that differs is refused; asked again, the new pair is used")
  func mismatchAsksAgain() throws {
    let (display, home, gpg, encrypted) = try startEncryptionOnNewDisplay()
    var seen = try answer("Tr0ub4dor&3 horse", display: display, after: [])
    seen = try answer("Tr0ub4dor&3 house", display: display, after: seen)
    seen = try answer("st4ple battery 9", display: display, after: seen)
    seen = try answer("st4ple battery 9", display: display, after: seen)
    let run = try gpg.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(seen.count == 4)
    for (passphrase, decrypts) in [
      ("st4ple battery 9", true), ("Tr0ub4dor&3 horse", false), ("Tr0ub4dor&3 house", false),
    ] {
      let decrypted = try decrypt(encrypted, passphrase: passphrase, home: home)
      #expect((decrypted.status == 0) == decrypts, "\(passphrase): \(decrypted.error)")
      if decrypts { #expect(decrypted.output == Self.plainText) }
    }
  }
}
