import Glibc
import SystemCalls

#if DEBUG
  import CSystemShims
  import Synchronization
#endif

extension System {
  static let urgentSignal = SIGURG
  static let segmentationFault = SIGSEGV
  static let illegalInstruction = SIGILL
  static let abortSignal = SIGABRT
  static let floatingPointException = SIGFPE
  static let busError = SIGBUS
  static let breakpointTrap = SIGTRAP
  static let badSystemCall = SIGSYS
}

#if DEBUG
  /// The fault ``System/commitOnTrigger(_:trigger:)`` armed, as an index into
  /// `TestHook.Fault.allCases`; -1 for none.
  private let armedFault = Atomic<Int>(-1)

  /// Debug builds only: the fault injection of `TestHook.armFaultIfAsked()`.
  extension System {
    /// Installs a handler for `trigger` that commits `fault`. The handler runs
    /// on the thread's own stack (no `SA_ONSTACK`), so a recursion in it
    /// exhausts the main thread's stack.
    static func commitOnTrigger(_ fault: TestHook.Fault, trigger: Int32) {
      armedFault.store(TestHook.Fault.allCases.firstIndex(of: fault)!, ordering: .releasing)
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { _ in
        let index = armedFault.load(ordering: .acquiring)
        guard index >= 0 else { return }
        System.commit(TestHook.Fault.allCases[index])
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(trigger, &action, nil)
    }

    /// Commits `fault`; returns only if the fault somehow did not happen.
    static func commit(_ fault: TestHook.Fault) {
      // A value the compiler cannot know, so that nothing is folded away.
      let opaque = Int(getpid() & 0)
      switch fault {
      case .nullDereference:
        UnsafeMutablePointer<Int>(bitPattern: 16 + opaque)!.pointee = 1
      case .stackOverflow:
        _ = recurse(opaque)
      case .stackOverflowWithoutAlternateStack:
        var none = stack_t(ss_sp: nil, ss_flags: Int32(SS_DISABLE), ss_size: 0)
        _ = sigaltstack(&none, nil)
        _ = recurse(opaque)
      case .overflowTrap:
        _ = Int.max + (opaque | 1)
      case .abort:
        Glibc.abort()
      case .divisionByZero:
        // glibc declares div `const`: an unused result would drop the call.
        var quotient = div(1, Int32(opaque))
        withUnsafeBytes(of: &quotient) { _ = Glibc.write(-1, $0.baseAddress, $0.count) }
      case .truncatedMapping:
        readPastTruncatedFile()
      case .breakpoint:
        executeBreakpoint()
      case .forbiddenSystemCall:
        makeForbiddenSystemCall()
      }
    }

    /// Calls itself, with a frame of a few hundred bytes each time, until
    /// the stack runs out.
    private static func recurse(_ depth: Int) -> Int {
      var frame = (
        depth, depth, depth, depth, depth, depth, depth, depth, depth, depth, depth, depth, depth,
        depth, depth, depth, depth, depth, depth, depth, depth, depth, depth, depth, depth, depth,
        depth, depth, depth, depth, depth, depth
      )
      return withUnsafeMutableBytes(of: &frame) { bytes in
        bytes[depth & 255] &+= 1
        return recurse(depth + 1) &+ Int(bytes[0])
      }
    }

    /// Maps one page of a file, cuts the file to nothing, and reads the page.
    private static func readPastTruncatedFile() {
      var template = Array("/tmp/secretfield-bus-XXXXXX".utf8CString)
      let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard descriptor >= 0 else { return }
      template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      guard ftruncate(descriptor, off_t(page)) == 0,
        let mapping = mmap(nil, page, PROT_READ, MAP_SHARED, descriptor, 0), mapping != MAP_FAILED
      else { return }
      _ = ftruncate(descriptor, 0)
      let byte = mapping.load(as: UInt8.self)
      close(descriptor)
      _ = byte
    }

    /// Installs, on this thread, a seccomp filter that traps one system call
    /// number, and makes that call: the kernel sends `SIGSYS` to the thread
    /// as the call is entered, as it does to a sandboxed program. The number
    /// is one no kernel has, so nothing else the process does is affected
    /// (the handler's `write`, `ioctl` and `tgkill` are let through).
    private static func makeForbiddenSystemCall() {
      let trapped: UInt32 = 999
      // struct sock_filter, <linux/filter.h>: {u16 code; u8 jt; u8 jf; u32 k}.
      // Load the call's number (seccomp_data.nr, at offset 0); trap if it is
      // `trapped`, else allow.
      var program: [SocketFilterInstruction] = [
        SocketFilterInstruction(code: 0x20, jumpIfTrue: 0, jumpIfFalse: 0, operand: 0),
        SocketFilterInstruction(code: 0x15, jumpIfTrue: 0, jumpIfFalse: 1, operand: trapped),
        SocketFilterInstruction(code: 0x06, jumpIfTrue: 0, jumpIfFalse: 0, operand: 0x0003_0000),
        SocketFilterInstruction(code: 0x06, jumpIfTrue: 0, jumpIfFalse: 0, operand: 0x7FFF_0000),
      ]
      let installed = program.withUnsafeMutableBufferPointer { instructions in
        var filter = SocketFilterProgram(
          count: UInt16(instructions.count), instructions: instructions.baseAddress!)
        return secretfield_install_seccomp_filter(&filter)
      }
      guard installed == 0 else { return }
      _ = secretfield_syscall0(Int(trapped))
    }

    /// Runs a page holding one `int3` (0xCC).
    private static func executeBreakpoint() {
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      guard
        let code = mmap(nil, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
        code != MAP_FAILED
      else { return }
      code.storeBytes(of: 0xCC_CC_CC_CC as UInt32, as: UInt32.self)
      guard mprotect(code, page, PROT_READ | PROT_EXEC) == 0 else { return }
      let function = unsafeBitCast(code, to: (@convention(c) () -> Void).self)
      function()
    }
  }

  /// One instruction of a classic BPF program, laid out as the kernel's
  /// `struct sock_filter`.
  private struct SocketFilterInstruction {
    var code: UInt16
    var jumpIfTrue: UInt8
    var jumpIfFalse: UInt8
    var operand: UInt32
  }

  /// A classic BPF program, laid out as the kernel's `struct sock_fprog`.
  private struct SocketFilterProgram {
    var count: UInt16
    var instructions: UnsafeMutablePointer<SocketFilterInstruction>
  }
#endif
