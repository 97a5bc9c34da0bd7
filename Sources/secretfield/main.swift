import SecretFieldCLI

// One binary for the three tools: started as secretfield-askpass or
// pinentry-secretfield (a link to it), it is that program.
Executables.multiCall(CommandLine.arguments)
