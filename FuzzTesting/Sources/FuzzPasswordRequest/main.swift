import FuzzSupport
import Glibc
import PasswordAgent

// The password agent's request file (`ask.*`, systemd's `[Ask]` section). The
// fuzzer's bytes are the file, with `@D@` standing for the request directory
// and `@T@` for the directory above it (so a `Socket=` can name the sockets
// the target made there). Checked:
//
// - parsing the same bytes twice, as an array and as lent bytes, gives the
//   same request or the same error;
// - a parsed request's `Socket=` is not empty and has no NUL, line feed or
//   blank at either end; its `Message=` has no line feed; `PID=` is positive;
// - `displayMessage` has no control character, line or paragraph separator
//   or bidirectional control (by the scalars' Unicode properties, not by the
//   escaper's list), and reading its escapes back gives `message` exactly;
// - the file written into a request directory and scanned: a file that does
//   not parse is skipped as malformed with that error; a request the scan
//   keeps is the parsed one and its socket is `@D@/s`, the only socket
//   directly in the directory (not `@D@/sub/s`, `@T@/outside`, nor the link
//   `@D@/link` to it), whose real path's parent is the directory; and a
//   request for `@D@/s` with no deadline and no `PID=` is kept.

/// The directories and sockets every input is scanned against, made once.
struct Playground {
  let top: String
  let directory: String

  init() {
    // In memory (/dev/shm), as systemd's /run/systemd/ask-password is: on a
    // disk file system rewriting ask.fuzz with O_TRUNC for every input made
    // ext4 start writeback at each close (its auto_da_alloc), and the disk
    // took most of the target's time.
    let parent = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    var template = Array("\(parent)/fuzz-password-request.XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    require(made != nil, "mkdtemp: errno \(errno)")
    top = String(cString: made!)
    directory = top + "/ask"
    require(mkdir(directory, 0o700) == 0, "mkdir: errno \(errno)")
    require(mkdir(directory + "/sub", 0o700) == 0, "mkdir: errno \(errno)")
    for path in [directory + "/s", directory + "/sub/s", top + "/outside"] {
      Self.bindSocket(path)
    }
    require(symlink(top + "/outside", directory + "/link") == 0, "symlink: errno \(errno)")
    let file = open(directory + "/regular", O_CREAT | O_WRONLY, 0o600)
    require(file >= 0, "open: errno \(errno)")
    close(file)
    // libFuzzer ends with exit(): leave nothing behind in /dev/shm.
    atexit { playground.remove() }
  }

  /// Removes what `init` made.
  func remove() {
    for file in ["ask.fuzz", "regular", "link", "s", "sub/s"] { unlink(directory + "/" + file) }
    unlink(top + "/outside")
    for made in [directory + "/sub", directory, top] { rmdir(made) }
  }

  /// Leaves a datagram socket bound at `path` (its descriptor stays open).
  static func bindSocket(_ path: String) {
    let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    require(descriptor >= 0, "socket: errno \(errno)")
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    require(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "socket path too long")
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in bytes.enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    require(bound == 0, "bind \(path): errno \(errno)")
  }

  /// `bytes` with `@D@` and `@T@` written out.
  func substituted(_ bytes: [UInt8]) -> [UInt8] {
    let directoryBytes = Array(directory.utf8)
    let topBytes = Array(top.utf8)
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if index + 3 <= bytes.count, bytes[index] == UInt8(ascii: "@"),
        bytes[index + 2] == UInt8(ascii: "@")
      {
        if bytes[index + 1] == UInt8(ascii: "D") {
          result += directoryBytes
          index += 3
          continue
        }
        if bytes[index + 1] == UInt8(ascii: "T") {
          result += topBytes
          index += 3
          continue
        }
      }
      result.append(bytes[index])
      index += 1
    }
    return result
  }

  /// Writes `bytes` as the directory's one request file, `ask.fuzz`.
  func writeRequest(_ bytes: [UInt8]) {
    let descriptor = open(directory + "/ask.fuzz", O_CREAT | O_TRUNC | O_WRONLY, 0o600)
    require(descriptor >= 0, "open ask.fuzz: errno \(errno)")
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        write(descriptor, $0.baseAddress! + offset, $0.count - offset)
      }
      require(written > 0, "write ask.fuzz: errno \(errno)")
      offset += written
    }
    close(descriptor)
  }
}

let playground = Playground()

func parse(_ bytes: [UInt8]) -> Result<PasswordRequest, PasswordRequestError> {
  Result { () throws(PasswordRequestError) in try PasswordRequest(parsing: bytes) }
}

