import CSystemShims
import Glibc

/// The calls of the kernel key retention service that ``KernelKeyring`` makes,
/// through `syscall(2)` (no libkeyutils), named for what they do.
///
/// Each returns the kernel's answer or the `errno`, so the caller turns a
/// failure into a ``KeyringError`` in one step. None of them copies a payload:
/// the kernel reads it from, or writes it into, the caller's window.
extension Kernel {
  enum Keyring {
    /// `KEY_SPEC_USER_KEYRING`: the keyring of the caller's real user ID,
    /// created on first use. Keys found through it count as possessed.
    static let userKeyring = Int(KEY_SPEC_USER_KEYRING)

    /// The key type whose payload is a blob the kernel hands back as it is.
    static let userType = "user"

    /// The largest payload the kernel takes for a key of type `user`
    /// (`user_preparse` refuses more with `EINVAL`).
    static let userPayloadLimit = 32_767

    /// The longest description (name) `add_key` and `KEYCTL_SEARCH` accept.
    static let descriptionLimit = 4_095

    /// A key's serial number, or the `errno` of the call that failed.
    typealias Answer = Result<Int, Failure>

    /// An `errno` from a key call, with the call's name for messages.
    struct Failure: Error, Equatable {
      let errno: Int32
      let call: String
    }

    /// `keyctl(KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", name, 0)`: the
    /// serial of the key called `name` in the user keyring and the keyrings
    /// it links, without linking the result anywhere. Fails with `ENOKEY`
    /// when there is none, `EKEYEXPIRED` or `EKEYREVOKED` when the only one
    /// is dead, `EACCES` when one exists that this process may not search.
    static func search(_ name: String) -> Answer {
      answer(call: "keyctl(KEYCTL_SEARCH)") {
        userType.withCString { type in
          name.withCString { description in
            secretfield_keyctl(
              KEYCTL_SEARCH, UInt(bitPattern: userKeyring), UInt(bitPattern: type),
              UInt(bitPattern: description), 0)
          }
        }
      }
    }

    /// `keyctl(KEYCTL_READ, serial, destination, count)`: copies the payload
    /// into `destination` when it fits and returns its size either way (the
    /// size alone when `destination` is empty). When it does not fit, the
    /// destination's contents are undefined (keyctl_read(3)).
    static func read(_ serial: Int, into destination: UnsafeMutableRawBufferPointer) -> Answer {
      answer(call: "keyctl(KEYCTL_READ)") {
        secretfield_keyctl(
          KEYCTL_READ, UInt(serial), UInt(bitPattern: destination.baseAddress),
          UInt(destination.count), 0)
      }
    }

    /// `add_key("user", name, payload, count, KEY_SPEC_USER_KEYRING)`: creates
    /// the key, or replaces the payload of the one already there (same serial,
    /// its permissions kept, its timeout cleared).
    static func add(_ name: String, payload: UnsafeRawBufferPointer) -> Answer {
      answer(call: "add_key") {
        userType.withCString { type in
          name.withCString { description in
            secretfield_add_key(
              type, description, payload.baseAddress, payload.count, userKeyring)
          }
        }
      }
    }

    /// `keyctl(KEYCTL_SETPERM, serial, permissions)`.
    static func setPermissions(_ serial: Int, _ permissions: UInt32) -> Failure? {
      answer(call: "keyctl(KEYCTL_SETPERM)") {
        secretfield_keyctl(KEYCTL_SETPERM, UInt(serial), UInt(permissions), 0, 0)
      }.failure
    }

    /// `keyctl(KEYCTL_SET_TIMEOUT, serial, seconds)`: the key expires that
    /// many seconds from now (0 would mean never).
    static func setTimeout(_ serial: Int, seconds: UInt32) -> Failure? {
      answer(call: "keyctl(KEYCTL_SET_TIMEOUT)") {
        secretfield_keyctl(KEYCTL_SET_TIMEOUT, UInt(serial), UInt(seconds), 0, 0)
      }.failure
    }

