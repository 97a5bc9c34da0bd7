public import Synchronization

/// Many secrets by name, for one process to keep and check: API tokens per
/// client, passwords per account, a vault's entries once it is opened.
///
/// A `SecureBuffer` cannot go into a `Dictionary` (it is noncopyable: copying
/// it would copy the secret), so the table holds them for you, each in a slot
/// of its own ``SecureArena``. By default the secrets are sealed
/// (``SecureStorage/sealed``): a 32-byte secret rests as 56 bytes of
/// XChaCha20-Poly1305 ciphertext, tag and nonce counter, packed with the
/// others in locked memory, under a key the kernel keeps even from root; a
/// read or a compare decrypts into the calling thread's scratch, with no
/// system call. Insert moves or copies a secret in, remove wipes it at once,
/// and a secret is read only inside a window (``withSecret(for:_:)``) or
/// compared in constant time (``constantTimeEquals(_:for:)``), never handed
/// out as ordinary bytes.
///
/// ```swift
/// let tokens = try SecretTable<String>(name: "tokens")
/// try tokens.insert(copying: issuedToken, for: "client-7")
/// if try tokens.constantTimeEquals(presented, for: "client-7") == true { serve() }
/// tokens.removeSecret(for: "client-7")  // wiped now
/// ```
///
/// Thread-safe: any thread may insert, remove, read and compare. The names
/// are spread over 64 shards by their hash, each with its own lock, held for
/// the whole of a call on one of its names, the window included, so a secret
/// is never wiped under a reader. Sealed windows change no page protection,
/// so calls on names of different shards run in parallel. A table of guarded
/// storage (``SecureStorage/sodium``, ``SecureStorage/secretMemory``) opens
/// each window with an `mprotect` pair, which the kernel serialises on the
/// process's memory-map lock: its compares do not scale with threads.
///
/// - Complexity: a lookup is a hash and a lock; a sealed window or compare
///   costs one decryption of the secret (about 0.4 µs for 32 bytes), a
///   guarded one a protection pair on the secret's page (see
///   ``SecureArena``); a compare against bytes the caller holds in a window
///   (``constantTimeEquals(bytes:for:)``) opens nothing else.
public final class SecretTable<Key: Hashable & Sendable>: Sendable {
  /// The arena the secrets live in.
  public let arena: SecureArena
  @usableFromInline let shards: [Shard]

  /// One secret, boxed so that a `Dictionary` can refer to it.
  @usableFromInline final class Entry: @unchecked Sendable {
    /// Never changed once boxed (an insert boxes a new one): a `let`, so
    /// reading it costs no exclusivity check.
    @usableFromInline let secret: SecureBuffer
    init(_ secret: consuming SecureBuffer) { self.secret = secret }
  }

  /// What a shard keeps under a name: the entry, owned by the table (one
  /// retain, given back when the name goes), and for a sealed secret where
  /// its ciphertext rests and how long it is, so that a compare reaches the
  /// ciphertext without a trip through the entry's object (and its
  /// reference count, a write to one more cache line).
  @usableFromInline struct Stored: @unchecked Sendable {
    @usableFromInline let entry: Unmanaged<Entry>
    @usableFromInline let sealed: SealedSlot?
    @usableFromInline let count: Int
  }

  /// The names whose hash falls on one shard, under its own lock, padded so
  /// that two shards' locks never share a cache line.
  @usableFromInline final class Shard: Sendable {
    @usableFromInline let entries = Mutex<[Key: Stored]>([:])
    private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
      0, 0, 0, 0, 0, 0, 0, 0
    )
  }

  @usableFromInline static var shardCount: Int { 64 }

  /// An empty table whose secrets live in a new arena of `storage` (see
  /// ``SecureArena/init(name:storage:)``).
  ///
  /// - Parameters:
  ///   - name: names the table's arena in the messages of its traps.
  ///   - storage: how the secrets rest. The default,
  ///     ``SecureStorage/sealed``, reads and compares without a system call
  ///     and gives a root scan ciphertext only; see <doc:TwoWaysASecretRests>
  ///     for what each storage stops.
  /// - Throws: ``SecureMemoryError`` when libsodium cannot be initialised,
  ///   or the sealing key cannot be made.
  public init(
    name: String = "SecretTable", storage: SecureStorage = .sealed
  ) throws(SecureMemoryError) {
    arena = try SecureArena(name: name, storage: storage)
    shards = (0..<Self.shardCount).map { _ in Shard() }
  }

  deinit {
    for shard in shards {
      for stored in shard.entries.withLock({ Array($0.values) }) { stored.entry.release() }
    }
  }

  /// The shard that holds `key`.
  @inlinable func shard(for key: Key) -> Shard {
    shards[key.hashValue & (Self.shardCount - 1)]
  }

  /// How many secrets the table holds.
  public var count: Int { shards.reduce(0) { sum, shard in sum + shard.entries.withLock(\.count) } }

  /// The names of the secrets, in no particular order.
  public var keys: [Key] { shards.flatMap { shard in shard.entries.withLock { Array($0.keys) } } }

  /// True when a secret is held for `key`.
  @inlinable public func contains(_ key: Key) -> Bool {
    shard(for: key).entries.withLock { $0[key] != nil }
  }
}
