import Foundation
import Glibc

/// A PipeWire daemon of a test's own, in a runtime directory of its own
/// under `/tmp` (never the machine's `XDG_RUNTIME_DIR`), with the modules a
/// stand-in stream needs and nothing else: no session manager, no device,
/// no D-Bus. Ended and removed when the value is released.
///
/// Tests reach it by its socket's path (``socketPath``), as
/// `PIPEWIRE_REMOTE` or a registry's remote, so that nothing else in the
/// test process changes.
public final class PrivatePipeWire {
  /// The programs it runs: the daemon, and `pw-cli` for the stand-ins and
  /// the listings (Debian's `pipewire` and `pipewire-bin`).
  public static let programs = ["pipewire", "pw-cli"]

  /// Whether the daemon, `pw-cli` and SPA's video test source are installed.
  public static var isAvailable: Bool {
    programs.allSatisfy { programPath($0) != nil }
      && ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
        .contains {
          FileManager.default.fileExists(
            atPath: $0 + "/spa-0.2/videotestsrc/libspa-videotestsrc.so")
        }
  }

  /// The runtime directory: its socket is `pipewire-0` there.
  public let runtimeDirectory: String
  private var daemon: TestProcess

  /// The daemon's socket.
  public var socketPath: String { runtimeDirectory + "/pipewire-0" }

  /// Starts the daemon and waits (up to 60 s) until `pw-cli` gets an answer
  /// from it.
  public init() throws {
    runtimeDirectory = try makeTemporaryDirectory(prefix: "sf-pw-")
    do {
      try Self.configuration.write(
        toFile: runtimeDirectory + "/daemon.conf", atomically: true, encoding: .utf8)
      daemon = try Self.startDaemon(in: runtimeDirectory)
    } catch {
      try? FileManager.default.removeItem(atPath: runtimeDirectory)
      throw error
    }
  }

  /// Ends the daemon, as a crash or a logout would, and starts another on
  /// the same socket. Every client's connection breaks.
  public func restart() throws {
    try daemon.end()
    daemon = try Self.startDaemon(in: runtimeDirectory)
  }

  /// A daemon with the modules a stand-in needs: the protocol, permissions
  /// for its clients, client nodes, and the factories of the stand-ins.
  private static let configuration = """
    context.properties = {
      core.daemon = true
      core.name = pipewire-0
      log.level = 0
    }
    context.spa-libs = {
      support.* = support/libspa-support
    }
    context.modules = [
      { name = libpipewire-module-protocol-native }
      { name = libpipewire-module-access }
      { name = libpipewire-module-client-node }
      { name = libpipewire-module-adapter }
      { name = libpipewire-module-spa-node-factory }
    ]
    """

  /// Starts `pipewire` in `directory` and waits (up to 60 s) until `pw-cli`
  /// gets an answer from it.
  private static func startDaemon(in directory: String) throws -> TestProcess {
    let daemon = try program(
      ["pipewire", "-c", directory + "/daemon.conf"], in: directory, log: "daemon.log")
    let deadline = ContinuousClock.now + .seconds(60)
    while try runListing("Core", in: directory).status != 0 {
      guard daemon.isRunning, ContinuousClock.now < deadline else {
        _ = try? daemon.end()
        let log = try? String(contentsOfFile: directory + "/daemon.log", encoding: .utf8)
        throw PipeWireTestError("the private PipeWire daemon did not start: \(log ?? "")")
      }
      usleep(50_000)
    }
    return daemon
  }

  deinit {
    _ = try? daemon.end()
    try? FileManager.default.removeItem(atPath: runtimeDirectory)
  }

  /// Starts `stream` in a `pw-cli` of its own (`pw-cli -m create-node`), and
  /// returns once the daemon lists its node. The node lives as long as that
  /// client: ``StandInStreamProgram/end()`` removes it.
  public func start(_ stream: StandInStream) throws -> StandInStreamProgram {
    let program = try Self.program(
      ["pw-cli", "-r", socketPath, "-m", "create-node", stream.factory, stream.propertyText],
      in: runtimeDirectory, log: "\(stream.description).log")
    let deadline = ContinuousClock.now + .seconds(60)
    while true {
      if let node = try nodes().first(where: {
        $0.properties["node.description"] == stream.description
      }) {
        return StandInStreamProgram(program: program, nodeID: node.id, daemon: self)
      }
      guard program.isRunning, ContinuousClock.now < deadline else {
        _ = try? program.end()
        let log = try? String(
          contentsOfFile: runtimeDirectory + "/\(stream.description).log", encoding: .utf8)
        throw PipeWireTestError("the stand-in \(stream.description) was not listed: \(log ?? "")")
      }
      usleep(20_000)
    }
  }

  /// The nodes the daemon lists (`pw-cli ls Node`), with the properties the
  /// registry shows.
  public func nodes() throws -> [ListedPipeWireNode] {
    let listing = try Self.runListing("Node", in: runtimeDirectory)
    guard listing.status == 0 else {
      throw PipeWireTestError("pw-cli ls Node failed (\(listing.status)): \(listing.output)")
    }
    var nodes: [ListedPipeWireNode] = []
    for line in listing.output.split(separator: "\n") {
      let text = line.trimmingCharacters(in: .whitespaces)
      if text.hasPrefix("id "), let comma = text.firstIndex(of: ",") {
        let id = UInt32(text[text.index(text.startIndex, offsetBy: 3)..<comma]) ?? 0
        nodes.append(ListedPipeWireNode(id: id, properties: [:]))
      } else if let equals = text.range(of: " = "), !nodes.isEmpty {
        let key = String(text[..<equals.lowerBound])
        let value = text[equals.upperBound...].trimmingCharacters(
          in: CharacterSet(charactersIn: "\""))
        nodes[nodes.count - 1].properties[key] = value
      }
    }
    return nodes
  }