    /// `keyctl(KEYCTL_INVALIDATE, serial)`: the key is gone at once from every
    /// keyring that links it; the kernel wipes and frees it soon after.
    static func invalidate(_ serial: Int) -> Failure? {
      answer(call: "keyctl(KEYCTL_INVALIDATE)") {
        secretfield_keyctl(KEYCTL_INVALIDATE, UInt(serial), 0, 0, 0)
      }.failure
    }

    /// `keyctl(KEYCTL_READ, KEY_SPEC_USER_KEYRING, ...)`: the serials of the
    /// keys the user keyring links, asked for their size first and read again
    /// when the list grew meanwhile. Not secret: numbers.
    static func userKeyringSerials() -> Result<[Int32], Failure> {
      readGrowing(
        KEYCTL_READ, of: userKeyring, call: "keyctl(KEYCTL_READ)", room: 64, slack: 16)
    }

    /// `keyctl(KEYCTL_DESCRIBE, serial, ...)`: the key's type, owner and
    /// description, from the kernel's `type;uid;gid;perm;description`. Fails
    /// with `EKEYEXPIRED` or `EKEYREVOKED` for a dead key, `EACCES` for one
    /// this process may not view.
    static func describe(_ serial: Int32) -> Result<
      (type: String, uid: UInt32, description: String), Failure
    > {
      let call = "keyctl(KEYCTL_DESCRIBE)"
      let described: Result<[UInt8], Failure> = readGrowing(
        KEYCTL_DESCRIBE, of: Int(serial), call: call, room: 256)
      return described.flatMap { text in
        // The text ends with its terminating NUL.
        let fields = text.dropLast().split(
          separator: UInt8(ascii: ";"), maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5, let uid = UInt32(String(decoding: fields[1], as: UTF8.self))
        else { return .failure(Failure(errno: EINVAL, call: call)) }
        return .success(
          (
            String(decoding: fields[0], as: UTF8.self), uid,
            String(decoding: fields[4], as: UTF8.self)
          ))
      }
    }

    /// `keyctl(operation, id, buffer, length)` for a reply of unknown length,
    /// which the kernel writes only when it fits and whose full size it
    /// returns either way: asked with room for `room` elements, and again
    /// with room for what it said (and `slack` more, for a list that may grow
    /// meanwhile) until it fits. Not for secrets: the buffer is an `Array`.
    private static func readGrowing<Element: FixedWidthInteger>(
      _ operation: Int32, of id: Int, call: String, room initialRoom: Int, slack: Int = 0
    ) -> Result<[Element], Failure> {
      var room = initialRoom
      while true {
        var elements = [Element](repeating: 0, count: room)
        let answered = elements.withUnsafeMutableBytes { bytes in
          answer(call: call) {
            secretfield_keyctl(
              operation, UInt(bitPattern: id), UInt(bitPattern: bytes.baseAddress),
              UInt(bytes.count), 0)
          }
        }
        switch answered {
        case .failure(let failure): return .failure(failure)
        case .success(let size):
          let count = size / MemoryLayout<Element>.size
          if count <= room { return .success(Array(elements[..<count])) }
          room = count + slack
        }
      }
    }

    private static func answer(call: String, _ body: () -> Int) -> Answer {
      let result = body()
      return result >= 0 ? .success(result) : .failure(Failure(errno: Kernel.errno, call: call))
    }

    /// The per-user quota the kernel enforces on keys, from
    /// `/proc/sys/kernel/keys/` (`maxkeys` and `maxbytes`, or `root_maxkeys`
    /// and `root_maxbytes` for root); nil where a file cannot be read.
    static var quota: (keys: Int?, bytes: Int?, files: String) {
      let prefix = getuid() == 0 ? "root_" : ""
      let directory = "/proc/sys/kernel/keys/"
      return (
        readNumber(directory + prefix + "maxkeys"), readNumber(directory + prefix + "maxbytes"),
        "\(directory)\(prefix)maxkeys and \(prefix)maxbytes"
      )
    }

    private static func readNumber(_ path: String) -> Int? {
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var bytes = [UInt8](repeating: 0, count: 32)
      let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return nil }
      return Int(String(decoding: bytes[..<count], as: UTF8.self).filter(\.isNumber))
    }
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let failure) = self { failure } else { nil }
  }
}
