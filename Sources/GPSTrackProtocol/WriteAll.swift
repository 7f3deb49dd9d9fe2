#if canImport(Glibc)
import Glibc
#endif

/// Writes every byte of `bytes` to `fd`: again after a short write or EINTR. A socket is written
/// with `send(MSG_NOSIGNAL)`, so a peer that hung up gives EPIPE instead of SIGPIPE.
/// Returns 0, or the errno of the write that failed (EIO for one that wrote nothing).
@discardableResult
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, socket: Bool = false) -> Int32 {
    guard let base = bytes.baseAddress else { return 0 }
    var off = 0
    while off < bytes.count {
        let n =
            socket
            ? Glibc.send(fd, base + off, bytes.count - off, Int32(MSG_NOSIGNAL))
            : Glibc.write(fd, base + off, bytes.count - off)
        if n < 0 && errno == EINTR { continue }
        if n < 0 { return errno }
        if n == 0 { return EIO }
        off += n
    }
    return 0
}

/// `writeAll` of an array's bytes.
@discardableResult
public func writeAll(_ fd: Int32, _ bytes: [UInt8], socket: Bool = false) -> Int32 {
    bytes.withUnsafeBytes { writeAll(fd, $0, socket: socket) }
}

/// `writeAll` of a string's UTF-8.
@discardableResult
public func writeAll(_ fd: Int32, _ text: String, socket: Bool = false) -> Int32 {
    var text = text
    return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0), socket: socket) }
}
