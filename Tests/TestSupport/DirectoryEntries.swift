import Glibc

/// The names in the directory at `path`, `.` and `..` left out, in the order
/// `readdir` gives them; `["(cannot list)"]` when it cannot be opened, so a
/// check that expects it empty fails.
public func directoryEntries(_ path: String) -> [String] {
  guard let stream = opendir(path) else { return ["(cannot list)"] }
  defer { closedir(stream) }
  var names: [String] = []
  while let entry = readdir(stream) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    if name != "." && name != ".." { names.append(name) }
  }
  return names
}
