import SecretFieldCLI

Executables.secretfield(Array(CommandLine.arguments.dropFirst()))
