import Foundation
import Glibc
import PTYSupport
import PasswordAgent
import SecretFieldCLI
import TestSupport
import Testing
import ToolSupport

@Suite("secretfield agent: its options, and --user on a private runtime directory")
struct AgentCommandTests {
  @Test("the options parse; two modes, values on flags and arguments are usage errors")
  func options() throws {
    #expect(try AgentCommand(arguments: []).mode == .query)
    #expect(try AgentCommand(arguments: ["--watch"]).mode == .watch)
    #expect(try AgentCommand(arguments: ["--list", "--list"]).mode == .list)
    #expect(try AgentCommand(arguments: ["--console"]).consolePath == "/dev/console")
    #expect(try AgentCommand(arguments: ["--console=/dev/tty3"]).consolePath == "/dev/tty3")
    for bad in [["--query", "--watch"], ["--user=yes"], ["--watch=1"], ["now"], ["--console="]] {
      #expect(throws: UsageError.self, "\(bad)") { _ = try AgentCommand(arguments: bad) }
    }
  }

  @Test("--user answers $XDG_RUNTIME_DIR/systemd/ask-password/, and needs the variable")
  func userDirectory() throws {
    var context = CommandContext()
    context.environmentValue = { $0 == "XDG_RUNTIME_DIR" ? "/run/user/1000/" : nil }
    let command = try AgentCommand(arguments: ["--user"])
    #expect(command.directory(in: context)?.path == "/run/user/1000/systemd/ask-password")
    context.environmentValue = { _ in nil }
    #expect(command.directory(in: context) == nil)
    #expect(
      try AgentCommand(arguments: []).directory(in: context)?.path == "/run/systemd/ask-password")
  }

  @Test("--user end to end: a request in a private XDG_RUNTIME_DIR is asked and answered")
  func userEndToEnd() throws {
    let runtime = try TemporaryDirectory()
    let directory = runtime.path + "/systemd/ask-password"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let socket = try DatagramSocket(path: directory + "/sck.user")
    try runtime.write(
      "systemd/ask-password/ask.user",
      "[Ask]\nPID=\(getpid())\nSocket=\(socket.path)\nMessage=User secret:\n")
    var options = TerminalSession.Options()
    options.environment = ["XDG_RUNTIME_DIR": runtime.path]
    options.standardError = .captured
    let session = try TerminalSession(
      executable: builtExecutable("secretfield"), arguments: ["agent", "--user"], options: options)
    try session.waitForText("User secret:")
    try session.type(keys: ["u", "s", Key.enter])
    #expect(socket.receive() == Array("+us".utf8))
    #expect(try session.waitForExit() == .exited(0))
    #expect(try session.attributes() == session.initialAttributes)
  }
}
