import SecretFieldCLI

Executables.pinentry(Array(CommandLine.arguments.dropFirst()))
