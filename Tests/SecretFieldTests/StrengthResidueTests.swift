import SecretField
import SecureMemory
import TestSupport
import Testing

/// A judgement leaves no copy of the password: not as it is, not lower-cased,
/// not decoded into scalars, not reversed. The marker is unmasked in place in
/// secure memory, so every copy a scan finds is one the judge made. Each scan
/// runs in an exit-test child.
@Suite("Strength Residue: a judgement leaves no copy of the password")
struct StrengthResidueTests {
  @Test("control: a marker planted in an ordinary array is found")
  func controlFindsArray() async {
    await #expect(processExitsWith: .success) {
      ResidueControl.expectPlantedMarkerFound()
    }
  }

  @Test("judged from a buffer: the buffer's copy alone while it lives, none after")
  func judgedBuffer() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let forms = MarkerForms(marker)
      var judge = try! StrengthJudge(rules: StrengthRules(userName: "adalovelace"))
      let password = marker.unmaskedInSecureBuffer()
      let strength = judge.judge(password)
      let alive = forms.scan()
      _ = consume password
      let dropped = forms.scan()
      withExtendedLifetime(judge) {}
      #expect(strength.length == 32 && strength.isComplete)
      #expect(alive.plain.copies == 1, "\(alive.plain)")
      #expect(alive.lowerCased.copies == (forms.hasCapitals ? 0 : 1), "\(alive.lowerCased)")
      #expect(alive.scalars.copies == 0, "\(alive.scalars)")
      #expect(dropped.plain.copies == 0, "\(dropped.plain)")
      #expect(dropped.lowerCased.copies == 0, "\(dropped.lowerCased)")
    }
  }

  @Test("a reversed password is read backwards, never reversed into a copy")
  func reversedIsNotCopied() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      var judge = try! StrengthJudge()
      // The buffer holds the marker reversed: a copy that reversed it would
      // be the marker itself.
      var password = try! SecureBuffer(capacity: 64)
      marker.masked.withUnsafeBytes { try! password.append($0) }
      password.withUnsafeMutableBytes { bytes in
        for index in 0..<32 { bytes[index] = marker.masked[31 - index] ^ marker.key[31 - index] }
      }
      _ = judge.judge(password)
      let report = try! ResidueScanner().scan(for: marker)
      withExtendedLifetime(password) {}
      #expect(report.copies == 0, "\(report)")
    }
  }

  @Test("control: without the scratch's wipe, the scan finds the decoded scalars")
  func controlFindsScratch() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let forms = MarkerForms(marker)
      var judge = try! StrengthJudge()
      judge.skipsScratchWipeForTesting = true
      let password = marker.unmaskedInSecureBuffer()
      _ = judge.judge(password)
      let kept = forms.scan()
      withExtendedLifetime(password) {}
      withExtendedLifetime(judge) {}
      #expect(kept.scalars.copies == 1, "\(kept.scalars)")
    }
  }

  @Test("cut off by its budget, a judgement wipes as much")
  func cutJudgement() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let forms = MarkerForms(marker)
      var judge = try! StrengthJudge()
      let password = marker.unmaskedInSecureBuffer()
      let strength = judge.judge(password, budget: StrengthBudget(steps: 40))
      let after = forms.scan()
      withExtendedLifetime(password) {}
      withExtendedLifetime(judge) {}
      #expect(!strength.isComplete)
      #expect(after.plain.copies == 1, "\(after.plain)")
      #expect(after.scalars.copies == 0, "\(after.scalars)")
    }
  }

  /// A guarded field keeps its text in the clear inside the buffer (the one
  /// copy the scan finds); a sealed one, the default, keeps ciphertext, so
  /// the scan finds none: either way the judge adds none.
  @Test(
    "a field judged after each key: the field's copy alone, none after it is cleared",
    arguments: [false, true])
  func fieldJudgedAfterEachKey(sealed: Bool) async {
    await #expect(processExitsWith: .success) { [sealed] in
      let storage: SecureStorage = sealed ? .sealed : .sodium
      let fieldCopies = sealed ? 0 : 1
      let marker = Marker(count: 32)
      let forms = MarkerForms(marker)
      var judge = try! StrengthJudge()
      var field = try! SecretFieldState(storage: storage)
      var source = marker.unmaskedInSecureBuffer()
      source.withUnsafeBytes { plain in
        for offset in 0..<32 {
          try! field.insert(UnsafeRawBufferPointer(rebasing: plain[offset..<offset + 1]))
          _ = field.strength(judgedBy: &judge, budget: .keystroke)
        }
      }
      source.removeAll()
      let alive = forms.scan()
      field.clear()
      let cleared = forms.scan()
      withExtendedLifetime(field) {}
      withExtendedLifetime(judge) {}
      #expect(alive.plain.copies == fieldCopies, "\(alive.plain)")
      #expect(
        alive.lowerCased.copies == (forms.hasCapitals ? 0 : fieldCopies), "\(alive.lowerCased)")
      #expect(alive.scalars.copies == 0, "\(alive.scalars)")
      #expect(cleared.plain.copies == 0, "\(cleared.plain)")
    }
  }
}

/// What zxcvbn-c leaves, on the same terms: the password NUL-terminated in
/// secure memory, handed to `ZxcvbnMatch` inside the buffer's window. The
/// choice of matchers in Swift over linking it was made on this and the
/// benchmarks: it leaves no plain copy once it returns (it zeroes the
/// reversed copy it keeps on the heap while it runs), so the scan alone did
/// not rule it out.
@Suite("Strength Residue: zxcvbn-c, for comparison")
struct StrengthZxcvbnResidueTests {
  @Test("zxcvbn-c, once it returns, leaves no plain copy either")
  func zxcvbnLeavesNoPlainCopy() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      var password = try! SecureBuffer(capacity: 64)
      marker.masked.withUnsafeBytes { try! password.append($0) }
      [UInt8(0)].withUnsafeBytes { try! password.append($0) }
      password.withUnsafeMutableBytes { marker.unmask(in: $0) }
      let bits = password.withUnsafeBytes { bytes in
        ZxcvbnOracle.bits(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
      }
      wipeStack()
      let report = try! ResidueScanner().scan(for: marker)
      withExtendedLifetime(password) {}
      #expect(bits > 0)
      #expect(report.copies == 1, "\(report)")
    }
  }
}

/// The forms a judge could leave the password in: as it is, with ASCII
/// capitals lower-cased, and as the UTF-32 scalars the estimate works on.
private struct MarkerForms {
  let plain: Marker
  let lowerCased: Marker
  let scalars: Marker
  /// Whether lower-casing changes the marker (else its lower-cased form is
  /// the buffer's own copy). Tested byte by byte, never forming the marker.
  let hasCapitals: Bool

  init(_ marker: Marker) {
    plain = marker
    lowerCased = marker.encoded { (0x41...0x5A).contains($0) ? [$0 | 0x20] : [$0] }
    scalars = marker.encoded { [$0, 0, 0, 0] }
    hasCapitals = zip(marker.masked, marker.key).contains { (0x41...0x5A).contains($0 ^ $1) }
  }

  struct Reports {
    let plain: ResidueScanner.Report
    let lowerCased: ResidueScanner.Report
    let scalars: ResidueScanner.Report
  }

  func scan() -> Reports {
    let scanner = ResidueScanner()
    return Reports(
      plain: try! scanner.scan(for: plain), lowerCased: try! scanner.scan(for: lowerCased),
      scalars: try! scanner.scan(for: scalars))
  }
}
