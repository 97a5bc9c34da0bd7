import Glibc
import SecureMemory
import TestSupport
import Testing

/// `KernelKeyring.names(startingWith:)`, against keys `keyctl` made: the
/// oracle, and the cleanup of each (unique names, removed after).
@Suite(
  "KernelKeyring lists the names in the user keyring by prefix",
  .enabled(if: KeyringOracle.isAvailable, "needs keyutils' keyctl and a user keyring"))
struct KernelKeyringNamesTests {
  @Test("the live user keys with the prefix, none else; an expired one drops out")
  func namesByPrefix() throws {
    let prefix = KeyringOracle.uniqueName("names") + ";"
    let names = [prefix + "a=1", prefix + "b=2"]
    let other = KeyringOracle.uniqueName("names-other")
    let expiring = prefix + "c=3"
    defer { for name in names + [other, expiring] { KeyringOracle.remove(name) } }
    for name in names + [other] { try #require(KeyringOracle.add(name, payload: [0x61]) != nil) }
    // Control: a key is listed before it expires.
    try #require(KeyringOracle.add(expiring, payload: [0x61], timeoutSeconds: 1) != nil)
    #expect(try Set(KernelKeyring().names(startingWith: prefix)) == Set(names + [expiring]))

    #expect(KeyringOracle.waitUntilGone(expiring), "the key outlived its 1-second timeout")
    #expect(try Set(KernelKeyring().names(startingWith: prefix)) == Set(names))
    #expect(try KernelKeyring().names(startingWith: prefix + "zzz").isEmpty)
  }
}
