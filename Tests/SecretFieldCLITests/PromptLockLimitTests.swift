import Glibc
import PTYSupport
import Testing

/// A lock limit to run the prompt under, and whether it can live with it.
struct LockLimitCase: CustomTestStringConvertible, Sendable {
  var kibibytes: Int
  var confirms: Bool
  var works: Bool
  var testDescription: String {
    "\(kibibytes) KiB\(confirms ? " with --confirm" : ""): \(works ? "works" : "refused at start")"
  }
}

/// `secretfield prompt` as `nobody` (root's CAP_IPC_LOCK would lift the limit)
/// under `RLIMIT_MEMLOCK` of `kibibytes`, through util-linux's `prlimit` and
/// `setpriv`, on a pty; standard output and error captured.
func promptAsNobody(kibibytes: Int, arguments: [String]) throws -> TerminalSession {
  var options = TerminalSession.Options()
  options.standardOutput = .captured
  options.standardError = .captured
  let bytes = kibibytes * 1024
  return try TerminalSession(
    executable: "/usr/bin/prlimit",
    arguments: [
      "--memlock=\(bytes):\(bytes)", "/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
      "--clear-groups", secretfield, "prompt",
    ] + arguments, options: options)
}

@Suite(
  "The prompt's smallest lock limit: what Enter needs is made before the first key",
  .enabled(if: getuid() == 0, "needs root to become nobody"))
struct PromptLockLimitTests {
  /// 24 KiB is the smallest limit `secretfield prompt` works under, its
  /// secrets sealed (six pages: the sealing key, the thread's scratch, the
  /// landing area a key is read into, the field's ciphertext, and a page of
  /// slots each for the decoder's input and payload and for the answer);
  /// `--confirm` keeps a second answer and judges the new password, made
  /// before the first key (`--allow-weak` here, so the typed `limit` is
  /// taken: the command's judge then, the prompt's otherwise; eight sodium
  /// pages of scratch, one for short passwords and seven for long): 60 KiB.
  /// 64 KiB, Linux's default before 5.16, works as every limit above the
  /// smallest does.
  static let cases = [
    LockLimitCase(kibibytes: 20, confirms: false, works: false),
    LockLimitCase(kibibytes: 24, confirms: false, works: true),
    LockLimitCase(kibibytes: 32, confirms: false, works: true),
    LockLimitCase(kibibytes: 64, confirms: false, works: true),
    LockLimitCase(kibibytes: 96, confirms: false, works: true),
    LockLimitCase(kibibytes: 56, confirms: true, works: false),
    LockLimitCase(kibibytes: 60, confirms: true, works: true),
    LockLimitCase(kibibytes: 64, confirms: true, works: true),
  ]

  @Test(
    "at each limit the prompt either refuses before it draws anything, or takes the password through Enter",
    arguments: cases)
  func limit(_ example: LockLimitCase) throws {
    let session = try promptAsNobody(
      kibibytes: example.kibibytes,
      arguments: example.confirms ? ["--confirm", "--allow-weak"] : [])
    guard example.works else {
      let status = try session.waitForExit()
      let error = try session.standardError()
      #expect(status == .exited(1), "\(error)")
      #expect(error.contains("RLIMIT_MEMLOCK"), "\(error)")
      #expect(!(try session.screen().shows("Password:")), "refused before drawing")
      #expect(try session.standardOutput() == "")
      return
    }
    try session.waitForText("Password:")
    try session.type(keys: ["l", "i", "m", "i", "t"])
    try session.waitForMasks(5)
    try session.type(Key.enter)
    if example.confirms {
      // A pair that differs first: the two answers are used again, not made anew.
      try session.waitForText("Again:")
      try session.type(keys: ["o", "t", "h", "e", "r", Key.enter])
      try session.waitForText("didn't match")
      try session.type(keys: ["l", "i", "m", "i", "t"])
      try session.waitForMasks(5)
      try session.type(Key.enter)
      try session.waitForMasks(0, prompt: "Again:")
      try session.type(keys: ["l", "i", "m", "i", "t", Key.enter])
    }
    let status = try session.waitForExit()
    let error = try session.standardError()
    #expect(status == .exited(0), "\(error)")
    #expect(try session.standardOutput() == "limit\n", "\(error)")
  }
}
