import Glibc

/// Passphrases cached in the kernel's key retention service, in the calling
/// user's keyring, the way `systemd-ask-password --keyname=NAME` caches them:
/// either program reads what the other stored.
///
/// The payload lives in kernel memory: never in a process (this one included,
/// once ``store(_:name:timeout:)`` returns), never swapped, gone at the
/// timeout. It goes from a `SecureBuffer`'s read window to `add_key(2)`, and
/// from `KEYCTL_READ` straight into a `SecureBuffer`'s write window; the list
/// a new passphrase is appended to is built in another `SecureBuffer`.
///
/// What systemd's `ask-password` does, and this does too (from
/// `src/shared/ask-password-api.c`, v252):
/// - a key of type `user` in `KEY_SPEC_USER_KEYRING`, named as given;
/// - its payload the passphrases joined by NUL bytes; a new one is added after
///   those already there (one that is already there is not added again, and
///   then nothing changes, the timeout included);
/// - `KEYCTL_SET_TIMEOUT` after each `add_key`, 150 seconds by default;
/// - `EPERM` and `ENOSYS` mean the keyring is out of reach (systemd takes
///   them as "no key"; here they are `KeyringError.Code.unreachable`, for a
///   caller to say so and go on).
///
/// Unlike systemd (whose `request_key` searches the session keyring, which a
/// service's fresh session keyring does not link to the user keyring), lookups
/// are `KEYCTL_SEARCH` in the user keyring itself. And unlike systemd, which
/// leaves the kernel's default (only the possessor may read), a key created here
/// gets ``permissions``: the possessor and processes of the same user may view,
/// read, write, search and set its attributes; the group and others nothing. A
/// key that another program created (`systemd-ask-password --keyname`, with
/// the kernel's default `0x3f010000`) keeps the permissions it has when a
/// passphrase is added to it: `add_key` updates it in place, and its mask is
/// never widened.
///
/// Who can read it: every process of the same user, until the timeout. That is
/// the trade-off of the cache, systemd's as well: ask once, and the user's
/// other programs can have it for a while.
///
/// Two processes that add under one name at the same moment can lose one
/// passphrase (read, append, write back), as with systemd.
public struct KernelKeyring: Sendable {
  /// How long a stored passphrase stays: 150 seconds, systemd's
  /// `KEYRING_TIMEOUT_USEC`.
  public static let defaultTimeout = Duration.seconds(150)

  /// The most bytes the passphrases under one name may take, NUL separators
  /// included: the kernel's limit for a key of type `user`.
  public static let payloadLimit = Kernel.Keyring.userPayloadLimit

  /// The permissions every key stored here gets (`KEYCTL_SETPERM`): view,
  /// read, write, search and setattr for the possessor and for the user; no
  /// link, and nothing for the group or others. Search must be granted, or
  /// neither `KEYCTL_SEARCH` nor systemd's `request_key` finds the key, and
  /// `KEYCTL_INVALIDATE` needs it too. The bits are `KEY_POS_*` (`<< 24`) and
  /// `KEY_USR_*` (`<< 16`) of keyctl(2): view 0x01, read 0x02, write 0x04,
  /// search 0x08, setattr 0x20.
  public static let permissions: UInt32 = 0x2f2f_0000

  /// The calling user's keyring (`KEY_SPEC_USER_KEYRING`).
  public init() {}

