import Dispatch
import SecureMemory
import Synchronization
import TestSupport
import Testing

@Suite("SecretTable: many secrets by name")
struct SecretTableTests {
  @Test("insert, look up, compare, read, replace and remove by name")
  func byName() throws {
    let table = try SecretTable<String>(name: "test", storage: .sodium)
    try table.insert(copying: try secureText("s3cret"), for: "alice")
    let vault = try secureText("xxhunter2")
    try table.insert(copying: vault, range: 2..<9, for: "bob")
    let candidate = try secureText("hunter2")
    let answers = [
      try table.constantTimeEquals(candidate, for: "bob"),
      try table.constantTimeEquals(candidate, for: "alice"),
      try table.constantTimeEquals(candidate, for: "carol"),
    ]
    #expect(answers == [true, false, nil])
    #expect(table.count == 2)
    #expect(Set(table.keys) == ["alice", "bob"])
    let read = table.withSecret(for: "alice") { String(decoding: $0, as: UTF8.self) }
    #expect(read == "s3cret")
    #expect(table.withSecret(for: "carol") { _ in 1 } == nil)

    try table.insert(copying: try secureText("new"), for: "alice")
    let replaced = table.withSecret(for: "alice") { String(decoding: $0, as: UTF8.self) }
    #expect(replaced == "new")
    #expect(table.removeSecret(for: "alice"))
    #expect(!table.removeSecret(for: "alice"))
    #expect(!table.contains("alice"))
    var copied: String?
    if let copy = try table.copySecret(for: "bob") { copied = text(copy) }
    #expect(copied == "hunter2")
  }

  @Test("the nested-window pattern: one candidate window across many compares")
  func nestedWindow() throws {
    let table = try SecretTable<Int>(name: "test", storage: .sodium)
    for index in 0..<50 { try table.insert(copying: try secureText("pw\(index)"), for: index) }
    let candidate = try secureText("pw37")
    let matching = try candidate.withUnsafeBytes { typed in
      try (0..<50).filter { try table.constantTimeEquals(bytes: typed, for: $0) == true }
    }
    #expect(matching == [37])
  }

  @Test("eight threads insert, compare and remove at once; every answer is right")
  func manyThreads() throws {
    let table = try SecretTable<Int>(name: "threads", storage: .sodium)
    for index in 0..<2_000 {
      try table.insert(copying: try secureText("entry \(index)"), for: index)
    }
    let wrong = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      let candidate = try! secureText("entry \(thread)")
      for round in 0..<300 {
        let key = thread + 8 * round
        // Each thread owns keys ≡ thread (mod 8) above 2,000 to insert and remove.
        try! table.insert(copying: try! secureText("fresh \(key)"), for: 2_000 + key)
        let own = try! table.constantTimeEquals(candidate, for: thread)
        let other = try! table.constantTimeEquals(candidate, for: (thread + 1) % 8)
        let fresh = table.withSecret(for: 2_000 + key) { String(decoding: $0, as: UTF8.self) }
        if own != true || other != false || fresh != "fresh \(key)" {
          wrong.add(1, ordering: .relaxed)
        }
        if !table.removeSecret(for: 2_000 + key) { wrong.add(1, ordering: .relaxed) }
      }
    }
    #expect(wrong.load(ordering: .relaxed) == 0)
    #expect(table.count == 2_000)
  }

  @Test("a removed secret is wiped at once; one still held is found once (control)")
  func removalWipes() async {
    await #expect(processExitsWith: .success) {
      let kept = Marker(count: 32)
      let removed = Marker(count: 32)
      let table = try! SecretTable<String>(name: "residue", storage: .sodium)
      for (marker, name) in [(kept, "kept"), (removed, "removed")] {
        var buffer = try! SecureBuffer(capacity: 32)
        plant(marker, in: &buffer)
        try! table.insert(copying: buffer, for: name)
      }
      let before = try! ResidueScanner().scan(for: removed)
      table.removeSecret(for: "removed")
      let after = try! ResidueScanner().scan(for: removed)
      let stillKept = try! ResidueScanner().scan(for: kept)
      #expect(before.copies == 1, "\(before)")
      #expect(after.copies == 0, "\(after)")
      #expect(stillKept.copies == 1, "\(stillKept)")
    }
  }
}