  /// `pw-cli -r SOCKET ls KIND` for the daemon in `directory`, run to its end.
  private static func runListing(
    _ kind: String, in directory: String
  ) throws -> (status: Int32, output: String) {
    let run = try runProgram(
      ["pw-cli", "-r", directory + "/pipewire-0", "ls", kind], environment: environment(directory))
    return (run.status, run.output)
  }

  /// Starts `arguments` for the daemon in `directory`, its output and errors
  /// to the file `log` there.
  private static func program(_ arguments: [String], in directory: String, log: String) throws
    -> TestProcess
  {
    guard programPath(arguments[0]) != nil else {
      throw PipeWireTestError("\(arguments[0]) is not installed")
    }
    return try TestProcess(
      arguments, environment: environment(directory),
      standardOutput: .file(directory + "/" + log), standardError: .standardOutput)
  }

  /// The environment of the daemon and of its `pw-cli`s: the private runtime
  /// directory, and no `PIPEWIRE_REMOTE`, which would win over `-r`.
  private static func environment(_ directory: String) -> TestProcess.Environment {
    .changed([
      "XDG_RUNTIME_DIR": directory, "PIPEWIRE_RUNTIME_DIR": directory, "PIPEWIRE_REMOTE": nil,
    ])
  }

  static func programPath(_ program: String) -> String? { TestProcess.path(of: program) }
}

/// A node a stand-in makes: its factory and the properties it carries.
public struct StandInStream: Sendable {
  /// The factory that makes the node in the daemon.
  public var factory: String
  /// The node's properties, beside its `node.description`.
  public var properties: [String: String]
  /// The node's `node.description`, unique to the stand-in, by which the
  /// test finds it in the listing.
  public var description: String

  /// A stream as xdg-desktop-portal-wlr makes for a screencast: a
  /// `Video/Source` named after the portal (`node.name`, which PipeWire takes
  /// from the program's name), its stream called `xdpw-stream-` and six
  /// random characters, giving frames (SPA's video test source).
  public static func portalScreencast() -> StandInStream {
    let suffix = String(
      (0..<6).map { _ in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ".randomElement()! })
    return StandInStream(
      factory: "spa-node-factory",
      properties: [
        "factory.name": "videotestsrc", "library.name": "videotestsrc/libspa-videotestsrc",
        "node.name": "xdg-desktop-portal-wlr", "media.name": "xdpw-stream-" + suffix,
        "media.class": "Video/Source",
      ],
      description: uniqueDescription("screencast"))
  }

  /// The control: an audio stream with the portal's names, so that only
  /// its class (`Stream/Output/Audio`) tells it from a screencast.
  public static func audioStream() -> StandInStream {
    StandInStream(
      factory: "adapter",
      properties: [
        "factory.name": "support.null-audio-sink", "node.name": "xdg-desktop-portal-wlr",
        "media.name": "xdpw-stream-audio", "media.class": "Stream/Output/Audio",
      ],
      description: uniqueDescription("audio"))
  }

  /// The control: a camera, a `Video/Source` like a portal's stream, made
  /// from a device and named after it.
  public static func camera() -> StandInStream {
    StandInStream(
      factory: "spa-node-factory",
      properties: [
        "factory.name": "videotestsrc", "library.name": "videotestsrc/libspa-videotestsrc",
        "node.name": "v4l2_input.pci-0000_00_14.0-usb-0_1_1.0", "media.class": "Video/Source",
      ],
      description: uniqueDescription("camera"))
  }

  private static func uniqueDescription(_ kind: String) -> String {
    "secretfield-stand-in-\(kind)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// The properties as `pw-cli` reads them: `{ key=value ... }`.
  var propertyText: String {
    let pairs = properties.merging(["node.description": description]) { first, _ in first }
      .sorted { $0.key < $1.key }
      .map { "\($0.key)=\($0.value)" }
    return "{ " + pairs.joined(separator: " ") + " }"
  }
}

/// A node as `pw-cli ls Node` lists it.
public struct ListedPipeWireNode: Sendable {
  /// The node's id.
  public var id: UInt32
  /// Its properties, as the registry shows them.
  public var properties: [String: String]
}

/// The `pw-cli` that holds a stand-in's node; the node goes when it ends.
public final class StandInStreamProgram {
  private let program: TestProcess
  private let daemon: PrivatePipeWire
  /// The node's id in the daemon's registry.
  public let nodeID: UInt32

  init(program: TestProcess, nodeID: UInt32, daemon: PrivatePipeWire) {
    self.program = program
    self.nodeID = nodeID
    self.daemon = daemon
  }

  deinit { _ = try? program.end() }

  /// Ends the client, and returns once the daemon no longer lists the node
  /// (up to 60 s).
  public func end() throws {
    try program.end()
    let deadline = ContinuousClock.now + .seconds(60)
    while try daemon.nodes().contains(where: { $0.id == nodeID }) {
      guard ContinuousClock.now < deadline else {
        throw PipeWireTestError("node \(nodeID) was still listed 60 s after its client ended")
      }
      usleep(20_000)
    }
  }
}

struct PipeWireTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