  /// Adds `secret` to the passphrases cached under `name`, and sets the key to
  /// expire `timeout` from now.
  ///
  /// Reads what is cached first (into secure memory), builds the new list in
  /// another `SecureBuffer` (the old one, a NUL, `secret`), hands it to
  /// `add_key` from a read window, then sets the timeout, and ``permissions``
  /// on a key it created (a key that was there keeps its own).
  /// When `secret` is already in the list, nothing changes. When the
  /// permissions or the timeout cannot be set, the key is invalidated, so no
  /// passphrase stays longer or wider than asked.
  ///
  /// - Parameters:
  ///   - secret: the passphrase to add; neither empty nor holding a NUL byte.
  ///   - name: the key's description, as `systemd-ask-password --keyname` takes it.
  ///   - timeout: rounded up to whole seconds.
  /// - Precondition: `timeout` is above zero.
  /// - Throws: ``KeyringError``: `invalidName`, `invalidSecret` (empty, or a
  ///   NUL byte in it), `payloadTooLarge`, `unreachable`, `quotaExceeded`,
  ///   `accessDenied`, `secureMemoryUnavailable`.
  /// - Complexity: three to six key system calls and two secure allocations.
  public func store(
    _ secret: borrowing SecureBuffer, name: String, timeout: Duration = defaultTimeout
  ) throws(KeyringError) {
    precondition(timeout > .zero, "KernelKeyring.store: the timeout must be above zero")
    try Self.validate(name)
    if secret.isEmpty { throw .emptySecret() }
    let holdsNul = secret.withUnsafeBytes { bytes in
      firstOffsetOfSecretByte(0, in: bytes.baseAddress!, count: bytes.count) < bytes.count
    }
    if holdsNul { throw .secretWithNul() }

    var payload: SecureBuffer
    // What is cached already is read into the memory the new secret is in.
    let cached = try readEntries(name: name, storage: secret.protection.storage)
    switch consume cached {
    case .some(let existing):
      if existing.contains(secret) { return }
      payload = try existing.payload.withUnsafeBytes { bytes throws(KeyringError) in
        try Self.list(bytes, adding: secret, name: name)
      }
    case .none:
      payload = try Self.list(nil, adding: secret, name: name)
    }

    // The key add_key updates in place, when there is one in the user
    // keyring: its permissions are its owner's choice, and stay.
    let updated = try? Kernel.Keyring.search(name).get()
    let added = payload.withUnsafeBytes { Kernel.Keyring.add(name, payload: $0) }
    guard case .success(let serial) = added else {
      if case .failure(let failure) = added { throw .failed(failure, name: name) }
      return
    }
    let permissionFailure =
      serial == updated ? nil : Kernel.Keyring.setPermissions(serial, Self.permissions)
    if let failure =
      permissionFailure ?? Kernel.Keyring.setTimeout(serial, seconds: Self.wholeSeconds(timeout))
    {
      _ = Kernel.Keyring.invalidate(serial)
      throw .failed(failure, name: name)
    }
  }

  /// The first passphrase cached under `name`, in a buffer of its own, or nil
  /// when there is no such key or it expired.
  ///
  /// `KEYCTL_SEARCH` in the user keyring, the payload's size asked first, then
  /// `KEYCTL_READ` straight into the write window of a buffer of that size
  /// (again, bigger, if the key grew meanwhile); the passphrases after the
  /// first are wiped from the buffer before it is returned.
  ///
  /// - Parameters:
  ///   - name: the key's description.
  ///   - storage: which memory the buffer is in (see ``SecureStorage``);
  ///     sealed by default, for a passphrase a program may keep for hours:
  ///     a root scan reads ciphertext only.
  /// - Throws: ``KeyringError``: `unreachable`, `accessDenied`,
  ///   `secureMemoryUnavailable`, `invalidName`.
  public func read(
    name: String, storage: SecureStorage = .sealed
  ) throws(KeyringError) -> SecureBuffer? {
    guard let entries = try readEntries(name: name, storage: storage), !entries.isEmpty else {
      return nil
    }
    let firstCount = entries.ranges[0].count
    var first = entries.takePayload()
    first.removeSubrange(firstCount..<first.count)
    return first
  }

  /// Every passphrase cached under `name`, oldest first, or nil when there is
  /// no such key or it expired. Read as ``read(name:storage:)`` reads, into
  /// `storage`.
  ///
  /// - Throws: ``KeyringError``: `unreachable`, `accessDenied`,
  ///   `secureMemoryUnavailable`, `invalidName`.
  public func readAll(
    name: String, storage: SecureStorage = .sealed
  ) throws(KeyringError) -> KeyringEntries? {
    try readEntries(name: name, storage: storage)
  }

  /// True when a live key is cached under `name`; reads nothing of it (one
  /// `KEYCTL_SEARCH`).
  ///
  /// - Throws: ``KeyringError``: `unreachable`, `accessDenied`, `invalidName`.
  public func contains(name: String) throws(KeyringError) -> Bool {
    try search(name) != nil
  }

  /// Removes the key called `name` from the user keyring, and from every other
  /// keyring that links it (`KEYCTL_INVALIDATE`); the kernel wipes it.
  ///
  /// - Returns: false when there was no such key.
  /// - Throws: ``KeyringError``: `unreachable`, `accessDenied`, `invalidName`.
  @discardableResult
  public func remove(name: String) throws(KeyringError) -> Bool {
    guard let serial = try search(name) else { return false }
    if let failure = Kernel.Keyring.invalidate(serial) {
      if Self.isGone(failure.errno) { return false }
      throw .failed(failure, name: name)
    }
    return true
  }

