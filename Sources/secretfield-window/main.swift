import SecretFieldWindow

WindowProgram.main(Array(CommandLine.arguments.dropFirst()))
