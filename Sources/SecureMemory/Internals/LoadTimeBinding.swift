import CSodium
import CSystemShims

/// Whether the dynamic loader bound a program's calls when it loaded them
/// (`-z now`), or binds each on its first call through the PLT, whose
/// resolver saves the vector registers on the stack where nothing wipes them
/// (see `Sodium.bindEveryFunction`).
package enum LoadTimeBinding {
  /// True when the loaded object that holds `address` was bound at load time
  /// (`DT_BIND_NOW`, `DF_BIND_NOW` or `DF_1_NOW` in its dynamic section, or
  /// no dynamic section at all), or `LD_BIND_NOW` is set; false when its
  /// calls are bound lazily, or no loaded object holds `address`.
  package static func bindsImmediately(objectHolding address: UnsafeRawPointer) -> Bool {
    secretfield_binds_immediately(address) != 0
  }

  /// True when both ends of this module's calls into libsodium were bound at
  /// load time: the object this module's code was linked into (the program,
  /// for SwiftPM's static library products) and libsodium itself, whose own
  /// calls into libc the binding also covers.
  static let coversLibsodiumCalls: Bool = {
    let ownCode: @convention(c) () -> Void = {}
    let libsodium: @convention(c) () -> Int32 = sodium_init
    return bindsImmediately(objectHolding: unsafeBitCast(ownCode, to: UnsafeRawPointer.self))
      && bindsImmediately(objectHolding: unsafeBitCast(libsodium, to: UnsafeRawPointer.self))
  }()
}
