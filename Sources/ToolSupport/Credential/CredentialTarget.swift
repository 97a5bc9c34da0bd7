/// What a credential is for, as git describes it: the protocol, the host (with
/// its port), the repository's path when `credential.useHttpPath` is on, and
/// the user name when there is one. None of it is secret.
package struct CredentialTarget: Sendable, Hashable, CustomStringConvertible {
  /// `https`, `http`...
  package var protocolName: String
  /// The host, with `:port` when the URL had one.
  package var host: String
  /// The repository's path on the server, without leading or trailing
  /// slashes; nil when git sent none (`credential.useHttpPath` off).
  package var path: String?
  /// The user name; nil when not known.
  package var username: String?

  /// A target of these parts.
  package init(protocolName: String, host: String, path: String? = nil, username: String? = nil) {
    self.protocolName = protocolName
    self.host = host
    self.path = path.flatMap { $0.isEmpty ? nil : $0 }
    self.username = username
  }

  /// True when `stored` is what this target asks for: each part set here is
  /// the same there (a part not set here matches any), as
  /// `git-credential-cache` matches.
  package func matches(_ stored: CredentialTarget) -> Bool {
    protocolName == stored.protocolName && host == stored.host
      && (path == nil || path == stored.path)
      && (username == nil || username == stored.username)
  }

  /// The URL, as git shows it in its own prompts:
  /// `https://alice@example.com/repo.git`.
  package var description: String {
    let user = username.map { Self.percentEncoded($0, keeping: "") + "@" } ?? ""
    return "\(protocolName)://\(user)\(host)" + (path.map { "/" + $0 } ?? "")
  }
}

extension CredentialTarget {
  /// Why a URL cannot name a target.
  package enum URLProblem: Error, Equatable {
    /// No `scheme://` in front.
    case noProtocol
    /// `user:password@` in the authority.
    case holdsPassword
  }

  /// The parts of `url` (`https://alice@example.com/repo.git`), split as git
  /// splits a `url=` attribute (`credential_from_url`): user name, host and
  /// path percent-decoded, slashes around the path trimmed; a URL with no
  /// host has an empty one.
  ///
  /// - Throws: ``URLProblem``: `noProtocol`, or `holdsPassword` for a
  ///   `user:password@` (a password never goes on a command line or into a
  ///   `String`; give it on a `password=` line).
  package init(url: String) throws(URLProblem) {
    let bytes = Array(url.utf8)
    let shape = bytes.withUnsafeBytes { raw in
      Self.shape(of: raw) { byte, within in within.firstIndex(of: byte) ?? within.count }
    }
    switch shape {
    case .noProtocol: throw .noProtocol
    case .holdsPassword: throw .holdsPassword
    case .plain: break
    }
    let schemeEnd = bytes.firstIndex(of: UInt8(ascii: ":"))!
    let scheme = String(decoding: bytes[..<schemeEnd], as: UTF8.self)
    let rest = bytes[(schemeEnd + 3)...]
    let authorityEnd =
      rest.firstIndex {
        $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
      }
      ?? rest.endIndex
    let at = rest[..<authorityEnd].firstIndex(of: UInt8(ascii: "@"))
    var username: String?
    var hostStart = rest.startIndex
    if let at {
      username = Self.percentDecoded(rest[rest.startIndex..<at])
      hostStart = at + 1
    }
    let host = Self.percentDecoded(rest[hostStart..<authorityEnd])
    var pathBytes = rest[authorityEnd...]
    while pathBytes.first == UInt8(ascii: "/") { pathBytes = pathBytes.dropFirst() }
    while pathBytes.count > 1, pathBytes.last == UInt8(ascii: "/") {
      pathBytes = pathBytes.dropLast()
    }
    self.init(
      protocolName: scheme, host: host,
      path: pathBytes.isEmpty ? nil : Self.percentDecoded(pathBytes), username: username)
  }

  /// What a look at a URL's bytes found, before they become a `String`.
  enum URLShape: Equatable {
    /// `scheme://` and no password: safe to read as text.
    case plain
    /// No `scheme://` in front.
    case noProtocol
    /// `user:password@` in the authority.
    case holdsPassword
  }

  /// The shape of the URL in `bytes`, found as git's `credential_from_url`
  /// finds a password: the first `@` before the end of the authority, and a
  /// `:` before it. The scheme ends at the first `:`, which `//` follows.
  /// Looks at the bytes with `find` alone (the package's `repne scasb`, which
  /// leaves none of them in a register), but for the two after the scheme.
  static func shape(
    of bytes: UnsafeRawBufferPointer, find: (UInt8, UnsafeRawBufferPointer) -> Int
  ) -> URLShape {
    let schemeEnd = find(UInt8(ascii: ":"), bytes)
    guard schemeEnd > 0, schemeEnd + 2 < bytes.count, bytes[schemeEnd + 1] == UInt8(ascii: "/"),
      bytes[schemeEnd + 2] == UInt8(ascii: "/")
    else { return .noProtocol }
    let rest = UnsafeRawBufferPointer(rebasing: bytes[(schemeEnd + 3)...])
    let authorityEnd =
      [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")]
      .map { find($0, rest) }.min() ?? rest.count
    let at = find(UInt8(ascii: "@"), rest)
    let colon = find(UInt8(ascii: ":"), rest)
    return at < authorityEnd && colon < at ? .holdsPassword : .plain
  }

  /// `text` with `%XX` for each byte not kept as it is: bytes below `!`,
  /// DEL, `%`, and those in `special`.
  static func percentEncoded(_ text: String, keeping special: String = "") -> String {
    let reserved = Set("%@/:".utf8).subtracting(special.utf8)
    var encoded: [UInt8] = []
    for byte in text.utf8 {
      if byte <= 0x20 || byte == 0x7F || reserved.contains(byte) {
        encoded += Array("%".utf8) + Array(hexByte(byte).utf8)
      } else {
        encoded.append(byte)
      }
    }
    return String(decoding: encoded, as: UTF8.self)
  }

  /// Two upper-case hexadecimal digits.
  static func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
  }

  /// The bytes with each `%XX` decoded; a `%` not followed by two
  /// hexadecimal digits stays as it is.
  static func percentDecoded(_ bytes: some Collection<UInt8>) -> String {
    let bytes = Array(bytes)
    var decoded: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
      {
        decoded.append(high << 4 | low)
        index += 3
      } else {
        decoded.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: decoded, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
