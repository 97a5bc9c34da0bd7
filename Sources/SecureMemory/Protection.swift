/// What actually holds for one ``SecureBuffer``, checked by effect after the
/// allocation rather than assumed from the calls that were made.
///
/// Libsodium ignores the results of `mlock` and `mprotect` inside `sodium_malloc`;
/// each flag here comes from a call whose result was checked.
public struct Protection: Sendable, Hashable, CustomStringConvertible {
  /// The data pages are locked in RAM and never reach swap (`mlock`).
  public var isLocked: Bool
  /// The data pages are left out of core dumps (`MADV_DONTDUMP`).
  public var isExcludedFromCoreDumps: Bool
  /// A no-access page sits directly before and after the data pages, so an
  /// overrun by one byte faults instead of reading a neighbour.
  public var hasGuardPages: Bool
  /// A forked child sees zeros in place of the data pages (`MADV_WIPEONFORK`).
  public var isWipedOnFork: Bool
  /// Outside an access window the data pages are no-access (`PROT_NONE`).
  ///
  /// When false, the pages are read-write all the time, inside read windows
  /// too: a buffer whose pages are not a mapping of their own (no guard pages)
  /// is left that way, because changing its protection per window could need a
  /// new mapping the process does not have.
  public var isInaccessibleOutsideWindows: Bool

  /// Every protection holds.
  public var isComplete: Bool {
    isLocked && isExcludedFromCoreDumps && hasGuardPages && isWipedOnFork
      && isInaccessibleOutsideWindows
  }

  /// Every protection, as a buffer made under `.required` has it.
  public static let complete = Protection(
    isLocked: true, isExcludedFromCoreDumps: true, hasGuardPages: true, isWipedOnFork: true,
    isInaccessibleOutsideWindows: true)

  /// A line such as `locked, no core dump, guarded, wiped on fork, no access`,
  /// with `not` before each protection that is missing.
  public var description: String {
    [
      (isLocked, "locked"), (isExcludedFromCoreDumps, "no core dump"),
      (hasGuardPages, "guarded"), (isWipedOnFork, "wiped on fork"),
      (isInaccessibleOutsideWindows, "no access outside windows"),
    ].map { $0.0 ? $0.1 : "not \($0.1)" }.joined(separator: ", ")
  }
}
