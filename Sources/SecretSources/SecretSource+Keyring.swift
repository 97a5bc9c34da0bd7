public import SecureMemory

extension SecretSource {
  /// The first passphrase cached under `name`, read by `KernelKeyring`
  /// straight into secure memory; an empty one or one over `limit` is wiped
  /// and refused, as every other source refuses them.
  static func readKeyring(
    _ name: String, limit: Int, storage: SecureStorage
  ) throws(SecretSourceError) -> SecureBuffer {
    let what = "the passphrase cached under '\(name)' in the kernel keyring"
    let cached: SecureBuffer?
    do {
      cached = try KernelKeyring().read(name: name, storage: storage)
    } catch {
      throw error.code == .secureMemoryUnavailable
        ? SecretSourceError(.secureMemoryFailed, errno: error.errno, error.description)
        : SecretSourceError(.readFailed, errno: error.errno, error.description)
    }
    guard var secret = consume cached else {
      throw SecretSourceError(.notSet, "nothing is cached under '\(name)' in the kernel keyring")
    }
    if secret.count > limit {
      secret.removeAll()
      throw .tooLong(what, limit: limit)
    }
    if secret.isEmpty { throw .empty(what) }
    return secret
  }

  /// Obtains the secret from this source, as ``obtain(maximumByteCount:lineTimeout:storage:reportingWarnings:)``
  /// does, and caches it in the kernel keyring under `name` for `timeout`
  /// (added after what is cached there already, as `systemd-ask-password
  /// --keyname` adds), so that a ``keyring(name:)`` source has it next time:
  ///
  /// ```swift
  /// let passphrase = try SecretSource.firstAvailable([
  ///   .keyring(name: "backup"), .terminal(PromptConfiguration(prompt: "Backup passphrase:")),
  /// ]).obtain(cachingUnder: "backup")
  /// ```
  ///
  /// The cache is a convenience: when the keyring cannot be reached or
  /// refuses the key, the secret is returned all the same and `report` gets a
  /// ``SecretSourceWarning`` with code ``SecretSourceWarning/Code/notCached``.
  /// A secret that came from the same key is not stored again.
  ///
  /// - Throws: ``SecretSourceError``, as `obtain` throws.
  public func obtain(
    cachingUnder name: String, timeout: Duration = KernelKeyring.defaultTimeout,
    reportingWarnings report: (SecretSourceWarning) -> Void = { _ in }
  ) throws(SecretSourceError) -> SecureBuffer {
    let secret = try obtain(reportingWarnings: report)
    if self == .keyring(name: name) { return secret }
    do {
      try KernelKeyring().store(secret, name: name, timeout: timeout)
    } catch {
      report(.notCached(name: name, because: error.description))
    }
    return secret
  }
}
