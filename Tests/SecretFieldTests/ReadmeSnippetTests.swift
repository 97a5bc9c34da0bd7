import Foundation
import TestSupport
import Testing

// Every ```swift block of README.md and of the DocC articles
// (Sources/*/*.docc/**/*.md) is compiled the two ways a reader pastes it: as
// the whole of a `main.swift`, at the top level (where a global cannot be
// consumed, and `switch consume` of one does not compile), and inside a
// function. Both run `swiftc` as far as SIL (type checking and the checks of
// noncopyable values) against the modules of the build the tests run from, as
// a client module outside the package: only `public`
// declarations are visible, as for a user (a target inside the package would
// see `package` ones too). A block that starts with `// swift-tools-version`
// is a client's whole `Package.swift`, loaded by `swift package dump-package`.

/// The package's root, from this file's path.
private let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// One ```swift block: where it is, and its lines without the fence's indent.
struct SwiftBlock: CustomStringConvertible, Sendable {
  /// The document, relative to the package's root.
  let file: String
  /// The line of the opening fence, counted from 1.
  let line: Int
  let code: String

  /// A client's whole manifest.
  var isManifest: Bool { code.hasPrefix("// swift-tools-version") }

  var description: String { "\(file):\(line)" }

  /// The `import` lines, which a function cannot hold.
  var imports: [String] {
    code.split(separator: "\n").map(String.init).filter { $0.hasPrefix("import ") }
  }

  /// The block inside a function: its imports above, the rest as the body.
  func wrappedInFunction(named name: String) -> String {
    let body = code.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("import ") }.map { "  " + $0 }
    return (imports + ["", "func \(name)() throws {"] + body + ["}", ""])
      .joined(separator: "\n")
  }
}

/// README.md and every Markdown file of every DocC catalog, relative paths.
func documentationFiles() throws -> [String] {
  var files = ["README.md"]
  let sources = packageRoot.appendingPathComponent("Sources")
  let fileManager = FileManager.default
  for module in try fileManager.contentsOfDirectory(atPath: sources.path).sorted() {
    let catalog = "Sources/\(module)/\(module).docc"
    guard
      let walker = fileManager.enumerator(atPath: packageRoot.appendingPathComponent(catalog).path)
    else { continue }
    files += walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".md") }.sorted()
      .map { "\(catalog)/\($0)" }
  }
  return files
}

/// Every ```swift block of `file`.
func swiftBlocks(in file: String) throws -> [SwiftBlock] {
  let text = try String(
    contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
  var blocks: [SwiftBlock] = []
  var open: (line: Int, indent: Int, lines: [String])?
  for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    let trimmed = line.drop { $0 == " " }
    if let block = open {
      if trimmed == "```" {
        blocks.append(
          SwiftBlock(file: file, line: block.line, code: block.lines.joined(separator: "\n")))
        open = nil
      } else {
        open!.lines.append(
          String(line.dropFirst(min(block.indent, line.prefix { $0 == " " }.count))))
      }
    } else if trimmed == "```swift" {
      open = (index + 1, line.count - trimmed.count, [])
    }
  }
  return blocks
}

/// Every ```swift block of the documentation.
func allSwiftBlocks() throws -> [SwiftBlock] {
  try documentationFiles().flatMap(swiftBlocks(in:))
}

/// What a `swiftc` or `swift` run printed and how it ended.
struct ToolRun: Sendable {
  let status: Int32
  let output: String
  var warnings: [Substring] {
    output.split(separator: "\n").filter { $0.contains(": warning: ") }
  }
}

/// Runs the toolchain's `swiftc` as a client of the build the tests
/// run from: its `Modules` directory, and the module maps of the C targets,
/// which the Swift modules' interfaces name.
struct SnippetCompiler: Sendable {
  /// The build's products: where the running test binary is.
  let binPath: URL
  let scratch: URL

