import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Buffered writes to a file descriptor, flushed when the buffer fills and on `flush()`.
public final class OutputWriter {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int

    public init(fd: Int32, capacity: Int = 1 << 16) {
        self.fd = fd
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    /// Appends a line and a newline.
    public func writeLine(_ text: String) throws(ErrnoError) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(10)
        if buffer.count >= capacity { try flush() }
    }

    /// Writes out everything buffered.
    public func flush() throws(ErrnoError) {
        let code = writeAll(fd, buffer)
        if code != 0 { throw ErrnoError(call: "write", code: code) }
        buffer.removeAll(keepingCapacity: true)
    }
}
