/// One object of PipeWire's registry, with the properties the daemon shows
/// every client (a node's `node.name`, `media.class` and `client.id`, a
/// client's `application.name` and `pipewire.sec.pid`, ...).
package struct PipeWireGlobal: Sendable, Hashable {
  /// The global's id: a stream's node id, as the desktop portal hands it to
  /// the application it shares the screen with.
  package var id: UInt32
  /// The interface, without its `PipeWire:Interface:` prefix: `Node`,
  /// `Client`, `Port`, ...
  package var type: String
  /// The global's properties, as the registry announced them.
  package var properties: [String: String]

  /// A global from its parts.
  package init(id: UInt32, type: String, properties: [String: String] = [:]) {
    self.id = id
    self.type = type
    self.properties = properties
  }

  /// `Node`: a source, a sink, or a stream.
  package static let node = "Node"
  /// `Client`: a connection to the daemon, such as a program's.
  package static let client = "Client"
}
