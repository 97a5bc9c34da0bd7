import SecureMemory
import Testing

@Suite("ErrorCode: a code is named after its static member, and compares by that name")
struct ErrorCodeTests {
  @Test("each code's name is its member's name, so no two members of one type compare equal")
  func namesAreTheMembers() {
    let codes: [(SecureMemoryError.Code, String)] = [
      (.lockFailed, "lockFailed"), (.guardPagesMissing, "guardPagesMissing"),
      (.sealedSecretAltered, "sealedSecretAltered"),
      (.secretMemoryUnavailable, "secretMemoryUnavailable"),
    ]
    for (code, name) in codes { #expect(code.description == name) }
    #expect(Set(codes.map(\.0)).count == codes.count)
    #expect(KeyringError.Code.quotaExceeded.description == "quotaExceeded")
    #expect(SecretStreamError.Code.chunkNotAuthenticated.description == "chunkNotAuthenticated")
  }

  @Test("control: a thrown error's code is the member it was made with, and not another")
  func thrownCodeMatches() {
    do {
      _ = try PasswordHash("not a hash")
      Issue.record("a malformed hash was taken")
    } catch {
      #expect(error.code == .malformedHash)
      #expect(error.code != .hashingFailed)
      #expect("\(error.code)" == "malformedHash")
    }
  }
}
