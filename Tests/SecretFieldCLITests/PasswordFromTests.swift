import Foundation
import Glibc
import PTYSupport
import SecretFieldCLI
import TestSupport
import Testing
import ToolSupport

/// How a run of the tool without a terminal went.
struct ToolRun {
  var status: Int32
  var output: String
  var error: String
}

/// Runs `executable ARGUMENTS` with exactly `environment` (and `PATH`), no
/// controlling terminal, standard input from `input` (or `/dev/null`), and
/// standard output into a pipe, or into a pipe whose reading end is already
/// closed when `closedOutput`.
func runTool(
  _ arguments: [String], executable: String = secretfield, environment: [String: String] = [:],
  input: [UInt8]? = nil, closedOutput: Bool = false
) throws -> ToolRun {
  let closed = try TestSupport.Pipe()
  closed.closeReadEnd()
  let process = try TestProcess(
    [executable] + arguments,
    environment: .exactly(environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }),
    standardInput: input.map { .bytes($0) } ?? .null,
    standardOutput: closedOutput ? .descriptor(closed.writeEnd) : .pipe)
  closed.closeWriteEnd()
  let run = try process.finish()
  return ToolRun(status: run.status, output: run.output, error: run.error)
}

/// Runs `secretfield ARGUMENTS` (``runTool(_:executable:environment:input:closedOutput:)``)
/// and expects a usage error: exit 2, nothing on standard output, and
/// `message` on standard error.
func expectUsageError(
  _ arguments: [String], mentioning message: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let run = try runTool(arguments)
  #expect(run.status == 2, "\(run.error)", sourceLocation: sourceLocation)
  #expect(run.output == "", sourceLocation: sourceLocation)
  #expect(run.error.contains(message), "\(run.error)", sourceLocation: sourceLocation)
}

/// Runs `secretfield ARGUMENTS` with its standard output's reading end
/// already closed, and expects exit 1 and a message, not death by SIGPIPE.
func expectClosedOutputSaid(
  _ arguments: [String], environment: [String: String],
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let run = try runTool(arguments, environment: environment, closedOutput: true)
  #expect(
    run.status == 1, "not killed by SIGPIPE (141): \(run.status)", sourceLocation: sourceLocation)
  #expect(
    run.error.contains("standard output was closed"), "\(run.error)",
    sourceLocation: sourceLocation)
}

@Suite("secretfield --password-from: every scheme end to end, with the table's exit statuses")
struct PasswordFromTests {
  @Test("env, file, fd, stdin, cmd and credential each give the password, exit 0")
  func eachScheme() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path + "/pw"
    try "from file\nsecond\n".write(toFile: file)
    try "from credential\n".write(toFile: directory.path + "/tool-pw")

    let env = try runTool(
      ["prompt", "--password-from", "env:SF_PW"], environment: ["SF_PW": "from env"])
    #expect(env.status == 0, "\(env.error)")
    #expect(env.output == "from env\n")

    let fromFile = try runTool(["prompt", "--password-from", "file:" + file])
    #expect(fromFile.status == 0, "\(fromFile.error)")
    #expect(fromFile.output == "from file\n")
    #expect(fromFile.error == "", "a private file gives no warning")

    let fd = try runTool(
      ["-c", "exec \"$0\" prompt --password-from fd:3 3<\"$1\"", secretfield, file],
      executable: "/bin/sh")
    #expect(fd.status == 0, "\(fd.error)")
    #expect(fd.output == "from file\n")

    let stdin = try runTool(
      ["prompt", "--password-from", "stdin"], input: Array("from stdin\nnext\n".utf8))
    #expect(stdin.status == 0, "\(stdin.error)")
    #expect(stdin.output == "from stdin\n")

    let command = try runTool(["prompt", "--password-from", "cmd:printf 'from cmd\\nmore\\n'"])
    #expect(command.status == 0, "\(command.error)")
    #expect(command.output == "from cmd\n")

