import Glibc
import ScreenRecording

/// A PipeWire daemon the screencast benchmarks start in a runtime directory
/// of their own, with a stand-in portal stream, an audio stream and a camera
/// in its registry; ended and removed when released.
final class PipeWireDaemon {
  let directory: String
  private var processes: [pid_t] = []

  var socketPath: String { directory + "/pipewire-0" }

  /// The daemon with its three nodes, or nil (after a line on standard
  /// error) when `pipewire`, `pw-cli` or the library is missing.
  static func start() -> PipeWireDaemon? {
    guard programPath("pipewire") != nil, programPath("pw-cli") != nil else {
      printNotice("skipped the screencast benchmarks: pipewire or pw-cli is not installed")
      return nil
    }
    var template = Array("/tmp/sf-pwb-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { return nil }
    let daemon = PipeWireDaemon(directory: String(cString: made))
    let configuration = """
      context.properties = { core.daemon = true core.name = pipewire-0 log.level = 0 }
      context.spa-libs = { support.* = support/libspa-support }
      context.modules = [
        { name = libpipewire-module-protocol-native } { name = libpipewire-module-access }
        { name = libpipewire-module-client-node } { name = libpipewire-module-adapter }
        { name = libpipewire-module-spa-node-factory }
      ]
      """
    guard daemon.write(configuration, to: daemon.directory + "/daemon.conf"),
      daemon.spawn(["pipewire", "-c", daemon.directory + "/daemon.conf"]) != nil
    else {
      printNotice("skipped the screencast benchmarks: the private PipeWire daemon did not start")
      return nil
    }
    let nodes = [
      "factory.name=videotestsrc library.name=videotestsrc/libspa-videotestsrc"
        + " node.name=xdg-desktop-portal-wlr media.name=xdpw-stream-bench1 media.class=Video/Source",
      "factory.name=support.null-audio-sink node.name=Firefox media.class=Stream/Output/Audio",
      "factory.name=videotestsrc library.name=videotestsrc/libspa-videotestsrc"
        + " node.name=v4l2_input.usb media.class=Video/Source",
    ]
    let registry = PipeWireRegistry(remote: daemon.socketPath)
    for (index, properties) in nodes.enumerated() {
      let factory = index == 1 ? "adapter" : "spa-node-factory"
      guard
        daemon.spawn(
          ["pw-cli", "-r", daemon.socketPath, "-m", "create-node", factory, "{ \(properties) }"])
          != nil
      else {
        printNotice("skipped the screencast benchmarks: pw-cli did not start")
        return nil
      }
    }
    // Ready once the registry lists the three nodes (the daemon's socket
    // comes first): 60 s at most.
    let deadline = MonotonicClock.now() + 60_000_000_000
    while MonotonicClock.now() < deadline {
      if case .listed(let globals) = registry.read(),
        globals.filter({ $0.type == PipeWireGlobal.node }).count >= nodes.count
      {
        return daemon
      }
      usleep(20_000)
    }
    printNotice("skipped the screencast benchmarks: the private PipeWire daemon did not list")
    return nil
  }

  private init(directory: String) { self.directory = directory }

  deinit {
    for process in processes.reversed() {
      kill(process, SIGTERM)
      var status: Int32 = 0
      while waitpid(process, &status, 0) < 0 && errno == EINTR {}
    }
    for name in ["daemon.conf", "pipewire-0", "pipewire-0.lock"] {
      unlink(directory + "/" + name)
    }
    rmdir(directory)
  }

  /// `pw-cli -r SOCKET ls Node`, run to its end, its listing read from a
  /// pipe: the tools' way of reading the registry. The listing's size.
  func listNodesWithTool() -> Int {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return 0 }
    guard let process = spawn(["pw-cli", "-r", socketPath, "ls", "Node"], output: ends[1]) else {
      close(ends[0])
      close(ends[1])
      return 0
    }
    close(ends[1])
    var total = 0
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
      if got < 0 && errno == EINTR { continue }
      if got <= 0 { break }
      total += got
    }
    close(ends[0])
    var status: Int32 = 0
    while waitpid(process, &status, 0) < 0 && errno == EINTR {}
    processes.removeAll { $0 == process }
    return total
  }

  /// Starts `arguments` with the private runtime directory, standard input
  /// from /dev/null, standard output to `output` (else /dev/null), and every
  /// signal at its default.
  @discardableResult
  private func spawn(_ arguments: [String], output: Int32? = nil) -> pid_t? {
    guard let program = Self.programPath(arguments[0]) else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if let output {
      posix_spawn_file_actions_adddup2(&actions, output, 1)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var environment = ["XDG_RUNTIME_DIR=" + directory, "PIPEWIRE_RUNTIME_DIR=" + directory]
    if let path = getenv("PATH") { environment.append("PATH=" + String(cString: path)) }
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var process: pid_t = 0
    guard posix_spawn(&process, program, &actions, &attributes, &argv, &envp) == 0 else {
      return nil
    }
    processes.append(process)
    return process
  }

  private func write(_ text: String, to path: String) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var text = text
    return text.withUTF8 { Glibc.write(descriptor, $0.baseAddress, $0.count) == $0.count }
  }

  private static func programPath(_ name: String) -> String? {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
  }
}
