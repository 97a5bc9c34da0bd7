extension Executables {
  /// The programs one `secretfield` binary can be, chosen by the name it was
  /// started by, as busybox does: the package installs `secretfield-askpass`,
  /// `pinentry-secretfield` and `git-credential-secretfield` as links to it,
  /// so the statically linked Swift runtime ships once.
  package enum Program: Sendable, Hashable {
    /// `secretfield` and its commands.
    case tool
    /// `secretfield-askpass`.
    case askpass
    /// `pinentry-secretfield`.
    case pinentry
    /// `git-credential-secretfield`: `secretfield credential`.
    case credentialHelper

    /// The program for `name`, the first word of `argv` (a path or a bare
    /// name): a last path component that starts with `git-credential-` is
    /// the credential helper (git runs `git credential-secretfield` as
    /// `git-credential-secretfield`), one that contains `askpass` the askpass,
    /// one that contains `pinentry` the pinentry (gpg-agent starts
    /// `/usr/bin/pinentry`, the `pinentry` alternative, as `pinentry`), and
    /// any other the tool.
    package init(invokedAs name: String) {
      let base = name.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
      if base.hasPrefix("git-credential-") {
        self = .credentialHelper
      } else if base.contains("askpass") {
        self = .askpass
      } else if base.contains("pinentry") {
        self = .pinentry
      } else {
        self = .tool
      }
    }
  }

  /// The multi-call entry: runs the program `arguments[0]` names (see
  /// ``Program/init(invokedAs:)``) with the arguments after it.
  package static func multiCall(_ arguments: [String]) -> Never {
    let rest = Array(arguments.dropFirst())
    switch Program(invokedAs: arguments.first ?? "") {
    case .tool: secretfield(rest)
    case .askpass: askpass(rest)
    case .pinentry: pinentry(rest)
    case .credentialHelper: credentialHelper(rest)
    }
  }
}