    let credential = try runTool(
      ["prompt", "--password-from", "credential:tool-pw"],
      environment: ["CREDENTIALS_DIRECTORY": directory.path])
    #expect(credential.status == 0, "\(credential.error)")
    // The whole file, its line feed included, as systemd-ask-password takes it.
    #expect(credential.output == "from credential\n\n")
  }

  @Test("a variable or credential that is not set passes to the next, in the order given")
  func passesToNext() throws {
    let run = try runTool(
      [
        "prompt", "--password-from", "env:SF_UNSET", "--password-from", "credential:none",
        "--password-from", "env:SF_SECOND", "--password-from", "env:SF_THIRD",
      ], environment: ["SF_SECOND": "second", "SF_THIRD": "third"])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "second\n")
  }

  @Test("--no-prompt with none set: exit 1 and a message, nothing written")
  func noPrompt() throws {
    let run = try runTool(["prompt", "--password-from", "env:SF_UNSET", "--no-prompt"])
    #expect(run.status == 1)
    #expect(run.output == "")
    #expect(run.error.contains("SF_UNSET is not set"), "\(run.error)")
  }

  @Test("none set and no --no-prompt: the terminal asks")
  func promptsWhenNoneSet() throws {
    let session = try startPrompt(["--password-from", "env:SF_UNSET"])
    try session.type("typed\r")
    #expect(try session.waitForExit() == .exited(0))
    #expect(try session.standardOutput() == "typed\n")
  }

  @Test("a source that is set but fails: exit 1 with a message, never the prompt")
  func setButFails() throws {
    var options = TerminalSession.Options()
    options.standardOutput = .captured
    options.standardError = .captured
    options.environment = ["PATH": "/usr/bin:/bin", "SF_EMPTY": ""]
    let cases: [([String], String)] = [
      (["--password-from", "file:/nonexistent/pw"], "cannot open /nonexistent/pw"),
      (["--password-from", "cmd:false"], "'false' failed: it exited with status 1"),
      (["--password-from", "cmd:sh -c 'kill -TERM $$'"], "signal 15 (SIGTERM)"),
      (["--password-from", "cmd:true"], "is empty"),
      (["--password-from", "env:SF_EMPTY"], "SF_EMPTY is empty"),
      (["--password-from", "fd:9"], "cannot open file descriptor 9"),
      (["--stdin"], "standard input is a terminal"),
    ]
    for (arguments, message) in cases {
      let session = try TerminalSession(
        executable: secretfield, arguments: ["prompt"] + arguments, options: options)
      #expect(try session.waitForExit() == .exited(1), "\(arguments)")
      #expect(try session.standardOutput() == "", "\(arguments)")
      let error = try session.standardError()
      #expect(error.contains(message), "\(arguments): \(error)")
      #expect(!(try session.screen().contains("Password:")), "\(arguments) fell back to the prompt")
    }
  }

  @Test("--timeout bounds a line from standard input too: exit 124")
  func standardInputTimeout() throws {
    // A FIFO opened for reading and writing: standard input that never ends
    // and never delivers.
    let script = """
      d=$(mktemp -d) && mkfifo "$d/in" && exec 3<>"$d/in" && rm -r "$d"
      "$0" prompt --stdin --timeout 0.3 <&3; echo "status $?"
      """
    let run = try runTool(["-c", script, secretfield], executable: "/bin/sh")
    #expect(run.output.hasSuffix("status 124\n"), "\(run.output) \(run.error)")
    #expect(run.error.contains("timed out"), "\(run.error)")
  }

  @Test("a file others can write is refused (exit 1); one others can read is taken with a warning")
  func fileModes() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path + "/pw"
    try "pw\n".write(toFile: file)
    chmod(file, 0o644)
    let loose = try runTool(["prompt", "--password-from", "file:" + file])
    #expect(loose.status == 0)
    #expect(loose.output == "pw\n")
    #expect(loose.error.contains("warning: \(file) can be read by"), "\(loose.error)")
    chmod(file, 0o666)
    let open = try runTool(["prompt", "--password-from", "file:" + file])
    #expect(open.status == 1)
    #expect(open.output == "")
    #expect(open.error.contains("can be written by"), "\(open.error)")
  }

  @Test(
    "an unknown scheme or a bad value: a usage error, exit 2",
    arguments: [
      (["--password-from", "bogus:x"], "unknown scheme 'bogus'"),
      (["--password-from", "fd:x"], "descriptor number"),
      (["--password-from", "cmd:'open"], "not closed"),
      (["--password-from"], "needs a source"),
      (["--no-prompt"], "--no-prompt needs a --password-from source"),
    ])
  func usageErrors(_ arguments: [String], _ message: String) throws {
    try expectUsageError(["prompt"] + arguments, mentioning: message)
  }

  @Test("standard output closed before the password (or hash) is written: exit 1 and a message")
  func closedPipe() throws {
    try expectClosedOutputSaid(
      ["prompt", "--password-from", "env:SF_PW"], environment: ["SF_PW": "pw"])
    try expectClosedOutputSaid(
      ["hash", "--allow-weak", "--password-from", "env:SF_PW"], environment: ["SF_PW": "pw"])
  }

  @Test("hash and verify take the same sources; verify answers 0 or 4")
  func hashAndVerify() throws {
    let hashed = try runTool(
      ["hash", "--allow-weak", "--password-from", "env:SF_PW"], environment: ["SF_PW": "horse"])
    #expect(hashed.status == 0, "\(hashed.error)")
    let hash = hashed.output.trimmingCharacters(in: .newlines)
    #expect(hash.hasPrefix("$argon2id$"))
    let right = try runTool(
      ["verify", "--password-from", "cmd:echo horse", hash])
    #expect(right.status == 0, "\(right.error)")
    let wrong = try runTool(
      ["verify", "--password-from", "env:SF_PW", hash], environment: ["SF_PW": "cart"])
    #expect(wrong.status == 4)
  }

  @Test("the askpass takes SECRETFIELD_PASSWORD_FROM; a bad one exits 1 with nothing written")
  func askpass() throws {
    let run = try runTool(
      ["Password for host:"], executable: secretfieldAskpass,
      environment: [PromptOptions.sourceVariable: "env:SF_PW", "SF_PW": "askpass pw"])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "askpass pw\n")
    let bad = try runTool(
      ["Password:"], executable: secretfieldAskpass,
      environment: [PromptOptions.sourceVariable: "bogus"])
    #expect(bad.status == 1)
    #expect(bad.output == "")
    #expect(bad.error.contains(PromptOptions.sourceVariable), "\(bad.error)")
  }

  @Test(
    "env: the tool's /proc/PID/environ no longer shows the value; without the source it does",
    .enabled(if: canReadHardenedProcesses, "needs root with CAP_SYS_PTRACE"))
  func environmentScrubbed() throws {
    let value = "sf-scrub-\(UInt64.random(in: 1...UInt64.max))"
    for scrubs in [true, false] {
      var options = TerminalSession.Options()
      options.hasControllingTerminal = false
      options.standardInput = .bytes(Array("line\n".utf8))
      options.standardOutput = .captured
      options.standardError = .captured
      options.environment = ["SF_PW": value, TestHook.stopBeforeExitVariable: "1"]
      let source = scrubs ? "env:SF_PW" : "stdin"
      let session = try TerminalSession(
        executable: secretfield, arguments: ["prompt", "--password-from", source],
        options: options)
      #expect(try session.waitForStatus() == .stopped(SIGSTOP))
      let environ = try readText("/proc/\(session.processID)/environ")
      #expect(environ.contains("SF_PW="), "the name stays: \(scrubs)")
      #expect(environ.contains(value) == !scrubs, "scrubbed: \(scrubs)")
      try session.send(signal: SIGCONT)
      #expect(try session.waitForExit() == .exited(0))
    }
  }
}
