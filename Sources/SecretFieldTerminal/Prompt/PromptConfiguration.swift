public import SecretField
public import SecureMemory

/// What a ``PasswordPrompt`` asks, how it shows the typing, and what it
/// requires before it takes the answer.
///
/// Every property has a default that suits a terminal password prompt, so a
/// caller sets only what differs: `PromptConfiguration(prompt: "Passphrase:")`.
/// The texts the prompt shows on its own (the hint, messages) are in
/// ``texts``, so a caller with its own wording (a pinentry given gpg-agent's
/// translations) passes them in.
public struct PromptConfiguration: Sendable, Hashable {
  /// How the typing shows on the screen.
  public enum Echo: Sendable, Hashable {
    /// One glyph per character: `glyph`, or when nil "•" on a UTF-8 terminal and
    /// "*" elsewhere (``TerminalLocale/maskGlyph``).
    case masked(glyph: Character? = nil)
    /// Nothing at all: the caret stays after the prompt, and the length of the
    /// password does not show. Reveal is not offered.
    case silent
  }

  /// Asking for the password twice, to catch a typing error.
  public struct Confirmation: Sendable, Hashable {
    /// The prompt of the second entry.
    public var prompt: String
    /// How many pairs of entries may differ before the prompt gives up with
    /// `EntryOutcome.confirmationFailed`; at least 1.
    public var maximumAttempts: Int

    /// Confirmation with `prompt` for the second entry, giving up after
    /// `maximumAttempts` mismatches.
    ///
    /// - Precondition: `maximumAttempts` is at least 1.
    public init(prompt: String = "Again:", maximumAttempts: Int = 3) {
      precondition(maximumAttempts >= 1, "PromptConfiguration.Confirmation: at least one attempt")
      self.prompt = prompt
      self.maximumAttempts = maximumAttempts
    }
  }

  /// The text before the field, such as `Password:`. A space is added after it
  /// unless it ends in whitespace. Control characters show as `?`, so a prompt
  /// from elsewhere (a host name, a key's comment) cannot send escape sequences.
  public var prompt: String
  /// Lines shown once above the prompt (a pinentry's `SETDESC`), or nil.
  public var description: String?
  /// A message shown under the field until the first key (a pinentry's
  /// `SETERROR`, "Bad passphrase (try 2 of 3)"), or nil.
  public var initialMessage: String?
  /// How the typing shows.
  public var echo: Echo
  /// Tab toggles between masked and revealed text. Without it Tab does nothing
  /// but ring the bell.
  public var allowsReveal: Bool
  /// ^Z stops the prompt's process group, as the terminal's suspend key would.
  /// Turn it off for a program that is not a job of the terminal's shell (a
  /// pinentry, which runs in gpg-agent's process group): ^Z then only rings the
  /// bell.
  public var allowsSuspend: Bool
  /// How the field shows its text at first: `.hidden`, or `.revealLastTyped` to
  /// show each character for a moment as it is typed.
  public var obfuscationMode: ObfuscationMode
  /// How long a lone Esc waits for the rest of an escape sequence before it
  /// cancels. 100 ms by default.
  public var escapeTimeout: Duration
  /// How long the whole prompt (both entries under ``confirmation``) may take
  /// before it gives up with `EntryOutcome.timedOut`; nil waits without limit.
  public var timeout: Duration?
  /// Ask twice and compare, or nil to ask once.
  public var confirmation: Confirmation?
  /// The fewest characters Enter accepts; a shorter entry is refused with a
  /// message, and the field keeps its text. 0 by default.
  public var minimumLength: Int
  /// Judge a new password by these rules (NIST SP 800-63B-4's, with the
  /// user's and the service's names), or nil to take any. While the first
  /// entry is typed a strength line under the field shows the estimate and
  /// the first reason to refuse it, judged after each edit's frame is on the
  /// screen (the echo never waits for it); Enter on a refused password is
  /// refused with every reason, and the field keeps its text. A
  /// confirmation's second entry is not judged. Nil by default.
  public var strength: StrengthRules?
  /// Show the dim line of keys ("Tab show · Enter OK · Esc cancel") under the
  /// field.
  public var showsHint: Bool
  /// The words the prompt uses.
  public var texts: PromptTexts
  /// What the field refuses (copy, cut, reveal while captured...).
  public var fieldPolicy: FieldPolicy
  /// The most the field holds.
  public var fieldLimits: FieldLimits
  /// True when the caller found the session being recorded or shared: the
  /// field then refuses to reveal, with ``PromptTexts/revealRefusedWhileCaptured``
  /// (or, when ``captureReason`` says why, ``PromptTexts/revealRefusedBecause``).
  /// When false and ``detectsRecording`` is on, the prompt looks for itself.
  public var isCaptured: Bool
  /// Why the session counts as captured, as in "asciinema is recording this
  /// terminal"; shown when reveal is refused. Set by the prompt from its own
  /// detection, or by a caller that found out by itself.
  public var captureReason: String?
  /// Look for a recorder when the prompt starts (`RecordingDetector`, on
  /// the prompt's terminal), unless ``isCaptured`` is
  /// already set: when one is found the field is captured, with the detection's
  /// reason. On by default; it costs about 0.1 ms, a few ms inside tmux.
  public var detectsRecording: Bool
  /// The reports asked of the terminal while prompting: bracketed paste, focus
  /// reporting and the kitty keyboard protocol (caps lock) by default.
  public var terminalFeatures: TerminalFeatures
  /// How long the prompt waits for the terminal to answer its kitty keyboard
  /// query before it treats the terminal as plain (no caps-lock warning).
  /// Keys typed meanwhile are handled at once; this only bounds how long a
  /// prompt that ends sooner waits for the answer, so that the answer is not
  /// left for the shell to read. 200 ms by default.
  public var terminalReplyTimeout: Duration
  /// The terminal to prompt on: the controlling terminal by default, or the one
  /// a pinentry's client named.
  public var terminalPath: String
  /// The locale that decides the mask glyph and the hint's separator; nil reads
  /// it from the environment when the prompt starts.
  public var locale: TerminalLocale?
  /// Which memory holds the password and every byte of it on the way (the
  /// field, the key decoder's buffers, the copy the prompt returns). Sealed
  /// by default, as the package's tools ask (`SecureStorage.sealed`): a root
  /// scan reads ciphertext only, and a key costs no protection change;
  /// `.sodium` lets the machine hibernate, `.strongestAvailable` keeps the
  /// plaintext in guarded secret memory (see `SecureStorage`).
  public var storage: SecureStorage

