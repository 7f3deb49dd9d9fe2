import Foundation
import Testing

/// Bounded memory per client (issue 38): a client that floods the control socket with requests
/// and never reads a reply costs the daemon a bounded buffer, not its memory. The server stops
/// reading from it once its replies are unread and its input waits; the kernel's socket buffer
/// then stops the client.
@Suite(.serialized, .needsLiveParts)
struct ControlFloodTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// A line of /proc/PID/status, in KiB (VmRSS, VmHWM).
    static func memoryKiB(_ pid: Int32, _ key: String) throws -> Int {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(key + ":") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    @Test func aHundredMebibyteFloodLeavesTheDaemonsMemoryBounded() throws {
        let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(LiveHarness.freePort())"])
        try daemon.waitFor("started", timeout: 20)
        let warm = try SocketClient(path: daemon.socketPath)
        #expect(warm.request(#"{"cmd":"status"}"#)?["ok"] as? Bool == true)
        let before = try Self.memoryKiB(daemon.pid, "VmHWM")

        // 100 MiB of status requests, never reading a reply; written until all is sent or the
        // socket stays unwritable for 5 s (the daemon no longer reads: the bound at work).
        let flood = try SocketClient(path: daemon.socketPath)
        _ = fcntl(flood.fd, F_SETFL, fcntl(flood.fd, F_GETFL) | O_NONBLOCK)
        let line = Array(#"{"cmd":"status"}"#.utf8) + [10]
        let chunk = [UInt8]((0..<(1 << 20) / line.count).flatMap { _ in line })
        let total = 100 << 20
        var sent = 0
        var offset = 0
        while sent < total {
            let n = chunk[offset...].withUnsafeBytes { send(flood.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                sent += n
                offset = (offset + n) % chunk.count
                continue
            }
            guard errno == EAGAIN || errno == EWOULDBLOCK else { break }
            var p = pollfd(fd: flood.fd, events: Int16(POLLOUT), revents: 0)
            if poll(&p, 1, 5000) == 0 { break }
        }
        let after = try Self.memoryKiB(daemon.pid, "VmHWM")
        #expect(sent < total, "the daemon read all \(sent) bytes: nothing held the client back")
        #expect(after - before < 32 * 1024, "peak RSS grew by \(after - before) KiB under the flood")
        // Others are served meanwhile.
        #expect(try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#)?["ok"] as? Bool == true)
        #expect(daemon.stop() == 0)
    }
}
