import Pinentry
import Testing

@Suite("OPTION takes key=value, key value, a bare key, and a leading --")
struct PinentryOptionTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let line: String
    let response: String
    var testDescription: String { "\(line) → \(response)" }
  }

  static let ok = "OK"
  static let unknown = "ERR 83886254 Unknown option <Pinentry>"
  static func syntax(_ detail: String) -> String {
    "ERR 83886356 IPC syntax error <Pinentry> - \(detail)"
  }

  static let cases: [Case] = [
    Case(line: "OPTION ttyname=/dev/pts/3", response: ok),
    Case(line: "OPTION ttyname /dev/pts/3", response: ok),
    Case(line: "OPTION --ttyname=/dev/pts/3", response: ok),
    Case(line: "OPTION   ttyname   =   /dev/pts/3  ", response: ok),
    Case(line: "OPTION ttyname", response: ok),
    Case(line: "OPTION no-grab", response: ok),
    Case(line: "OPTION --grab", response: ok),
    Case(line: "OPTION allow-external-password-cache", response: ok),
    Case(line: "OPTION default-capshint=Caps _Lock", response: ok),
    Case(line: "OPTION invisible-char=•", response: ok),
    Case(line: "OPTION bogus=1", response: unknown),
    Case(line: "OPTION --bogus", response: unknown),
    Case(line: "OPTION display=:0", response: ok),
    Case(line: "OPTION TTYNAME=/dev/pts/3", response: unknown),
    Case(line: "OPTION no-grab=1", response: unknown),
    Case(line: "OPTION grab yes", response: unknown),
    Case(line: "OPTION", response: syntax("argument required")),
    Case(line: "OPTION =x", response: syntax("no option name given")),
    Case(line: "OPTION ttyname=", response: syntax("option argument expected")),
    Case(line: "OPTION -ttyname=x", response: syntax("option should not begin with one dash")),
    Case(line: "OPTION --", response: syntax("option should not begin with one dash")),
  ]

  @Test("each form gets pinentry's answer", arguments: cases)
  func answers(_ example: Case) throws {
    let talk = try converse(example.line + "\nNOP\n")
    #expect(talk.responses == [example.response, "OK"])
  }

  @Test("the values reach the interface, texts stripped of accelerator marks")
  func valuesReachInterface() throws {
    let talk = try converse(
      """
      OPTION ttyname=/dev/pts/3
      OPTION ttytype xterm-256color
      OPTION lc-ctype=C.UTF-8
      OPTION --lc-messages=de_DE.UTF-8
      OPTION owner=4321/1000 host.example
      OPTION invisible-char=•
      OPTION default-ok=_Weiter
      OPTION default-cancel=_Abbrechen
      OPTION default-yes=_Ja
      OPTION default-no=_Nein
      OPTION default-prompt=_PIN__code:
      OPTION default-pwmngr=_Im Passwortmanager speichern
      OPTION default-cf-visi=Wirklich sichtbar machen?
      OPTION default-tt-visi=_Sichtbar
      OPTION default-tt-hide=_Verbergen
      OPTION default-capshint=_Feststelltaste ist an
      GETPIN
      CONFIRM

      """,
      interface: ScriptedInterface(pins: [.enter("x")], confirms: [.confirmed]))
    let request = try #require(talk.interface.pinRequests.first)
    #expect(request.environment.ttyName == "/dev/pts/3")
    #expect(request.environment.ttyType == "xterm-256color")
    #expect(request.environment.lcCtype == "C.UTF-8")
    #expect(request.environment.lcMessages == "de_DE.UTF-8")
    #expect(request.environment.owner == "4321/1000 host.example")
    #expect(request.environment.invisibleCharacter == "•")
    #expect(request.prompt == "PIN_code:")
    #expect(request.okLabel == "Weiter" && request.cancelLabel == "Abbrechen")
    var texts = PinentryTexts()
    texts.ok = "Weiter"
    texts.cancel = "Abbrechen"
    texts.yes = "Ja"
    texts.no = "Nein"
    texts.prompt = "PIN_code:"
    texts.savePassphrase = "Im Passwortmanager speichern"
    texts.confirmReveal = "Wirklich sichtbar machen?"
    texts.reveal = "Sichtbar"
    texts.hide = "Verbergen"
    texts.capsLock = "Feststelltaste ist an"
    #expect(request.texts == texts)
    #expect(talk.interface.confirmRequests.first?.texts == texts)
    #expect(talk.interface.confirmRequests.first?.okLabel == "Weiter")
  }

  @Test("without options the interface gets our own texts, a caps-lock hint among them")
  func defaults() throws {
    let talk = try converse("GETPIN\n", interface: ScriptedInterface(pins: [.enter("x")]))
    let request = try #require(talk.interface.pinRequests.first)
    #expect(request.texts == PinentryTexts())
    #expect(request.texts.capsLock == "Caps Lock is on")
    #expect(request.prompt == "PIN:" && request.okLabel == "OK" && request.cancelLabel == "Cancel")
    #expect(request.environment == PinentryEnvironment())
  }

  @Test("a rejected option leaves the settings as they were")
  func rejectedOptionChangesNothing() throws {
    let talk = try converse(
      "OPTION ttyname=/dev/pts/3\nOPTION ttyname=\nOPTION no-grab=1\nGETPIN\n",
      interface: ScriptedInterface(pins: [.enter("x")]))
    #expect(talk.interface.pinRequests.first?.environment.ttyName == "/dev/pts/3")
    #expect(talk.interface.pinRequests.first?.environment.grabsKeyboard == true)
  }
}
