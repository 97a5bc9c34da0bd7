import SecureMemory

/// The README's "Secure memory" example.
func secureMemory(ttyDescriptor: Int32, stored: borrowing SecureBuffer) throws {
  var password = try SecureBuffer(capacity: 64)  // locked, guarded, no-access
  let outcome = try password.read(from: ttyDescriptor)  // read(2) straight into it
  let matches = password.constantTimeEquals(stored)  // sodium_memcmp in windows
  password.withUnsafeBytes { bytes in
    // The only place the bytes are readable. Do not let `bytes` escape.
  }
  // Dropping the buffer wipes it (sodium_free).
  print(outcome, matches)
}

/// The README's copies and moves between buffers.
func bufferTransfers(
  password: borrowing SecureBuffer, fileDescriptor: Int32, pipeDescriptor: Int32,
  hostBuffer: inout [UInt8]
) throws {
  let key = try SecureBuffer.random(count: 32)  // randombytes_buf, into a write window
  var both = try SecureBuffer(copying: key)  // a second copy, on purpose
  try both.append(contentsOf: password)  // rep movsb between windows
  try both.read(from: fileDescriptor, upTo: 4096)  // to end of file or the limit
  try both.write(to: pipeDescriptor)  // EPIPE is thrown, never SIGPIPE
  hostBuffer.withUnsafeMutableBytes { secureZero($0) }  // ordinary memory a framework handed over
}

/// The README's "Secret memory" example.
func secretMemory() throws {
  let buffer = try SecureBuffer(capacity: 64, storage: .strongestAvailable)
  // secret memory: locked, no core dump, guarded, not inherited on fork,
  // no access outside windows, hidden from the kernel
  print(buffer.protection)
}
