import Testing
import ToolSupport

/// How a tool is asked to keep its secrets in the live-scan tests: in secret
/// memory, its default, or, the control that a scan can find them, in
/// sodium memory.
struct MemoryBacking: CustomTestStringConvertible, Sendable {
  let name: String
  let environment: [String: String]
  let isSecretMemory: Bool
  var testDescription: String { name }

  static let all = [
    MemoryBacking(
      name: "secret memory (the tools' default)", environment: [:], isSecretMemory: true),
    MemoryBacking(
      name: "control: sodium memory", environment: [TestHook.sodiumMemoryVariable: "1"],
      isSecretMemory: false),
  ]
}
