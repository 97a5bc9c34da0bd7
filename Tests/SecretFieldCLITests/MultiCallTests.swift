import Glibc
import PTYSupport
import SecretFieldCLI
import TestSupport
import Testing

/// The package ships one binary, `secretfield`, and installs
/// `secretfield-askpass`, `pinentry-secretfield` and
/// `git-credential-secretfield` as links to it; gpg-agent starts the
/// `pinentry` alternative as `pinentry`.
@Suite("One binary, four programs, chosen by the name it was started by")
struct MultiCallTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let program: Executables.Program
    var testDescription: String { "'\(name)' runs \(program)" }
  }

  @Test(
    "the last path component decides",
    arguments: [
      Case(name: "secretfield", program: .tool),
      Case(name: "/usr/bin/secretfield", program: .tool),
      Case(name: "./sf", program: .tool),
      Case(name: "", program: .tool),
      Case(name: "secretfield-askpass", program: .askpass),
      Case(name: "/usr/bin/secretfield-askpass", program: .askpass),
      Case(name: "/usr/lib/ssh/ssh-askpass", program: .askpass),
      Case(name: "pinentry-secretfield", program: .pinentry),
      Case(name: "/usr/bin/pinentry", program: .pinentry),
      Case(name: "pinentry", program: .pinentry),
      Case(name: "/opt/pinentry/bin/secretfield", program: .tool),
      Case(name: "git-credential-secretfield", program: .credentialHelper),
      Case(name: "/usr/bin/git-credential-secretfield", program: .credentialHelper),
    ])
  func program(_ testCase: Case) {
    #expect(Executables.Program(invokedAs: testCase.name) == testCase.program)
  }

  struct Link: CustomTestStringConvertible, Sendable {
    let name: String
    let version: String
    var testDescription: String { "a link named \(name)" }
  }

  @Test(
    "the built secretfield, started through a link, is the program the link names",
    arguments: [
      Link(name: "secretfield-askpass", version: "secretfield-askpass"),
      Link(name: "pinentry-secretfield", version: "pinentry-secretfield"),
      Link(name: "pinentry", version: "pinentry-secretfield"),
      Link(name: "git-credential-secretfield", version: "git-credential-secretfield"),
      Link(name: "secretfield", version: "secretfield"),
    ])
  func link(_ link: Link) throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/" + link.name
    try #require(symlink(builtExecutable("secretfield"), path) == 0)
    let run = try runProgram([path, "--version"], environment: .exactly(["PATH": "/usr/bin:/bin"]))
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.hasPrefix(link.version + " "), "\(run.output)")
  }
}
