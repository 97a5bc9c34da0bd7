import Glibc

/// The directory that holds the test bundle and the executables SwiftPM
/// built beside it.
public func productsDirectory() -> String {
  var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
  let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
  let path =
    count > 0
    ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    : CommandLine.arguments[0]
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return String(path[..<slash])
}

/// The path of the executable product `name` built beside the test bundle.
public func builtExecutable(_ name: String) -> String {
  productsDirectory() + "/" + name
}
