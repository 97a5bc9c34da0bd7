import Synchronization

/// Many secrets by name, for one process to keep and check: API tokens per
/// client, passwords per account, a vault's entries once it is opened.
///
/// A `SecureBuffer` cannot go into a `Dictionary` (it is noncopyable: copying
/// it would copy the secret), so the table holds them for you, each in a slot
/// of its own ``SecureArena`` (a 32-byte secret in 48 bytes of a locked,
/// guarded slab; secret memory where the kernel offers it). Insert moves or
/// copies a secret in, remove wipes it at once, and a secret is read only
/// inside a window (``withSecret(for:_:)``) or compared in constant time
/// (``constantTimeEquals(_:for:)``), never handed out as ordinary bytes.
///
/// ```swift
/// let tokens = try SecretTable<String>(name: "tokens")
/// try tokens.insert(copying: issuedToken, for: "client-7")
/// if tokens.constantTimeEquals(presented, for: "client-7") == true { serve() }
/// tokens.removeSecret(for: "client-7")  // wiped now
/// ```
///
/// Thread-safe: any thread may insert, remove, read and compare. Each call
/// holds the table's lock for its whole length, the window included, so a
/// secret is never wiped under a reader and the windows of different threads
/// never change page protections at the same time: the kernel serialises
/// every `mprotect` of a process anyway (on its memory map's lock), and
/// threads that race for it there, rather than here, run slower together
/// than one thread alone.
///
/// - Complexity: a lookup is a hash and a lock; a window or a compare costs
///   one protection pair on the secret's page (see ``SecureArena``); a
///   compare against bytes the caller holds in a window
///   (``constantTimeEquals(bytes:for:)``) opens nothing else.
public final class SecretTable<Key: Hashable & Sendable>: Sendable {
  /// The arena the secrets live in.
  public let arena: SecureArena
  let entries: Mutex<[Key: Entry]>

  /// One secret, boxed so a `Dictionary` can hold it; only ever touched under
  /// the table's lock.
  final class Entry: @unchecked Sendable {
    var secret: SecureBuffer
    init(_ secret: consuming SecureBuffer) { self.secret = secret }
  }

  /// An empty table whose secrets live in a new arena of `storage` (see
  /// ``SecureArena/init(name:storage:)``).
  ///
  /// - Throws: ``SecureMemoryError`` when libsodium cannot be initialised.
  public init(
    name: String = "SecretTable", storage: SecureStorage = .strongestAvailable
  ) throws(SecureMemoryError) {
    arena = try SecureArena(name: name, storage: storage)
    entries = Mutex([:])
  }

  /// How many secrets the table holds.
  public var count: Int { entries.withLock { $0.count } }

  /// The names of the secrets, in no particular order.
  public var keys: [Key] { entries.withLock { Array($0.keys) } }

  /// True when a secret is held for `key`.
  public func contains(_ key: Key) -> Bool { entries.withLock { $0[key] != nil } }
}
