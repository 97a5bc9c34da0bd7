import SecretFieldCLI
import SecretFieldTerminal
import SecureMemory

// A fault restores the terminal and dies, instead of the runtime's backtrace.
FaultHandler.install()
// Hardened before any secret exists: no core file, no same-user debugger.
let hardening = ProcessHardening.apply()
let status = PinentryProgram.run(Array(CommandLine.arguments.dropFirst()), hardening: hardening)
SecretFieldTool.exit(status)