  init() throws {
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    binPath = URL(fileURLWithPath: executable).deletingLastPathComponent()
    scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("snippets-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  }

  /// The flags SwiftPM gives a client target: module search paths, C module
  /// maps, Swift 6 mode, and the upcoming feature that makes a file import
  /// every module whose members it uses (as the package's own targets do).
  func flags() throws -> [String] {
    let fileManager = FileManager.default
    let modules = binPath.appendingPathComponent("Modules")
    guard
      fileManager.fileExists(
        atPath: modules.appendingPathComponent("SecureMemory.swiftmodule").path)
    else {
      throw SnippetError(
        "no SecureMemory module in \(modules.path): build first (swift build --build-tests)")
    }
    var flags = [
      "-swift-version", "6", "-enable-upcoming-feature", "MemberImportVisibility",
      "-I", modules.path,
    ]
    let sources = packageRoot.appendingPathComponent("Sources")
    for target in try fileManager.contentsOfDirectory(atPath: sources.path).sorted() {
      let directory = sources.appendingPathComponent(target)
      let map = directory.appendingPathComponent("module.modulemap")
      if fileManager.fileExists(atPath: map.path) {
        flags += ["-Xcc", "-fmodule-map-file=\(map.path)"]
      }
      let include = directory.appendingPathComponent("include")
      if fileManager.fileExists(atPath: include.path) { flags += ["-Xcc", "-I\(include.path)"] }
      let generated = binPath.appendingPathComponent("\(target).build/module.modulemap")
      if fileManager.fileExists(atPath: generated.path) {
        flags += ["-Xcc", "-fmodule-map-file=\(generated.path)"]
      }
    }
    return flags
  }

  /// Starts `arguments` (a toolchain command found on `PATH`), its output
  /// and errors into one pipe.
  func start(_ arguments: [String], in directory: URL) throws -> TestProcess {
    try TestProcess(
      ["/usr/bin/env"] + arguments, standardError: .standardOutput, directory: directory.path)
  }

  /// Runs each job, as many at a time as there are cores. A compiler that
  /// hangs is ended after ten minutes, a bound that says nothing of speed.
  func run(_ jobs: [(arguments: [String], directory: URL)]) throws -> [ToolRun] {
    var runs: [ToolRun] = []
    let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
    for start in stride(from: 0, to: jobs.count, by: width) {
      let started = try jobs[start..<min(start + width, jobs.count)].map {
        try self.start($0.arguments, in: $0.directory)
      }
      for process in started {
        let run = try process.finish(within: .seconds(600))
        runs.append(ToolRun(status: run.status, output: run.output))
      }
    }
    return runs
  }

  /// Type-checking alone is not enough: the checks of noncopyable values (a
  /// global consumed, a value consumed twice) run on SIL, after it. So each
  /// check emits SIL, which runs the mandatory passes, and throws it away.
  static let checkingFlags = ["-emit-sil", "-o", "/dev/null"]

  /// Compiles each block as the whole `main.swift` of a module of its own.
  func checkTopLevel(_ blocks: [SwiftBlock]) throws -> [ToolRun] {
    let flags = try flags()
    let jobs = try blocks.enumerated().map { index, block in
      let directory = scratch.appendingPathComponent("top-\(index)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try block.code.write(
        to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
      return (["swiftc"] + Self.checkingFlags + flags + ["main.swift"], directory)
    }
    return try run(jobs)
  }

  /// Compiles every block inside a function of its own, all in one module
  /// (the functions keep their declarations apart). Returns the run, and the
  /// file name each block went into.
  func checkInFunctions(_ blocks: [SwiftBlock]) throws -> (ToolRun, [String]) {
    let directory = scratch.appendingPathComponent("functions")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var names: [String] = []
    for (index, block) in blocks.enumerated() {
      let name = "snippet\(index).swift"
      try block.wrappedInFunction(named: "snippet\(index)").write(
        to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
      names.append(name)
    }
    let run = try run([
      (["swiftc", "-parse-as-library", "-wmo"] + Self.checkingFlags + flags() + names, directory)
    ])
    return (run[0], names)
  }

  func removeScratch() { try? FileManager.default.removeItem(at: scratch) }
}

struct SnippetError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The library products the package's manifest declares.
private func libraryProducts() throws -> Set<String> {
  let manifest = try String(
    contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
  return Set(
    manifest.split(separator: "\n").compactMap { line -> String? in
      guard let range = line.range(of: ".library(name: \"") else { return nil }
      return String(line[range.upperBound...].prefix { $0 != "\"" })
    })
}

@Suite("The documentation's Swift compiles as a user pastes it", .serialized)
struct ReadmeSnippetTests {
  @Test("the README and every module's catalog hold Swift blocks")
  func blocksAreFound() throws {
    let blocks = try allSwiftBlocks()
    #expect(blocks.count >= 30, "found \(blocks.count) blocks")
    #expect(blocks.contains { $0.file == "README.md" && !$0.isManifest })
    #expect(blocks.contains { $0.file == "README.md" && $0.isManifest })
    for module in try libraryProducts() {
      #expect(
        blocks.contains { $0.file.hasPrefix("Sources/\(module)/\(module).docc/") },
        "no Swift block in the catalog of \(module)")
    }
  }

  @Test("every ```swift block compiles pasted whole into a main.swift, without warnings")
  func everyBlockCompilesAtTheTopLevel() throws {
    let blocks = try allSwiftBlocks().filter { !$0.isManifest }
    let compiler = try SnippetCompiler()
    defer { compiler.removeScratch() }
    let start = ContinuousClock.now
    let runs = try compiler.checkTopLevel(blocks)
    print("compiled \(blocks.count) blocks at the top level in \(ContinuousClock.now - start)")
    for (block, run) in zip(blocks, runs) {
      #expect(
        run.status == 0, "\(block) does not compile at the top level of main.swift:\n\(run.output)")
      #expect(run.warnings.isEmpty, "\(block) warns at the top level of main.swift:\n\(run.output)")
    }
  }

  @Test("every ```swift block compiles inside a function, without warnings")
  func everyBlockCompilesInAFunction() throws {
    let blocks = try allSwiftBlocks().filter { !$0.isManifest }
    let compiler = try SnippetCompiler()
    defer { compiler.removeScratch() }
    let (run, names) = try compiler.checkInFunctions(blocks)
    for (block, name) in zip(blocks, names) {
      let findings = run.output.split(separator: "\n").filter {
        ($0.hasPrefix("\(name):") || $0.contains("/\(name):"))
          && ($0.contains(": error: ") || $0.contains(": warning: "))
      }
      #expect(
        findings.isEmpty,
        "\(block) does not compile inside a function without warnings:\n\(findings.joined(separator: "\n"))"
      )
    }
    #expect(run.status == 0, "\(run.output)")
  }

  @Test("each Package.swift block loads, and names only library products of this package")
  func manifestBlocks() throws {
    let manifests = try allSwiftBlocks().filter(\.isManifest)
    #expect(!manifests.isEmpty)
    let products = try libraryProducts()
    #expect(products.count == 8, "\(products.sorted())")
    let compiler = try SnippetCompiler()
    defer { compiler.removeScratch() }
    for (index, block) in manifests.enumerated() {
      let named = block.code.split(separator: "\n").compactMap { line -> String? in
        guard let range = line.range(of: ".product(name: \"") else { return nil }
        return String(line[range.upperBound...].prefix { $0 != "\"" })
      }
      #expect(!named.isEmpty, "\(block) names no product")
      for name in named {
        #expect(products.contains(name), "\(block): \(name) is not a library product")
      }
      let directory = compiler.scratch.appendingPathComponent("client-\(index)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try block.code.write(
        to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
      let run = try compiler.run([(["swift", "package", "dump-package"], directory)])[0]
      #expect(run.status == 0, "\(block) does not load as a manifest:\n\(run.output)")
    }
  }

  @Test("controls: the checks fail where a user's build would")
  func controls() throws {
    let compiler = try SnippetCompiler()
    defer { compiler.removeScratch() }
    let consumesGlobal = SwiftBlock(
      file: "control", line: 1,
      code: """
        import SecretField
        import SecretFieldTerminal
        import SecureMemory

        let result = try PasswordPrompt().run()
        switch consume result {
        case .submitted(let secret): try secret.write(to: 1)
        default: break
        }
        """)
    let packageOnly = SwiftBlock(
      file: "control", line: 2,
      code: """
        import SecretFieldTerminal

        let terminal = try TerminalDevice()
        print(terminal.columns)
        """)
    let misspelt = SwiftBlock(
      file: "control", line: 3,
      code: """
        import SecureMemory

        var buffer = try SecureBuffer(capacity: 64)
        buffer.wipeEverything()
        """)
    let top = try compiler.checkTopLevel([consumesGlobal, packageOnly, misspelt])
    #expect(top[0].status != 0, "a global consumed at the top level compiled")
    #expect(top[1].status != 0, "a package declaration was visible to a client")
    #expect(top[1].output.contains("TerminalDevice"), "\(top[1].output)")
    #expect(top[2].status != 0, "an unknown member compiled")
    // Inside a function the first is fine: only the top level refuses it.
    let (inFunction, _) = try compiler.checkInFunctions([consumesGlobal])
    #expect(inFunction.status == 0, "\(inFunction.output)")
  }
}