/// True for a scalar that acts on a terminal or reorders what is shown.
func isUnsafeToShow(_ scalar: Unicode.Scalar) -> Bool {
  let properties = scalar.properties
  return properties.generalCategory == .control || properties.generalCategory == .lineSeparator
    || properties.generalCategory == .paragraphSeparator || properties.isBidiControl
}

/// Reads back the escapes `PasswordRequest.escaped` writes, or nil for text
/// that is not such an escaping.
func unescaped(_ text: String) -> String? {
  var result = String.UnicodeScalarView()
  var scalars = text.unicodeScalars.makeIterator()
  func hexadecimal(_ digits: [Unicode.Scalar]) -> Unicode.Scalar? {
    guard !digits.isEmpty, digits.allSatisfy(\.properties.isASCIIHexDigit) else { return nil }
    return UInt32(String(String.UnicodeScalarView(digits)), radix: 16).flatMap(Unicode.Scalar.init)
  }
  while let scalar = scalars.next() {
    guard scalar == "\\" else {
      result.append(scalar)
      continue
    }
    switch scalars.next() {
    case "\\": result.append("\\")
    case "n": result.append("\n")
    case "r": result.append("\r")
    case "t": result.append("\t")
    case "e": result.append("\u{1B}")
    case "x":
      guard let first = scalars.next(), let second = scalars.next(),
        let value = hexadecimal([first, second])
      else { return nil }
      result.append(value)
    case "u":
      guard scalars.next() == "{" else { return nil }
      var digits: [Unicode.Scalar] = []
      while let digit = scalars.next(), digit != "}" { digits.append(digit) }
      guard let value = hexadecimal(digits) else { return nil }
      result.append(value)
    default: return nil
    }
  }
  return String(result)
}

func checkParsed(_ request: PasswordRequest) {
  let socket = Array(request.socketPath.utf8)
  require(!socket.isEmpty, "an empty Socket= was accepted")
  require(!socket.contains(0) && !socket.contains(0x0A), "Socket= holds a NUL or LF: \(socket)")
  require(
    socket.first != 0x20 && socket.first != 0x09 && socket.last != 0x20 && socket.last != 0x09,
    "Socket= keeps a blank at an end: \(socket)")
  require(!request.message.utf8.contains(0x0A), "Message= holds a line feed")
  require(request.processID.map { $0 > 0 } ?? true, "PID= \(request.processID!) kept")
  let shown = request.displayMessage
  for scalar in shown.unicodeScalars {
    require(!isUnsafeToShow(scalar), "displayMessage shows U+\(String(scalar.value, radix: 16))")
  }
  let back = unescaped(shown)
  require(
    back.map { Array($0.utf8) } == Array(request.message.utf8),
    "displayMessage does not read back as the message: \(Array(request.message.utf8))")
}

func realPath(_ path: String) -> String? {
  guard let resolved = realpath(path, nil) else { return nil }
  defer { free(resolved) }
  return String(cString: resolved)
}

/// libFuzzer's entry point: one request file, checked as described above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPasswordRequest(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let raw = UnsafeRawBufferPointer(start: start, count: count)
  let bytes = playground.substituted(Array(raw))

  let parsed = parse(bytes)
  require(parsed == parse(bytes), "two parses of the same bytes differ")
  let lent = bytes.withUnsafeBytes { buffer in
    Result { () throws(PasswordRequestError) in try PasswordRequest.parse(buffer) }
  }
  require(lent == parsed, "parse(lent bytes) differs from init(parsing:)")
  if case .success(let request) = parsed { checkParsed(request) }

  playground.writeRequest(bytes)
  let scan: RequestDirectory.Scan
  do {
    scan = try RequestDirectory(path: playground.directory).scan()
  } catch {
    require(false, "the scan failed: \(error)")
    return 0
  }
  require(scan.requests.count + scan.skipped.count == 1, "one file, \(scan) outcomes")
  let socketInDirectory = playground.directory + "/s"
  switch parsed {
  case .failure(let error):
    require(
      scan.skipped.first?.reason == .malformed(error),
      "a file that does not parse (\(error)) was not skipped as such: \(scan.skipped)")
  case .success(let request):
    if let pending = scan.requests.first {
      require(pending.request == request, "the scan kept another request than the parsed one")
      require(
        Array(request.socketPath.utf8) == Array(socketInDirectory.utf8),
        "an answer may go to \(Array(request.socketPath.utf8))")
      let parent = realPath(request.socketPath).map { String($0[..<$0.lastIndex(of: "/")!]) }
      require(
        parent != nil && parent == realPath(playground.directory),
        "the kept socket's real path is outside the directory")
    } else if Array(request.socketPath.utf8) == Array(socketInDirectory.utf8),
      request.notAfter == 0, request.processID == nil
    {
      require(false, "a request for the directory's socket was skipped: \(scan.skipped)")
    }
  }
  return 0
}
