import Foundation
import Testing

/// The package's root, from this file's path.
private let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A line compared without its indentation and with runs of blanks as one, so
/// that `swift format`'s layout of the example sources does not count.
private func normalized(_ line: Substring) -> String {
  line.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
}

/// The lines of `text` that are code to compare: no blank lines, no imports.
private func codeLines(_ text: String) -> [String] {
  text.split(separator: "\n", omittingEmptySubsequences: false).map(normalized)
    .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
}

private func importLines(_ text: String) -> Set<String> {
  Set(text.split(separator: "\n").map(normalized).filter { $0.hasPrefix("import ") })
}

/// Every ```swift block of the README.
private func readmeSwiftBlocks() throws -> [String] {
  let readme = try String(
    contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
  var blocks: [String] = []
  var current: [Substring]?
  for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
    if current == nil {
      if line == "```swift" { current = [] }
    } else if line == "```" {
      blocks.append(current!.joined(separator: "\n"))
      current = nil
    } else {
      current!.append(line)
    }
  }
  return blocks
}

/// The sources of the README's example target, by file name.
private func exampleSources() throws -> [String: String] {
  let directory = packageRoot.appendingPathComponent("Examples/LibraryExamples")
  var sources: [String: String] = [:]
  for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
  where name.hasSuffix(".swift") {
    sources[name] = try String(
      contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
  }
  return sources
}

/// True when `needle` occurs in `haystack` as consecutive elements.
private func containsRun(_ haystack: [String], _ needle: [String]) -> Bool {
  guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
  return (0...(haystack.count - needle.count)).contains {
    Array(haystack[$0..<($0 + needle.count)]) == needle
  }
}

/// Which example file holds `block`: its code lines in a row and its imports.
private func holder(of block: String, in sources: [String: String]) -> String? {
  let code = codeLines(block)
  let imports = importLines(block)
  return sources.first { _, source in
    containsRun(codeLines(source), code) && imports.isSubset(of: importLines(source))
  }?.key
}

/// The README's Swift cannot drift from the API: the `LibraryExamples` target,
/// which every build compiles, holds each block's lines.
@Suite("The README's Swift snippets are the compiled examples")
struct ReadmeSnippetTests {
  @Test("every ```swift block of the README is in Examples/LibraryExamples, line for line")
  func everyBlockIsCompiled() throws {
    let blocks = try readmeSwiftBlocks()
    let sources = try exampleSources()
    #expect(blocks.count >= 10, "found \(blocks.count) blocks")
    for block in blocks where !block.hasPrefix("// Package.swift") {
      #expect(holder(of: block, in: sources) != nil, "not in the examples:\n\(block)")
    }
  }

  @Test("the Package.swift block names products the package has, and only those")
  func packageBlock() throws {
    let block = try #require(try readmeSwiftBlocks().first { $0.hasPrefix("// Package.swift") })
    let manifest = try String(
      contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    let products = Set(
      manifest.split(separator: "\n").compactMap { line -> String? in
        guard let range = line.range(of: ".library(name: \"") else { return nil }
        return String(line[range.upperBound...].prefix { $0 != "\"" })
      })
    #expect(products.contains("SecretFieldTerminal"))
    let named = block.split(separator: "\n").compactMap { line -> String? in
      guard let range = line.range(of: ".product(name: \"") else { return nil }
      return String(line[range.upperBound...].prefix { $0 != "\"" })
    }
    #expect(!named.isEmpty)
    for name in named {
      #expect(products.contains(name), "\(name) is not a library product")
      #expect(name != "SecretFieldCLI", "the README must not send users to SecretFieldCLI")
    }
    #expect(block.contains("package: \"SecretField\""))
  }

  @Test("control: a block changed by one word is not found")
  func controlChangedBlockIsMissed() throws {
    let sources = try exampleSources()
    let block = try #require(try readmeSwiftBlocks().first { $0.contains("takeSecret()") })
    #expect(holder(of: block, in: sources) != nil)
    let changed = block.replacingOccurrences(of: "takeSecret()", with: "takeSecretCopy()")
    #expect(holder(of: changed, in: sources) == nil)
    let missingImport = "import SecretFieldCLI\n" + block
    #expect(holder(of: missingImport, in: sources) == nil)
  }
}
