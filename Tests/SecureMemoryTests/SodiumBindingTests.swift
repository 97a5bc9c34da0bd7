import Foundation
import Glibc
import SecureMemory
import Testing

/// `Sodium.bindEveryFunction` must call every libsodium function `SecureMemory`
/// calls, so none is bound lazily after a secret exists (see its comment). This
/// reads the source, where the list lives, so a call added elsewhere in
/// `Sodium.swift` without its line in the list fails here.
@Suite("Every libsodium function SecureMemory calls is bound at initialisation")
struct SodiumBindingTests {
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "Sources/SecureMemory")

  /// The libsodium functions called in `text`: `sodium_*`, `crypto_*` and
  /// `randombytes_*` names followed by an opening parenthesis, outside
  /// comments. `sodium_init` is not counted: it runs first, before the list.
  static func calls(in text: Substring) -> Set<String> {
    let pattern = try! NSRegularExpression(pattern: #"\b((?:sodium|crypto|randombytes)_\w+)\s*\("#)
    let string = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
    }.joined(separator: "\n")
    let matches = pattern.matches(in: string, range: NSRange(string.startIndex..., in: string))
    return Set(matches.map { String(string[Range($0.range(at: 1), in: string)!]) })
      .subtracting(["sodium_init"])
  }

  @Test("the binding list holds every libsodium call in Sodium.swift")
  func listIsComplete() throws {
    let text = try String(
      contentsOf: Self.sources.appendingPathComponent("Internals/Sodium.swift"), encoding: .utf8)
    let start = try #require(text.range(of: "private static func bindEveryFunction() {"))
    let end = try #require(text.range(of: "\n  }\n", range: start.upperBound..<text.endIndex))
    let list = Self.calls(in: text[start.upperBound..<end.lowerBound])
    let everywhere = Self.calls(in: text[...])
    #expect(list.count > 30)
    #expect(
      everywhere.subtracting(list).isEmpty,
      "not bound at initialisation: \(everywhere.subtracting(list).sorted())")
    // Control: the scan finds calls outside the list too.
    #expect(Self.calls(in: text[end.upperBound...]).contains("crypto_pwhash"))
  }

  @Test("no other file of SecureMemory calls libsodium")
  func onlySodiumSwiftCalls() throws {
    let files = try FileManager.default.subpathsOfDirectory(atPath: Self.sources.path)
      .filter { $0.hasSuffix(".swift") && $0 != "Internals/Sodium.swift" }
    #expect(files.count > 10)
    for file in files {
      let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
      #expect(
        Self.calls(in: text[...]).isEmpty, "\(file) calls \(Self.calls(in: text[...]).sorted())")
    }
  }

}

/// The binding at start is skipped only where the loader bound everything:
/// read from the dynamic sections of the objects actually loaded.
@Suite("Load-time binding is read from the loaded objects")
struct LoadTimeBindingTests {
  /// A function of the test program, which SwiftPM links without `-z now`.
  static let ownCode: @convention(c) () -> Void = {}

  @Test("Debian's libsodium is bound at load; this test program is not (control)")
  func libsodiumAndTestProgram() throws {
    let sodium = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sodium_init"))
    #expect(LoadTimeBinding.bindsImmediately(objectHolding: sodium))
    let own = unsafeBitCast(Self.ownCode, to: UnsafeRawPointer.self)
    #expect(!LoadTimeBinding.bindsImmediately(objectHolding: own))
  }

  @Test("LD_BIND_NOW counts as binding at load")
  func environment() async {
    await #expect(processExitsWith: .success) {
      setenv("LD_BIND_NOW", "1", 1)
      let own = unsafeBitCast(LoadTimeBindingTests.ownCode, to: UnsafeRawPointer.self)
      if !LoadTimeBinding.bindsImmediately(objectHolding: own) { exit(1) }
    }
  }

  @Test("an address no object holds is not taken as bound")
  func unknownAddress() {
    #expect(!LoadTimeBinding.bindsImmediately(objectHolding: UnsafeRawPointer(bitPattern: 16)!))
  }
}
