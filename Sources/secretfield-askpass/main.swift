import SecretFieldCLI

Executables.askpass(Array(CommandLine.arguments.dropFirst()))
