package import SecureMemory

/// What git sent on the helper's standard input: `key=value` lines, as
/// `git-credential(1)` defines them, ending with a blank line or the end of
/// input.
///
/// The secret values (`password`, `oauth_refresh_token`) are each in a
/// `SecureBuffer` of their own, copied there from the secure buffer the
/// request was read into; the other values are not secret and are `String`s.
/// Array keys (`capability[]`, `wwwauth[]`, `state[]`) and keys it does not
/// know are passed over: never interpreted, never repeated back to git.
package struct CredentialRequest: ~Copyable {
  /// The longest value taken: 64 KiB.
  package static let valueLimit = 64 * 1024
  /// The longest request taken, in all: 1 MiB.
  package static let requestLimit = 1024 * 1024

  /// `protocol=`.
  package var protocolName: String?
  /// `host=`.
  package var host: String?
  /// `path=`.
  package var path: String?
  /// `username=`.
  package var username: String?
  /// `password=`, in secure memory.
  package var password: SecureBuffer?
  /// `password_expiry_utc=`: when the password stops being good, in seconds
  /// since the epoch.
  package var passwordExpiry: Int64?
  /// `oauth_refresh_token=`, in secure memory.
  package var oauthRefreshToken: SecureBuffer?
  /// The parts of `url=`; the keys above, when given, win over them.
  package var url: CredentialTarget?

  /// An empty request.
  package init() {}

  /// What the credential is for: `protocol`, `host`, `path` and `username`,
  /// each from its own key or else from `url`.
  ///
  /// - Throws: ``CredentialError`` with code `missingKey` when there is no
  ///   protocol or no host (or an empty one); `operation` names what needs it.
  package func target(for operation: String) throws(CredentialError) -> CredentialTarget {
    guard let protocolName = protocolName ?? url?.protocolName, !protocolName.isEmpty else {
      throw .missing("protocol", for: operation)
    }
    guard let host = host ?? url?.host, !host.isEmpty else {
      throw .missing("host", for: operation)
    }
    return CredentialTarget(
      protocolName: protocolName, host: host, path: path ?? url?.path,
      username: username ?? url?.username)
  }
}
