/// The package's version, as every tool's `--version` prints it: the one
/// place it is written (`Scripts/package` reads it from the built tools, and
/// the changelog and the man pages must agree with it).
package enum ToolVersion {
  /// `0.1.0`.
  package static let current = "0.1.0"
}
