import CPipeWire
import Glibc
import SystemCalls

/// PipeWire's registry of this session, read by a client of its own with
/// libpipewire loaded at run time (`dlopen`), so that the window needs
/// PipeWire neither to build nor to start: where the library or the daemon
/// is missing, ``read()`` says so and nothing else changes.
///
/// The client connects to the daemon `PIPEWIRE_REMOTE` names in
/// `PIPEWIRE_RUNTIME_DIR` or `XDG_RUNTIME_DIR` (`pipewire-0`), with no
/// configuration file (nothing from `~/.config/pipewire` is loaded into the
/// process) and the native protocol alone. It keeps the connection, so the
/// daemon tells it each global that comes or goes; a read dispatches what
/// arrived since the last one, on the calling thread. libpipewire starts one
/// thread of its own (the context's data loop), which stays idle.
///
/// Reading the registry is what the desktop portal's own clients do; it
/// touches nothing and binds no object. A daemon that restarts is connected
/// to again at the next read.
package final class PipeWireRegistry: PipeWireRegistryReader {
  /// libpipewire's name as PipeWire 0.3 and 1.x install it.
  package static let defaultLibrary = "libpipewire-0.3.so.0"

  /// The library loaded at the first read.
  package let library: String
  /// The daemon to read: a socket's path, or a name in `XDG_RUNTIME_DIR`;
  /// nil for the session's (`pipewire-0`). `PIPEWIRE_REMOTE`, when set, wins.
  package let remote: String?
  /// How long a connection's first read waits for the daemon to list what it
  /// has. It answers in a few milliseconds; the limit only bounds a hung one.
  package let answerLimit: Duration

  private var client: OpaquePointer?
  private var isConnected = false
  /// Why no client could be made; such a registry is never read.
  private var failure: String?
  private var globals: [UInt32: PipeWireGlobal] = [:]

  /// A registry of `remote` that loads `library` and connects at its first
  /// read.
  package init(
    remote: String? = nil, library: String = defaultLibrary, answerLimit: Duration = .seconds(1)
  ) {
    self.remote = remote
    self.library = library
    self.answerLimit = answerLimit
  }

  deinit {
    if let client { secretfield_pipewire_client_free(client) }
  }

  /// The nodes and clients the daemon lists now.
  ///
  /// - Complexity: the first read loads libpipewire (once per process),
  ///   makes a client and waits for the daemon's list, at most
  ///   ``answerLimit``: about 0.5 ms once the library is loaded
  ///   (`screencast_first_look` in the benchmarks), 4 to 11 ms in all for the
  ///   process's first. A later read dispatches what the daemon sent since,
  ///   without waiting, and copies the n nodes and clients kept: O(n). With
  ///   no daemon, a read tries to connect again: one failed `connect(2)`,
  ///   about 50 µs.
  package func read() -> PipeWireRegistryState {
    guard let client = madeClient() else {
      return .unavailable(reason: failure ?? "no PipeWire client")
    }
    if isConnected {
      let status = secretfield_pipewire_dispatch(client, 0)
      if status == 1 { return .listed(Array(globals.values)) }
      if status == 0 { return .unavailable(reason: "PipeWire's daemon has not listed its objects") }
      disconnect(client)
    }
    return connect(client)
  }

  /// The client, made at the first call; nil when the library or the client
  /// could not be had (``failure`` says why).
  private func madeClient() -> OpaquePointer? {
    if let client { return client }
    guard failure == nil else { return nil }
    var message = [CChar](repeating: 0, count: 256)
    guard secretfield_pipewire_load(library, &message, message.count) == 0 else {
      let reason = String(decoding: message.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
      failure = "libpipewire could not be loaded (\(reason))"
      return nil
    }
    var events = secretfield_pipewire_events(
      global: { context, id, type, properties, count in
        guard let context, let type else { return }
        let registry = Unmanaged<PipeWireRegistry>.fromOpaque(context).takeUnretainedValue()
        registry.announce(
          id: id, type: String(cString: type),
          properties: UnsafeBufferPointer(start: properties, count: Int(count)))
      },
      global_removed: { context, id in
        guard let context else { return }
        Unmanaged<PipeWireRegistry>.fromOpaque(context).takeUnretainedValue().globals[id] = nil
      })
    guard
      let made = secretfield_pipewire_client_new(
        &events, Unmanaged.passUnretained(self).toOpaque())
    else {
      failure = "a PipeWire client could not be made (\(Errno.current))"
      return nil
    }
    client = made
    return made
  }

  /// Connects, and waits up to ``answerLimit`` for the daemon's list.
  private func connect(_ client: OpaquePointer) -> PipeWireRegistryState {
    let status = secretfield_pipewire_connect(client, remote)
    guard status == 0 else {
      return .unavailable(
        reason: status == -EHOSTDOWN
          ? "no PipeWire daemon runs in this session"
          : "PipeWire's daemon could not be reached (\(Errno(-status)))")
    }
    isConnected = true
    let clock = ContinuousClock()
    let deadline = clock.now + answerLimit
    while true {
      let (seconds, attoseconds) = (deadline - clock.now).components
      let milliseconds = max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
      let status = secretfield_pipewire_dispatch(client, Int32(clamping: milliseconds))
      if status == 1 { return .listed(Array(globals.values)) }
      if status < 0 {
        disconnect(client)
        return .unavailable(reason: "PipeWire's daemon closed the connection")
      }
      if clock.now >= deadline {
        return .unavailable(
          reason: "PipeWire's daemon did not list its objects within \(answerLimit)")
      }
    }
  }

  private func disconnect(_ client: OpaquePointer) {
    secretfield_pipewire_disconnect(client)
    isConnected = false
    globals = [:]
  }

  /// Keeps a node or a client the registry announced; the other globals
  /// (ports, links, modules, ...) say nothing about screencasts.
  private func announce(
    id: UInt32, type: String, properties: UnsafeBufferPointer<secretfield_pipewire_property>
  ) {
    let prefix = "PipeWire:Interface:"
    let kind = type.hasPrefix(prefix) ? String(type.dropFirst(prefix.count)) : type
    guard kind == PipeWireGlobal.node || kind == PipeWireGlobal.client else { return }
    var values: [String: String] = [:]
    for property in properties {
      guard let key = property.key, let value = property.value else { continue }
      values[String(cString: key)] = String(cString: value)
    }
    globals[id] = PipeWireGlobal(id: id, type: kind, properties: values)
  }
}
