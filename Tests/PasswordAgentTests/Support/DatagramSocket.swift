import Foundation
import Glibc
import PTYSupport
import TestSupport

/// An `AF_UNIX`/`SOCK_DGRAM` socket bound at a path, as an asker makes one,
/// for the test to receive an agent's answer on. Dropping it closes and
/// removes it.
final class DatagramSocket {
  let path: String
  let descriptor: Int32

  init(path: String) throws {
    self.path = path
    descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { destination in
      for (index, byte) in bytes.enumerated() { destination[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0 else {
      throw HarnessError("bind \(path): \(String(cString: strerror(errno)))")
    }
  }

  deinit {
    close(descriptor)
    unlink(path)
  }

  /// The next datagram, waiting at most a generous bound; nil when none came.
  func receive() -> [UInt8]? {
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&request, 1, 30_000) == 1 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 8192)
    let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    return got < 0 ? nil : Array(buffer[..<got])
  }
}

extension DatagramSocket {
  /// The datagram waiting now, without waiting; nil when none is there.
  func receiveWaiting() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 8192)
    let got = buffer.withUnsafeMutableBytes {
      recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
    }
    return got < 0 ? nil : Array(buffer[..<got])
  }
}

extension DatagramSocket {
  /// Fills its receive queue from another socket, until a send would block:
  /// an asker that does not read.
  func fillQueue() throws {
    let sender = socket(
      AF_UNIX,
      Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        | Int32(SOCK_NONBLOCK.rawValue), 0)
    defer { close(sender) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { destination in
      for (index, byte) in bytes.enumerated() { destination[index] = byte }
    }
    let filler = [UInt8](repeating: UInt8(ascii: "f"), count: 64)
    while true {
      let sent = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
          filler.withUnsafeBytes {
            sendto(
              sender, $0.baseAddress, $0.count, 0, target,
              socklen_t(MemoryLayout<sockaddr_un>.size))
          }
        }
      }
      guard sent < 0 else { continue }
      guard errno == EAGAIN else {
        throw HarnessError("sendto \(path): \(String(cString: strerror(errno)))")
      }
      return
    }
  }

  /// Reads the filler away until the first datagram that is not filler,
  /// which it returns; nil when none comes.
  func drainUntilAnswer() -> [UInt8]? {
    while let datagram = receive() {
      if datagram.first != UInt8(ascii: "f") { return datagram }
    }
    return nil
  }
}
