import SecretFieldCLI
import SecretFieldTerminal
import SecureMemory

// A fault restores the terminal and dies, instead of the runtime's backtrace.
FaultHandler.install()
// Hardened before any secret exists: no core file, no same-user debugger.
let hardening = ProcessHardening.apply()
let status = AskpassCommand.run(Array(CommandLine.arguments.dropFirst()), hardening: hardening)
TestHook.stopBeforeExitIfAsked()
SecretFieldTool.exit(status)
