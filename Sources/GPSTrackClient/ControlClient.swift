import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A connection to gpstrackd's control socket: request lines out, reply lines in. gpstrackctl
/// and the tests use it; the daemon's side is `ControlServer`.
public final class ControlClient {
    public struct Unreachable: Error, CustomStringConvertible {
        public var path: String
        public var code: Int32
        public var description: String { "\(path): \(String(cString: strerror(code)))" }
    }

    public let fd: Int32
    private var buffer: [UInt8] = []
    /// How much of `buffer` holds no line end: a long line (the legacy export's) is searched
    /// once, not again from its start at every read.
    private var scanned = 0
    /// True once the daemon has hung up (a read returned 0), as opposed to a receive timeout.
    public private(set) var sawEOF = false

    /// Connects to the socket at `path`; with `receiveTimeoutS`, a read that waits longer ends
    /// as if the daemon had hung up (tests: a missing answer fails instead of hanging).
    public init(path: String, receiveTimeoutS: Int? = nil) throws(Unreachable) {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            throw Unreachable(path: path, code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { throw Unreachable(path: path, code: errno) }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else {
            let code = errno
            close(s)
            throw Unreachable(path: path, code: code)
        }
        if let receiveTimeoutS {
            var tv = timeval(tv_sec: receiveTimeoutS, tv_usec: 0)
            setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
        fd = s
    }

    deinit { close(fd) }

    /// Sends `line` and its newline; false when the daemon is gone.
    @discardableResult
    public func send(_ line: String) -> Bool { writeAll(fd, line + "\n", socket: true) == 0 }

    /// Sends `bytes` as they are (tests: partial, oversized or hostile requests).
    @discardableResult
    public func sendRaw(_ bytes: [UInt8]) -> Bool { writeAll(fd, bytes, socket: true) == 0 }

    /// The next reply line; at the end, what is left without its newline, then nil.
    public func readLine() -> String? {
        while true {
            if let nl = buffer[scanned...].firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                scanned = 0
                return line
            }
            scanned = buffer.count
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }  // a receive timeout, or the socket failed
            if n == 0 {
                sawEOF = true
                guard !buffer.isEmpty else { return nil }
                defer {
                    buffer.removeAll()
                    scanned = 0
                }
                return String(decoding: buffer, as: UTF8.self)
            }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
