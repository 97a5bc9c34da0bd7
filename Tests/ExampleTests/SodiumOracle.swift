import Foundation
import Glibc
import TestSupport

/// A small C program, written and compiled by the tests against libsodium
/// directly (`cc` and `pkg-config libsodium`): the independent oracle for the
/// key derivation and for the format of the example's files.
///
/// `oracle derive PASSWORD_HEX SALT_HEX OPSLIMIT MEMLIMIT BYTES` prints the
/// `crypto_pwhash` Argon2id13 key in hex. `oracle decrypt FILE PASSPHRASE` reads
/// a file-vault file (64-byte header, then 64 KiB chunks), derives its key and
/// writes the plaintext to standard output with `crypto_secretstream_*_pull`;
/// exit 0 only when every chunk opened and the last was tagged final.
enum SodiumOracle {
  static let source = #"""
    #include <sodium.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>

    static size_t unhex(const char *hex, unsigned char *out, size_t max) {
      size_t n = strlen(hex) / 2;
      if (n > max) exit(3);
      for (size_t i = 0; i < n; i++) sscanf(hex + 2 * i, "%2hhx", &out[i]);
      return n;
    }

    static unsigned long long le64(const unsigned char *p) {
      unsigned long long v = 0;
      for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
      return v;
    }

    int main(int argc, char **argv) {
      if (sodium_init() < 0) return 2;
      if (argc == 7 && strcmp(argv[1], "derive") == 0) {
        unsigned char password[1024], salt[crypto_pwhash_SALTBYTES], key[256];
        size_t length = unhex(argv[2], password, sizeof password);
        if (unhex(argv[3], salt, sizeof salt) != sizeof salt) return 3;
        size_t bytes = strtoul(argv[6], NULL, 10);
        if (crypto_pwhash(key, bytes, (const char *)password, length, salt,
                          strtoull(argv[4], NULL, 10), strtoull(argv[5], NULL, 10),
                          crypto_pwhash_ALG_ARGON2ID13) != 0) return 4;
        for (size_t i = 0; i < bytes; i++) printf("%02x", key[i]);
        printf("\n");
        return 0;
      }
      if (argc == 4 && strcmp(argv[1], "decrypt") == 0) {
        FILE *in = fopen(argv[2], "rb");
        unsigned char header[64], key[crypto_secretstream_xchacha20poly1305_KEYBYTES];
        if (!in || fread(header, 1, 64, in) != 64 || memcmp(header, "SFVAULT1", 8) != 0) return 5;
        if (crypto_pwhash(key, sizeof key, argv[3], strlen(argv[3]), header + 24, le64(header + 8),
                          (size_t)le64(header + 16), crypto_pwhash_ALG_ARGON2ID13) != 0) return 4;
        crypto_secretstream_xchacha20poly1305_state state;
        if (crypto_secretstream_xchacha20poly1305_init_pull(&state, header + 40, key) != 0) return 6;
        static unsigned char chunk[65536 + crypto_secretstream_xchacha20poly1305_ABYTES];
        static unsigned char plain[65536];
        unsigned char tag = 0;
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, in)) > 0) {
          unsigned long long length;
          if (tag == crypto_secretstream_xchacha20poly1305_TAG_FINAL) return 7;
          if (crypto_secretstream_xchacha20poly1305_pull(&state, plain, &length, &tag, chunk, got,
                                                         NULL, 0) != 0) return 8;
          fwrite(plain, 1, length, stdout);
        }
        return tag == crypto_secretstream_xchacha20poly1305_TAG_FINAL ? 0 : 9;
      }
      return 2;
    }
    """#

  /// The compiled oracle's path, built once per test process.
  static let executable: Result<String, OracleError> = {
    let directory = NSTemporaryDirectory() + "sodium-oracle-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let sourcePath = directory + "/oracle.c"
    let binaryPath = directory + "/oracle"
    do {
      try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
    } catch {
      return .failure(OracleError("cannot write \(sourcePath): \(error)"))
    }
    let build = Result {
      try runProgram([
        "/bin/sh", "-c", "cc -O1 -o \"$1\" \"$2\" $(pkg-config --cflags --libs libsodium)", "sh",
        binaryPath, sourcePath,
      ])
    }
    guard case .success(let run) = build, run.status == 0 else {
      return .failure(OracleError("cc failed: \(build)"))
    }
    return .success(binaryPath)
  }()

  static var isAvailable: Bool {
    access("/usr/bin/cc", X_OK) == 0 && access("/usr/bin/pkg-config", X_OK) == 0
  }

  /// Runs the oracle with `arguments`.
  static func call(_ arguments: [String]) throws -> ProgramRun {
    try runProgram([try executable.get()] + arguments)
  }
}

struct OracleError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

func hex(_ bytes: some Sequence<UInt8>) -> String {
  bytes.map { String(format: "%02x", $0) }.joined()
}
