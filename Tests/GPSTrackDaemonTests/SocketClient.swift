import Foundation

/// A raw client of the control socket for tests: bytes out, lines in, with a receive timeout
/// so a missing answer fails the test instead of hanging it.
final class SocketClient: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String, timeout: Int = 10) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes {
                Foundation.send(fd, $0.baseAddress! + off, $0.count - off, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return }
            off += n
        }
    }

    /// True once the peer has hung up (a read returned 0), as opposed to a receive timeout.
    private(set) var sawEOF = false

    /// The next line; nil at EOF or after the timeout.
    func readLine() -> String? {
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { sawEOF = true }
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    func request(_ line: String) -> [String: Any]? {
        send(line + "\n")
        return readLine().flatMap(ExecutableRunner.json)
    }
}
