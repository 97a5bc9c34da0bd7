import Glibc

/// Makes the kernel keyring unreachable for this process and every process it
/// starts, as a container's seccomp profile does: a seccomp filter that fails
/// `add_key`, `request_key` and `keyctl` with a chosen `errno` and lets every
/// other system call through.
///
/// A filter cannot be removed: call it only in an exit-test child.
public enum KeyringBlock {
  private struct Instruction {
    var code: UInt16
    var jumpIfTrue: UInt8
    var jumpIfFalse: UInt8
    var value: UInt32
  }

  private struct Program {
    var count: UInt16
    var instructions: UnsafePointer<Instruction>
  }

  #if arch(x86_64)
    private static let architecture: UInt32 = 0xC000_003E  // AUDIT_ARCH_X86_64
    private static let keyCalls: [UInt32] = [248, 249, 250]  // add_key, request_key, keyctl
  #elseif arch(arm64)
    private static let architecture: UInt32 = 0xC000_00B7  // AUDIT_ARCH_AARCH64
    private static let keyCalls: [UInt32] = [217, 218, 219]
  #endif

  private typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32

  /// Installs the filter (`PR_SET_NO_NEW_PRIVS`, then `PR_SET_SECCOMP` with
  /// `SECCOMP_MODE_FILTER`). True when the kernel took it.
  public static func install(failingWith errorNumber: Int32) -> Bool {
    let load: UInt16 = 0x20  // BPF_LD | BPF_W | BPF_ABS
    let jumpIfEqual: UInt16 = 0x15  // BPF_JMP | BPF_JEQ | BPF_K
    let giveBack: UInt16 = 0x06  // BPF_RET | BPF_K
    let allow: UInt32 = 0x7fff_0000  // SECCOMP_RET_ALLOW
    let fail: UInt32 = 0x0005_0000 | UInt32(errorNumber)  // SECCOMP_RET_ERRNO
    var instructions = [
      // seccomp_data: nr at offset 0, arch at offset 4.
      Instruction(code: load, jumpIfTrue: 0, jumpIfFalse: 0, value: 4),
      Instruction(code: jumpIfEqual, jumpIfTrue: 1, jumpIfFalse: 0, value: architecture),
      Instruction(code: giveBack, jumpIfTrue: 0, jumpIfFalse: 0, value: allow),
      Instruction(code: load, jumpIfTrue: 0, jumpIfFalse: 0, value: 0),
    ]
    for (index, call) in keyCalls.enumerated() {
      let toFail = UInt8(keyCalls.count - index)
      instructions.append(
        Instruction(code: jumpIfEqual, jumpIfTrue: toFail, jumpIfFalse: 0, value: call))
    }
    instructions.append(Instruction(code: giveBack, jumpIfTrue: 0, jumpIfFalse: 0, value: allow))
    instructions.append(Instruction(code: giveBack, jumpIfTrue: 0, jumpIfFalse: 0, value: fail))

    let handle = dlopen(nil, RTLD_NOW)
    guard let symbol = dlsym(handle, "prctl") else { return false }
    let prctl = unsafeBitCast(symbol, to: Prctl.self)
    let noNewPrivileges: Int32 = 38  // PR_SET_NO_NEW_PRIVS
    let setSeccomp: Int32 = 22  // PR_SET_SECCOMP
    let filterMode: UInt = 2  // SECCOMP_MODE_FILTER
    guard prctl(noNewPrivileges, 1, 0, 0, 0) == 0 else { return false }
    return instructions.withUnsafeBufferPointer { buffer in
      var program = Program(count: UInt16(buffer.count), instructions: buffer.baseAddress!)
      return withUnsafePointer(to: &program) { pointer in
        prctl(setSeccomp, filterMode, UInt(bitPattern: pointer), 0, 0) == 0
      }
    }
  }
}
