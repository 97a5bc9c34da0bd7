import SecretFieldCLI
import SecureMemory

// Hardened before any secret exists: no core file, no same-user debugger.
let hardening = ProcessHardening.apply()
let status = PinentryProgram.run(Array(CommandLine.arguments.dropFirst()), hardening: hardening)
SecretFieldTool.exit(status)