  /// A configuration with `prompt` and the defaults for everything else.
  public init(prompt: String = "Password:") {
    self.prompt = prompt
    description = nil
    initialMessage = nil
    echo = .masked()
    allowsReveal = true
    allowsSuspend = true
    obfuscationMode = .hidden
    escapeTimeout = .milliseconds(100)
    timeout = nil
    confirmation = nil
    minimumLength = 0
    strength = nil
    showsHint = true
    texts = PromptTexts()
    fieldPolicy = .default
    fieldLimits = .default
    isCaptured = false
    captureReason = nil
    detectsRecording = true
    terminalFeatures = .prompt
    terminalReplyTimeout = .milliseconds(200)
    terminalPath = TerminalDevice.controllingTerminalPath
    locale = nil
    storage = .sealed
  }

  /// The least a front end needs: `prompt`, then a line read with echo off
  /// (nothing shown as it is typed, not even masks), no hint, no reveal, no
  /// recording check and no terminal features beyond raw mode; Enter submits,
  /// Esc and ^C cancel. The terminal is restored on every ending, signals
  /// included, as for any prompt: the one thing a front end that turned echo
  /// off itself would have to get right.
  ///
  /// ```swift
  /// import SecretFieldTerminal
  /// import SecureMemory
  ///
  /// let line = try PasswordPrompt(.lineWithoutEcho(prompt: "PIN:")).run().answer()
  /// print(line.count)
  /// ```
  public static func lineWithoutEcho(prompt: String) -> PromptConfiguration {
    var configuration = PromptConfiguration(prompt: prompt)
    configuration.echo = .silent
    configuration.allowsReveal = false
    configuration.showsHint = false
    configuration.detectsRecording = false
    configuration.terminalFeatures = []
    return configuration
  }

  /// True when Tab reveals: reveal allowed and the typing masked, not silent.
  var offersReveal: Bool {
    if allowsReveal, case .masked = echo { true } else { false }
  }
}
