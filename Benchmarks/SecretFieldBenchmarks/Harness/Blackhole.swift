/// Where benchmarks put what their work produced, so the optimiser cannot prove
/// the work unused and delete it.
///
/// A write to a global is a side effect the compiler must keep; `@inline(never)`
/// keeps the call opaque, so the value must really be computed first. The sink is
/// written from the one benchmark thread only.
nonisolated(unsafe) private var sink: UInt64 = 0

/// Keeps `value` alive: folds it into a global the optimiser cannot see through.
@inline(never)
func blackhole(_ value: UInt64) {
  sink &+= value
}

/// Keeps `value` alive (see the `UInt64` overload).
@inline(__always)
func blackhole(_ value: Int) { blackhole(UInt64(bitPattern: Int64(value))) }

/// Keeps `value` alive (see the `UInt64` overload).
@inline(__always)
func blackhole(_ value: Bool) { blackhole(UInt64(value ? 1 : 0)) }

/// Keeps the address alive, so a loop that produced it cannot be dropped.
@inline(__always)
func blackhole(_ pointer: UnsafeRawPointer?) {
  blackhole(UInt64(UInt(bitPattern: pointer)))
}
