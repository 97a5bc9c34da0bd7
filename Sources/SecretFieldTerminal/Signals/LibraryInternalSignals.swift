import CSystemShims
import Glibc

/// The signals the C library keeps for itself, below `SIGRTMIN`, kept from
/// ending the process.
///
/// glibc takes the kernel's first real-time signals (32, `SIGCANCEL`, for
/// `pthread_cancel`; 33, `SIGSETXID`, for `setuid` in a threaded process)
/// and refuses them to `sigaction` and `sigprocmask`, so no relay can catch
/// them. Since glibc 2.34 it installs its handlers only when first needed, so
/// until then they have their default action: a `kill -32` from outside ends
/// the process at once, with the terminal raw. The tools cancel no thread
/// and change no IDs, so they ignore them, as glibc's own handlers ignore one
/// sent from outside: the disposition is set to `SIG_IGN` with the raw
/// `rt_sigaction` system call, which glibc's filter does not see. (Blocking
/// them would not hold: every `pthread_sigmask(SIG_SETMASK)` through glibc
/// unblocks them again.) Should glibc later need one, it installs its own
/// handler over the ignore. Children get them ignored as glibc's
/// `posix_spawn` gives them anyway.
///
/// - Cost: one system call per signal, two with glibc.
enum LibraryInternalSignals {
  /// 32 up to the C library's `SIGRTMIN`, exclusive.
  static var numbers: ClosedRange<Int32>? {
    let first = __libc_current_sigrtmin()
    return first > 32 ? 32...(first - 1) : nil
  }

  /// Sets ``numbers`` to be ignored, for the whole process.
  static func ignore() {
    guard let numbers else { return }
    for number in numbers { _ = secretfield_ignore_signal_raw(number) }
  }
}
