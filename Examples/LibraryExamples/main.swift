// The README's examples, compiled as a target so they cannot drift from the
// API: each file holds one snippet's lines as the README shows them (the test
// `ReadmeSnippetTests` checks that), wrapped in a function that supplies what
// the snippet takes from around it. This file is the top-level one.
//
// Running it asks for a password on the terminal and prints its length.

// main.swift
import SecretFieldTerminal
import SecureMemory

let pw = try PasswordPrompt(PromptConfiguration(prompt: "Password:")).run().secret()

print("\(pw.count) bytes")
