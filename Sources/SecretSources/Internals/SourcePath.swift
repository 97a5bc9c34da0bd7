/// The walk through a file source's path before it is opened: each symbolic
/// link on the way is checked by the rule of the kernel's
/// `fs.protected_symlinks`, whatever that setting is on this machine.
///
/// The rule: a link in a sticky folder that anyone can write (`/tmp`,
/// `/var/tmp`, `/dev/shm`) is followed only when it belongs to this process's
/// user or to the folder's owner. Anyone else's link there could point at any
/// file, one of the user's own included, and a file found so passes the owner
/// check of the file itself.
///
/// The walk reads the path with `lstat` and `readlink`, component after
/// component, as the kernel resolves it; the descriptor opened afterwards must
/// be the file the walk ended on (device and inode), so a link swapped between
/// the walk and the `open` is caught too.
enum SourcePath {
  /// Where a walk ended.
  enum Ending: Equatable {
    /// On this file.
    case file(SourceSystem.FileIdentity)
    /// On a link the kernel makes in `/proc` (`/dev/stdin`, `/dev/fd/N`,
    /// `/proc/self/...`): its text is no path to follow, and only the kernel
    /// makes links there.
    case processLink
    /// On nothing: a component is missing or cannot be read, or there are
    /// more links than the kernel follows. Opening the path says why, and a
    /// path that opens all the same changed meanwhile.
    case unresolved
  }

  /// A link the rule refuses: its path as met, and its owner.
  struct UnsafeLink: Error {
    var path: String
    var owner: UInt32
  }

  /// The most links one walk follows, as the kernel's `MAXSYMLINKS`.
  static let maximumLinkCount = 40

  /// Walks `path`, checking every link on the way.
  ///
  /// - Complexity: one `lstat` per component, and a `readlink` and an
  ///   `lstat` of its folder per link.
  static func walk(_ path: String) -> Result<Ending, UnsafeLink> {
    var resolved: [Substring] = []
    if !path.hasPrefix("/") {
      guard let directory = SourceSystem.workingDirectory() else { return .success(.unresolved) }
      resolved = components(directory)
    }
    // The components still to walk, the next one last.
    var pending = Array(components(path).reversed())
    var linkCount = 0
    var last: SourceSystem.Node?
    while let name = pending.popLast() {
      if name == "." { continue }
      if name == ".." {
        _ = resolved.popLast()
        last = nil
        continue
      }
      let candidate = joined(resolved + [name])
      guard case .success(let node) = SourceSystem.node(candidate) else {
        return .success(.unresolved)
      }
      guard node.isSymbolicLink else {
        resolved.append(name)
        last = node
        continue
      }
      linkCount += 1
      let folderPath = joined(resolved)
      guard linkCount <= maximumLinkCount,
        case .success(let folder) = SourceSystem.node(folderPath)
      else { return .success(.unresolved) }
      if SourceSystem.isOnProcessFileSystem(folderPath) { return .success(.processLink) }
      let stickyAndWritableByAll = folder.mode & 0o1002 == 0o1002
      if stickyAndWritableByAll && node.owner != SourceSystem.effectiveUser
        && node.owner != folder.owner
      {
        return .failure(UnsafeLink(path: candidate, owner: node.owner))
      }
      guard case .success(let target) = SourceSystem.linkTarget(candidate) else {
        return .success(.unresolved)
      }
      if target.hasPrefix("/") { resolved = [] }
      pending.append(contentsOf: components(target).reversed())
      last = nil
    }
    if let last { return .success(.file(last.identity)) }
    guard case .success(let node) = SourceSystem.node(joined(resolved)) else {
      return .success(.unresolved)
    }
    return .success(.file(node.identity))
  }

  /// The names between slashes, empty ones left out.
  static func components(_ path: String) -> [Substring] {
    path.split(separator: "/", omittingEmptySubsequences: true)
  }

  /// An absolute path of `components`.
  static func joined(_ components: [Substring]) -> String {
    "/" + components.joined(separator: "/")
  }
}
