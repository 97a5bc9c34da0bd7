import Glibc

/// `syscall(2)`, declared without its variadic tail: Swift cannot call a C
/// variadic function, and glibc's `syscall` only moves its integer arguments
/// into the kernel's registers, so the fixed form passes them the same way.
@_silgen_name("syscall")
private func systemCall(
  _ number: Int, _ signal: Int, _ action: UnsafeRawPointer?, _ old: Int, _ size: Int
) -> Int

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
    #if arch(x86_64)
      let rtSigaction = 13
    #elseif arch(arm64)
      let rtSigaction = 134
    #else
      return
    #endif
    // The kernel's struct sigaction: handler, flags, restorer, mask. No
    // handler runs for SIG_IGN, so no restorer is needed.
    var action: (handler: UInt, flags: UInt, restorer: UInt, mask: UInt64) = (
      UInt(bitPattern: unsafeBitCast(SIG_IGN, to: Int.self)), 0, 0, 0
    )
    for number in numbers {
      _ = withUnsafeBytes(of: &action) { bytes in
        systemCall(rtSigaction, Int(number), bytes.baseAddress, 0, MemoryLayout<UInt64>.size)
      }
    }
  }
}
