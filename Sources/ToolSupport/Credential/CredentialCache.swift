import Glibc
package import SecureMemory

/// The credentials git confirmed, each a key of type `user` in the user's
/// kernel keyring (``KernelKeyring``), readable and writable by the user
/// alone, gone at its timeout.
///
/// A key's name says what the credential is for, field by field; its payload
/// is the password, and after a NUL the OAuth refresh token when git gave one:
///
///     secretfield-git;protocol=https;host=example.com;path=repo.git;username=alice
///
/// `path` is there when git sent one (`credential.useHttpPath`), and
/// `password_expiry_utc` when git gave the password an expiry. Each value is
/// percent-encoded where it holds `%`, `;`, `=`, a space or a control
/// character. The user name is not secret: it is in the name, where `keyctl
/// show @u` lists it; the password is only in the payload, which nothing but
/// the user's own processes may read.
package struct CredentialCache: Sendable {
  /// What every name of the cache starts with.
  package static let namePrefix = "secretfield-git;"

  /// The memory passwords are read into.
  package var storage: SecureStorage

  /// The user's keyring, reading into `storage`.
  package init(storage: SecureStorage) {
    self.storage = storage
  }

  private var keyring: KernelKeyring { KernelKeyring() }

  // MARK: Names

  /// The key name for a credential of `target` (whose user name is set),
  /// expiring at `expiry` when given.
  package static func keyName(for target: CredentialTarget, expiry: Int64? = nil) -> String {
    var fields = [("protocol", target.protocolName), ("host", target.host)]
    if let path = target.path { fields.append(("path", path)) }
    fields.append(("username", target.username ?? ""))
    if let expiry { fields.append(("password_expiry_utc", String(expiry))) }
    return namePrefix + fields.map { "\($0)=\(encoded($1))" }.joined(separator: ";")
  }

  /// What a key name of the cache says: the target (user name set) and the
  /// expiry; nil for a name that is not one of the cache's.
  package static func entry(named name: String) -> (target: CredentialTarget, expiry: Int64?)? {
    guard name.hasPrefix(namePrefix) else { return nil }
    var values: [String: String] = [:]
    for field in name.dropFirst(namePrefix.count).split(separator: ";") {
      guard let equals = field.firstIndex(of: "=") else { return nil }
      values[String(field[..<equals])] = CredentialTarget.percentDecoded(
        field[field.index(after: equals)...].utf8)
    }
    guard let protocolName = values["protocol"], let host = values["host"],
      let username = values["username"]
    else { return nil }
    return (
      CredentialTarget(
        protocolName: protocolName, host: host, path: values["path"], username: username),
      values["password_expiry_utc"].flatMap { Int64($0) }
    )
  }

  private static func encoded(_ value: String) -> String {
    var encoded: [UInt8] = []
    for byte in value.utf8 {
      if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") || byte == UInt8(ascii: ";")
        || byte == UInt8(ascii: "=")
      {
        encoded += Array("%".utf8) + Array(CredentialTarget.hexByte(byte).utf8)
      } else {
        encoded.append(byte)
      }
    }
    return String(decoding: encoded, as: UTF8.self)
  }

  /// The names of the cached credentials that `target` asks for (see
  /// ``CredentialTarget/matches(_:)``), in the keyring's order.
  package func names(matching target: CredentialTarget) throws(CredentialError) -> [String] {
    do throws(KeyringError) {
      return try keyring.names(startingWith: Self.namePrefix).filter { name in
        Self.entry(named: name).map { target.matches($0.target) } ?? false
      }
    } catch {
      throw .cache(error)
    }
  }

  // MARK: Get, store, erase

  /// The first cached credential that `target` asks for, read into secure
  /// memory (`KEYCTL_READ` straight into a buffer's window); nil when none
  /// is cached.
  package func lookup(_ target: CredentialTarget) throws(CredentialError) -> CachedCredential? {
    for name in try names(matching: target) {
      guard let entry = Self.entry(named: name) else { continue }
      let entries: KeyringEntries?
      do throws(KeyringError) {
        entries = try keyring.readAll(name: name, storage: storage)
      } catch {
        throw .cache(error)
      }
      // Expired or removed since it was listed: the next one, if any.
      guard let entries, !entries.isEmpty else { continue }
      return CachedCredential(target: entry.target, expiry: entry.expiry, entries: entries)
    }
    return nil
  }

  /// How ``store(_:password:refreshToken:expiry:timeout:now:)`` went.
  package enum StoreOutcome: Sendable, Equatable {
    /// Cached for this many seconds.
    case stored(seconds: Int64)
    /// Not cached: the password's expiry has passed.
    case expired
  }

  /// Caches `password` (and `refreshToken`) for `target`, in place of what
  /// was cached for the same protocol, host, path and user name, for
  /// `timeout` seconds and never past `expiry`.
  ///
  /// - Parameter now: the time, in seconds since the epoch.
  /// - Throws: ``CredentialError`` with code `cacheFailed`; nothing is left
  ///   cached for `target` then.
  package func store(
    _ target: CredentialTarget, password: borrowing SecureBuffer,
    refreshToken: borrowing SecureBuffer?, expiry: Int64?, timeout: Int64, now: Int64
  ) throws(CredentialError) -> StoreOutcome {
    var seconds = timeout
    if let expiry {
      guard expiry > now else { return .expired }
      seconds = min(seconds, expiry - now)
    }
    // Every expiry variant of the same credential goes first.
    for name in try names(matching: target) where Self.entry(named: name)?.target == target {
      do throws(KeyringError) { try keyring.remove(name: name) } catch { throw .cache(error) }
    }
    let name = Self.keyName(for: target, expiry: expiry)
    do throws(KeyringError) {
      try keyring.store(password, name: name, timeout: .seconds(seconds))
      switch refreshToken {
      case .some(let token):
        do throws(KeyringError) {
          try keyring.store(token, name: name, timeout: .seconds(seconds))
        } catch {
          _ = try? keyring.remove(name: name)
          throw error
        }
      case .none:
        break
      }
    } catch {
      throw .cache(error)
    }
    return .stored(seconds: seconds)
  }

  /// Removes the cached credentials that `target` asks for; with `password`,
  /// only those whose password it is (compared in constant time), so that a
  /// credential cached again meanwhile stays.
  ///
  /// - Returns: how many were removed.
  @discardableResult
  package func erase(
    _ target: CredentialTarget, password: borrowing SecureBuffer?
  ) throws(CredentialError) -> Int {
    var removed = 0
    for name in try names(matching: target) {
      do throws(KeyringError) {
        switch password {
        case .some(let password):
          guard let entries = try keyring.readAll(name: name, storage: storage), !entries.isEmpty
          else { continue }
          let same = entries.withEntry(at: 0) { password.constantTimeEquals(bytes: $0) }
          if !same { continue }
        case .none:
          break
        }
        if try keyring.remove(name: name) { removed += 1 }
      } catch {
        throw .cache(error)
      }
    }
    return removed
  }
}

/// A credential read from the cache: what it is for, and the password (and
/// refresh token) in secure memory.
package struct CachedCredential: ~Copyable {
  /// What it is for; its user name is set.
  package let target: CredentialTarget
  /// When git said the password stops being good.
  package let expiry: Int64?
  /// The password, then the OAuth refresh token when one was cached.
  package let entries: KeyringEntries
}

extension CredentialError {
  static func cache(_ error: KeyringError) -> Self {
    Self(.cacheFailed, error.description)
  }
}
