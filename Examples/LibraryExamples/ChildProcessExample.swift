import SecretFieldTerminal
import SecureMemory
import SecretSources

/// The README's hand-over to a child.
func openDevice(with secret: borrowing SecureBuffer) throws {
  let device = "/dev/sdb1"
  let ending = try ChildProcess.run(
    ["cryptsetup", "open", "--key-file=-", device, "data"], standardInput: secret)
  guard ending == .exited(0) else { throw ToolFailure("cryptsetup ended with \(ending)") }
}
