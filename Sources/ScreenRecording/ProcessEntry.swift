/// What the recording detector reads about one process: its parent, its name
/// and its command line, as `/proc/PID/stat` and `/proc/PID/cmdline` give them.
package struct ProcessEntry: Sendable, Hashable {
  /// The parent's process ID; 0 for the first process of a PID namespace.
  package var parentID: Int32
  /// The kernel's name for the process (`comm`): the executable's file name, or
  /// a script's when it was started through `#!`, cut to 15 bytes.
  package var name: String
  /// The command line (`argv`); empty for a zombie or a kernel thread, or when
  /// it cannot be read.
  package var arguments: [String]

  /// An entry from its parts.
  package init(parentID: Int32, name: String, arguments: [String] = []) {
    self.parentID = parentID
    self.name = name
    self.arguments = arguments
  }
}
