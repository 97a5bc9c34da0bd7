#!/usr/bin/python3
"""A git server over HTTP that asks for basic authentication and checks the
password: `git http-backend` behind Python's http.server, on a free port of
127.0.0.1. The credential helper's tests (Tests/SecretFieldCLITests) and the
install test (Packaging/tests/installed-checks.bash) start it.

    git-http-server.py ROOT ACCOUNTS LOG

ROOT holds the bare repositories (ROOT/a.git). ACCOUNTS is a JSON file read on
every request, {"a.git": ["alice", "password"], ...}: a repository's user
name and password, so that a test can change a password between clones.
Every request is appended to LOG as "REPOSITORY ok", "REPOSITORY refused" (a
wrong credential) or "REPOSITORY none" (no credential: a 401 asks for one).
The port is printed on standard output, with a newline, once it listens.
"""
import base64
import json
import subprocess
import sys
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
