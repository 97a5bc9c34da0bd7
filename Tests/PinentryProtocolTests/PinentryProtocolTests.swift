import Glibc
import Pinentry
import Testing

@Suite("A pinentry session answers every request once, as pinentry does")
struct PinentryProtocolTests {
  @Test("the session greets, answers NOP in any case, and ignores comments and empty lines")
  func greetingAndNop() throws {
    let talk = try converse("NOP\nnop\n# comment\n\nNoP with arguments\r\nBYE\n")
    #expect(talk.lines == ["OK Pleased to meet you", "OK", "OK", "OK", "OK closing connection"])
    #expect(talk.ending == .bye)
  }

  @Test("BYE ends the session: what follows is not answered")
  func byeEnds() throws {
    let talk = try converse("BYE\nNOP\n")
    #expect(talk.responses == ["OK closing connection"])
    #expect(talk.ending == .bye)
  }

  @Test("the end of input ends the session, an unfinished last line unanswered")
  func endOfInput() throws {
    let talk = try converse("NOP\nNOP")
    #expect(talk.responses == ["OK"])
    #expect(talk.ending == .endOfInput)
  }

  @Test("unknown commands get the unknown-command error and the session goes on")
  func unknownCommand() throws {
    let talk = try converse("FROBNICATE\nSETGENPIN x\nAUTH\nNOP\n")
    #expect(
      talk.responses == [
        "ERR 83886355 Unknown IPC command <Pinentry>",
        "ERR 83886355 Unknown IPC command <Pinentry>",
        "ERR 83886355 Unknown IPC command <Pinentry>", "OK",
      ])
  }

  @Test("END and CANCEL outside an inquiry are not implemented, as libassuan answers")
  func endAndCancel() throws {
    let talk = try converse("END\nCANCEL\n")
    #expect(talk.responses == Array(repeating: "ERR 83886149 Not implemented <Pinentry>", count: 2))
  }

  @Test("a line with leading white space is a syntax error")
  func leadingWhiteSpace() throws {
    let talk = try converse("  NOP\nNOP\n")
    #expect(
      talk.responses == ["ERR 83886356 IPC syntax error <Pinentry> - leading white-space", "OK"])
  }

  @Test("a line of 1000 bytes is served")
  func longestLine() throws {
    let description = String(repeating: "d", count: 1000 - "SETDESC ".count)
    let talk = try converse(
      "SETDESC \(description)\nGETPIN\n", interface: ScriptedInterface(pins: [.enter("x")]))
    #expect(talk.responses == ["OK", "D x", "OK"])
    #expect(talk.interface.pinRequests.first?.description == description)
  }

  @Test(
    "a line over 1000 bytes gets one line-too-long error and the session goes on",
    arguments: [1001, 1025, 5000, 200_000])
  func overlongLine(_ length: Int) throws {
    let line = "SETDESC " + String(repeating: "d", count: length - "SETDESC ".count)
    let talk = try converse(
      "\(line)\nSETDESC short\nGETPIN\n", interface: ScriptedInterface(pins: [.enter("x")]))
    #expect(
      talk.responses == ["ERR 83886343 Line passed to IPC too long <Pinentry>", "OK", "D x", "OK"])
    #expect(talk.interface.pinRequests.first?.description == "short")
  }

  @Test("an overlong line at the end of input gets no answer")
  func overlongAtEnd() throws {
    let talk = try converse("NOP\n" + String(repeating: "x", count: 3000))
    #expect(talk.responses == ["OK"])
    #expect(talk.ending == .endOfInput)
  }

  @Test("HELP lists the commands as comments, then OK")
  func help() throws {
    let talk = try converse("HELP\nHELP getpin\nHELP FROB\n")
    let listing = PinentrySession<ScriptedInterface>.commands.map { "# \($0)" }
    #expect(
      talk.responses
        == listing + ["OK", "# GETPIN", "OK", "ERR 83886355 Unknown IPC command <Pinentry>"])
    #expect(listing.contains("# GETPIN") && listing.contains("# SETQUALITYBAR_TT"))
  }

  @Test("GETINFO answers version, pid, flavor and ttyinfo, and nothing else")
  func getInfo() throws {
    let talk = try converse(
      "GETINFO version\nGETINFO pid\nGETINFO flavor\nGETINFO ttyinfo\nGETINFO  version\n"
        + "GETINFO VERSION\nGETINFO\nGETINFO version x\n")
    #expect(
      talk.responses == [
        "D 9.8.7", "OK", "D \(getpid())", "OK", "D secretfield", "OK",
        "D - - - - \(geteuid())/\(getegid()) -", "OK", "D 9.8.7", "OK",
        "ERR 83886360 IPC parameter error <Pinentry>",
        "ERR 83886360 IPC parameter error <Pinentry>",
        "ERR 83886360 IPC parameter error <Pinentry>",
      ])
  }

  @Test("GETINFO ttyinfo shows the terminal, its type and its mode, owner and group")
  func ttyInfo() throws {
    var status = stat()
    try #require(stat("/dev/null", &status) == 0)
    let talk = try converse("OPTION ttyname=/dev/null\nOPTION ttytype=xterm\nGETINFO ttyinfo\n")
    let mode = String(status.st_mode, radix: 8)
    #expect(
      talk.responses.dropFirst(2).first
        == "D /dev/null xterm - \(mode)/\(status.st_uid)/\(status.st_gid) \(geteuid())/\(getegid()) -"
    )
  }

  @Test("CLEARPASSPHRASE is OK: there is no cache to clear")
  func clearPassphrase() throws {
    #expect(try converse("CLEARPASSPHRASE u/abc\nCLEARPASSPHRASE\n").responses == ["OK", "OK"])
  }

  /// The lines gpg-agent 2.2.40 sent a pinentry for
  /// `GET_PASSPHRASE --data --repeat=1 --qualitybar cacheid1 Err%20text Pass%20prompt Desc%20here`,
  /// recorded on this machine with a logging pinentry (the agent asks for the
  /// repetition itself, with a second pinentry).
  static let recordedAgentRequest = """
    OPTION no-grab
    OPTION ttytype=xterm
    OPTION allow-external-password-cache
    OPTION default-ok=_OK
    OPTION default-cancel=_Cancel
    OPTION default-yes=_Yes
    OPTION default-no=_No
    OPTION default-prompt=PIN:
    OPTION default-pwmngr=_Save in password manager
    OPTION default-cf-visi=Do you really want to make your passphrase visible on the screen?
    OPTION default-tt-visi=Make passphrase visible
    OPTION default-tt-hide=Hide passphrase
    OPTION touch-file=/tmp/pe/h/S.gpg-agent
    OPTION owner=12029 vm
    GETINFO flavor
    GETINFO version
    GETINFO ttyinfo
    GETINFO pid
    SETKEYINFO u/cacheid1
    SETDESC Desc%20here
    SETPROMPT Pass%20prompt
    SETQUALITYBAR Quality%3a
    SETQUALITYBAR_TT The quality of the text entered above.%0aPlease ask your administrator for details about the criteria.
    SETERROR Err%20text
    GETPIN
    D -30
    END
    BYE

    """

  @Test("a request recorded from gpg-agent 2.2.40 is served in full")
  func recordedAgent() throws {
    let talk = try converse(
      Self.recordedAgentRequest,
      interface: ScriptedInterface(pins: [.enter("sec%ret", estimatingQuality: true)]))
    #expect(talk.responses.prefix(14) == ArraySlice(repeating: "OK", count: 14))
    #expect(
      Array(talk.responses.dropFirst(14)) == [
        "D secretfield", "OK", "D 9.8.7", "OK", "D - xterm - - \(geteuid())/\(getegid()) -", "OK",
        "D \(getpid())", "OK", "OK", "OK", "OK", "OK", "OK", "OK", "INQUIRE QUALITY sec%25ret",
        "D sec%25ret", "OK", "OK closing connection",
      ])
    let request = try #require(talk.interface.pinRequests.first)
    #expect(request.description == "Desc here")
    #expect(request.prompt == "Pass prompt")
    #expect(request.error == "Err text")
    #expect(request.keyInfo == "u/cacheid1")
    #expect(request.okLabel == "OK" && request.cancelLabel == "Cancel")
    #expect(
      request.qualityBar
        == QualityBar(
          label: "Quality:",
          tooltip:
            "The quality of the text entered above.\nPlease ask your administrator for details about the criteria."
        ))
    #expect(request.texts.savePassphrase == "Save in password manager")
    #expect(request.texts.reveal == "Make passphrase visible")
    #expect(request.texts.capsLock == "Caps Lock is on")
    #expect(request.environment.ttyType == "xterm")
    #expect(request.environment.grabsKeyboard == false)
    #expect(request.environment.allowsExternalPasswordCache)
    #expect(request.environment.touchFile == "/tmp/pe/h/S.gpg-agent")
    #expect(request.environment.owner == "12029 vm")
    #expect(talk.interface.qualityScores == [-30])
  }
}