  /// The names of the live keys of type `user` owned by this user that the
  /// user keyring links and that start with `prefix`, in the keyring's order.
  /// Reads no payload: `KEYCTL_READ` on the keyring (the serials), then
  /// `KEYCTL_DESCRIBE` on each; a key that expired, was revoked or may not be
  /// viewed is passed over.
  ///
  /// For a cache whose names are structured (`app;field=value;...`) and
  /// looked up by some of their fields, where `KEYCTL_SEARCH` needs the whole
  /// name.
  ///
  /// - Throws: ``KeyringError``: `unreachable`, `accessDenied`.
  /// - Complexity: one system call, plus one for each key the keyring links.
  package func names(startingWith prefix: String) throws(KeyringError) -> [String] {
    let serials: [Int32]
    switch Kernel.Keyring.userKeyringSerials() {
    case .success(let found): serials = found
    case .failure(let failure):
      if Self.isGone(failure.errno) { return [] }
      throw .failed(failure, name: "@u")
    }
    let user = getuid()
    var names: [String] = []
    for serial in serials {
      guard case .success(let key) = Kernel.Keyring.describe(serial),
        key.type == Kernel.Keyring.userType, key.uid == user, key.description.hasPrefix(prefix)
      else { continue }
      names.append(key.description)
    }
    return names
  }

  // MARK: Internals

  private func search(_ name: String) throws(KeyringError) -> Int? {
    try Self.validate(name)
    switch Kernel.Keyring.search(name) {
    case .success(let serial):
      return serial
    case .failure(let failure):
      if Self.isGone(failure.errno) { return nil }
      throw .failed(failure, name: name)
    }
  }

  private func readEntries(
    name: String, storage: SecureStorage
  ) throws(KeyringError) -> KeyringEntries? {
    guard let serial = try search(name) else { return nil }
    var size: Int
    switch Kernel.Keyring.read(serial, into: UnsafeMutableRawBufferPointer(start: nil, count: 0)) {
    case .success(let count): size = count
    case .failure(let failure):
      if Self.isGone(failure.errno) { return nil }
      throw .failed(failure, name: name)
    }
    while true {
      var payload: SecureBuffer
      do {
        payload = try SecureBuffer(capacity: size, storage: storage)
      } catch {
        throw .secureMemory(error)
      }
      var available = 0
      do {
        try payload.append(count: size) { window throws(ReadAttempt) in
          switch Kernel.Keyring.read(serial, into: window) {
          case .success(let count): available = count
          case .failure(let failure): throw .failed(failure)
          }
          // The key grew since its size was asked: what the window holds is
          // undefined, and wiped when this throws.
          if available > size { throw .keyGrew }
        }
      } catch {
        switch error {
        case .memory(let memory): throw .secureMemory(memory)
        case .body(.keyGrew):
          size = available
          continue
        case .body(.failed(let failure)):
          if Self.isGone(failure.errno) { return nil }
          throw .failed(failure, name: name)
        }
      }
      if available < size { payload.removeSubrange(available..<size) }
      return KeyringEntries(parsing: payload)
    }
  }

  /// A new buffer holding `existing` (the bytes in a read window of the cached
  /// list), a NUL and `secret`, or `secret` alone; copied window to window.
  private static func list(
    _ existing: UnsafeRawBufferPointer?, adding secret: borrowing SecureBuffer, name: String
  ) throws(KeyringError) -> SecureBuffer {
    let total = (existing.map { $0.count + 1 } ?? 0) + secret.count
    if total > payloadLimit { throw .payloadTooLarge(name: name, count: total) }
    do throws(SecureMemoryError) {
      var payload = try SecureBuffer(
        capacity: total, locking: secret.lockPolicy, storage: secret.protection.storage)
      if let existing {
        try payload.append(existing)
        try withUnsafeBytes(of: UInt8(0)) { nul throws(SecureMemoryError) in
          try payload.append(nul)
        }
      }
      try secret.withUnsafeBytes { bytes throws(SecureMemoryError) in try payload.append(bytes) }
      return payload
    } catch {
      throw .secureMemory(error)
    }
  }

  /// Why one `KEYCTL_READ` into a window did not fill it.
  private enum ReadAttempt: Error {
    case failed(Kernel.Keyring.Failure)
    case keyGrew
  }

  /// No key, or a dead one: expired, revoked, invalidated meanwhile.
  private static func isGone(_ errno: Int32) -> Bool {
    errno == ENOKEY || errno == EKEYEXPIRED || errno == EKEYREVOKED
  }

  private static func validate(_ name: String) throws(KeyringError) {
    let bytes = name.utf8
    guard !bytes.isEmpty, bytes.count <= Kernel.Keyring.descriptionLimit, !bytes.contains(0)
    else { throw .invalidName(name) }
  }

  private static func wholeSeconds(_ timeout: Duration) -> UInt32 {
    let (seconds, attoseconds) = timeout.components
    return UInt32(clamping: seconds + (attoseconds > 0 ? 1 : 0))
  }
}
