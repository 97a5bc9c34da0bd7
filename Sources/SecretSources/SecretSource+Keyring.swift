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

  /// Obtains the secret, taking it from the kernel keyring when a passphrase
  /// cached under `name` passes `check`, and caching one obtained from this
  /// source only once it has passed `check`: a mistyped passphrase is never
  /// cached, and a cached one that fails is removed.
  ///
  /// ```swift
  /// let passphrase = try SecretSource.terminal(PromptConfiguration(prompt: "Vault passphrase:"))
  ///   .obtain(cachingUnder: "vault", verifiedBy: { candidate in try vault.unlock(with: candidate) })
  /// ```
  ///
  /// In order: each passphrase cached under `name` (oldest first, as
  /// `systemd-ask-password --accept-cached` gives them) is checked; the first
  /// that passes is returned. When none passes, the key is removed (reported
  /// as a ``SecretSourceWarning``) and this source is asked, once. Its answer
  /// is checked; when it passes it is cached for `timeout` and returned, when
  /// it fails nothing is cached and `SecretSourceError.Code.rejected` is
  /// thrown with the check's error as ``SecretSourceError/cause``: ask again by
  /// calling again. The cache is a convenience: a keyring that cannot be
  /// reached is reported as a warning and the source is asked.
  ///
  /// - Parameters:
  ///   - name: the key's name in the user's keyring.
  ///   - timeout: how long a passphrase cached now stays.
  ///   - check: returns normally to accept the secret, throws to refuse it (a
  ///     wrong passphrase). It may run more than once: on each cached
  ///     passphrase, then on the one asked for.
  ///   - report: called with each warning, before the secret is returned.
  /// - Throws: ``SecretSourceError``, as `obtain` throws, and `rejected`.
  public func obtain(
    cachingUnder name: String, timeout: Duration = KernelKeyring.defaultTimeout,
    verifiedBy check: (borrowing SecureBuffer) throws -> Void,
    reportingWarnings report: (SecretSourceWarning) -> Void = { _ in }
  ) throws(SecretSourceError) -> SecureBuffer {
    let keyring = KernelKeyring()
    var cached: KeyringEntries?
    do {
      cached = try keyring.readAll(name: name)
    } catch {
      report(.notCached(name: name, because: error.description))
    }
    if let entries = cached.take() {
      for index in 0..<entries.count {
        guard let entry = try? entries.copyEntry(at: index) else { continue }
        if (try? check(entry)) != nil { return entry }
      }
      do {
        try keyring.remove(name: name)
        report(.cacheRemoved(name: name))
      } catch {
        report(.notCached(name: name, because: error.description))
      }
    }
    let secret = try obtain(reportingWarnings: report)
    do { try check(secret) } catch {
      throw SecretSourceError(
        .rejected, "the secret did not pass the check (\(error)); nothing was cached",
        cause: error)
    }
    if self == .keyring(name: name) { return secret }
    do {
      try keyring.store(secret, name: name, timeout: timeout)
    } catch {
      report(.notCached(name: name, because: error.description))
    }
    return secret
  }

  /// Obtains the secret from this source, as ``obtain(maximumByteCount:lineTimeout:storage:reportingWarnings:)``
  /// does, and caches it in the kernel keyring under `name` for `timeout`
  /// unchecked: what the user typed is cached before anyone knows it is right,
  /// and a mistyped passphrase is handed out again until it expires. Prefer
  /// ``obtain(cachingUnder:timeout:verifiedBy:reportingWarnings:)`` when the
  /// program can check the secret; this form is for a program that only asks
  /// on another's behalf, as `systemd-ask-password --keyname` does.
  ///
  /// The passphrase is added after what is cached there already, as
  /// `systemd-ask-password --keyname` adds, so that a ``keyring(name:)``
  /// source has it next time:
  ///
  /// ```swift
  /// let passphrase = try SecretSource.firstAvailable([
  ///   .keyring(name: "backup"), .terminal(PromptConfiguration(prompt: "Backup passphrase:")),
  /// ]).obtain(cachingUncheckedUnder: "backup")
  /// ```
  ///
  /// When the keyring cannot be reached or refuses the key, the secret is
  /// returned all the same and `report` gets a ``SecretSourceWarning`` with
  /// code `SecretSourceWarning.Code.notCached`. A secret that came from the
  /// same key is not stored again.
  ///
  /// - Throws: ``SecretSourceError``, as `obtain` throws.
  public func obtain(
    cachingUncheckedUnder name: String, timeout: Duration = KernelKeyring.defaultTimeout,
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
