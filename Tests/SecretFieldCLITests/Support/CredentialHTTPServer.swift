import Foundation
import Glibc
import PTYSupport

/// A git server over HTTP that asks for basic authentication and checks the
/// password: `git http-backend` behind a small Python server the test
/// starts on a free port of 127.0.0.1, serving bare repositories it made.
///
/// Each repository has its account (user name and password), read from a
/// file on every request, so a test can change a password between clones.
/// Every request is logged as `REPOSITORY ok|refused|none` (no credential).
final class CredentialHTTPServer {
  /// `http://127.0.0.1:PORT`.
  let baseURL: String
  /// `127.0.0.1:PORT`, the host git sends its helper.
  let host: String
  private let directory: String
  private let process = Process()

  /// Starts a server under `directory` with a repository for each entry of
  /// `accounts` (`"a.git": ("alice", "pw")`), each holding one commit.
  init(in directory: String, accounts: [String: (user: String, password: String)]) throws {
    self.directory = directory
    let root = directory + "/repositories"
    let plain = ["PATH": "/usr/bin:/bin", "HOME": directory, "GIT_CONFIG_NOSYSTEM": "1"]
    let work = directory + "/work"
    for step in [
      ["init", "-q", work],
      [
        "-C", work, "-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit",
        "-q", "--allow-empty", "-m", "first",
      ],
    ] {
      let run = try runProgram("/usr/bin/git", step, environment: plain)
      guard run.status == 0 else { throw HarnessError("git \(step): \(run.error)") }
    }
    for name in accounts.keys {
      let run = try runProgram(
        "/usr/bin/git", ["clone", "-q", "--bare", work, root + "/" + name], environment: plain)
      guard run.status == 0 else { throw HarnessError("git clone --bare: \(run.error)") }
    }
    try Self.script.write(toFile: directory + "/server.py")
    try "".write(toFile: directory + "/requests.log")
    try Self.writeAccounts(accounts, to: directory + "/accounts.json")

    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      directory + "/server.py", root, directory + "/accounts.json", directory + "/requests.log",
    ]
    process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // The server prints its port once it listens: the event to wait for.
    var line: [UInt8] = []
    while true {
      let byte = output.fileHandleForReading.readData(ofLength: 1)
      guard let first = byte.first else {
        throw HarnessError("the test's HTTP server exited before it listened")
      }
      if first == 0x0A { break }
      line.append(first)
    }
    let port = String(decoding: line, as: UTF8.self)
    host = "127.0.0.1:\(port)"
    baseURL = "http://" + host
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// Changes the accounts: the next request is checked against these.
  func setAccounts(_ accounts: [String: (user: String, password: String)]) throws {
    let path = directory + "/accounts.json"
    try Self.writeAccounts(accounts, to: path + ".new")
    guard rename(path + ".new", path) == 0 else { throw HarnessError("rename accounts.json") }
  }

  /// The requests the server answered so far, one `REPOSITORY RESULT` each.
  func requests() throws -> [String] {
    let text = try String(contentsOfFile: directory + "/requests.log", encoding: .utf8)
    return text.split(separator: "\n").map(String.init)
  }

  private static func writeAccounts(
    _ accounts: [String: (user: String, password: String)], to path: String
  ) throws {
    let object = accounts.mapValues { [$0.user, $0.password] }
    let data = try JSONSerialization.data(withJSONObject: object)
    try String(decoding: data, as: UTF8.self).write(toFile: path)
  }

  private static let script = #"""
    import base64, json, subprocess, sys
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    root, accounts_file, log_file = sys.argv[1:4]


    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            self.serve()

        def do_POST(self):
            self.serve()

        def serve(self):
            path, _, query = self.path.partition("?")
            repository = path.lstrip("/").split("/")[0]
            with open(accounts_file) as accounts:
                expected = json.load(accounts).get(repository)
            header = self.headers.get("Authorization", "")
            accepted = False
            if expected and header.startswith("Basic "):
                try:
                    user, _, password = base64.b64decode(header[6:]).decode().partition(":")
                    accepted = [user, password] == expected
                except Exception:
                    accepted = False
            with open(log_file, "a") as log:
                log.write(f"{repository} {'ok' if accepted else 'refused' if header else 'none'}\n")
            if not accepted:
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="secretfield test"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            environment = {
                "PATH": "/usr/bin:/bin", "GIT_PROJECT_ROOT": root, "GIT_HTTP_EXPORT_ALL": "1",
                "GIT_CONFIG_NOSYSTEM": "1", "HOME": root, "REQUEST_METHOD": self.command,
                "PATH_INFO": path, "QUERY_STRING": query, "REMOTE_USER": expected[0],
                "REMOTE_ADDR": "127.0.0.1", "CONTENT_LENGTH": str(len(body)),
                "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            }
            for name, variable in (("Content-Encoding", "HTTP_CONTENT_ENCODING"),
                                   ("Git-Protocol", "HTTP_GIT_PROTOCOL")):
                if self.headers.get(name):
                    environment[variable] = self.headers.get(name)
            output = subprocess.run(["/usr/bin/git", "http-backend"], input=body,
                                    env=environment, capture_output=True).stdout
            separator = b"\r\n\r\n" if b"\r\n\r\n" in output else b"\n\n"
            head, _, payload = output.partition(separator)
            status, headers = 200, []
            for line in head.decode("latin-1").splitlines():
                name, _, value = line.partition(":")
                if name.lower() == "status":
                    status = int(value.split()[0])
                elif name:
                    headers.append((name, value.strip()))
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)


    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#
}
