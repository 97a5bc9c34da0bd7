import Glibc

/// Nanoseconds from `clock_gettime(CLOCK_MONOTONIC)`: the clock NTP slews but
/// never steps, read through the vDSO without a system call (about 20 ns).
enum MonotonicClock {
  /// Now, in nanoseconds since an arbitrary point fixed at boot.
  @inline(__always)
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }
}
