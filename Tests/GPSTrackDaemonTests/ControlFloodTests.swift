import Foundation
import Testing

@testable import GPSTrackDaemon

/// Bounded memory per client (issue 38): a client that floods the control socket with requests
/// and never reads a reply costs the daemon a bounded buffer, not its memory. The server stops
/// reading from it once its replies are unread and its input waits; the kernel's socket buffer
/// then stops the client. A reply of any size (the legacy export) is written as it is read.
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

    /// `export --gpx` of 40,000 stored points (an 11 MB line): the daemon writes it a page at a
    /// time as the client reads, so its peak RSS grows by a few MiB whatever the history's size
    /// (4.6 MiB here, 5.6 for 200,000 points); building the line whole, as before, grew it by
    /// several times the line. Every point arrives, in a line that reads.
    @Test func aLegacyExportOfFortyThousandPointsStreamsInBoundedMemory() throws {
        let n = 40_000
        let state = NSTemporaryDirectory() + "gpstrackd-export-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: state) }
        do {
            let db = try SQLiteDatabase(path: state + "/gpstrackd.db")
            try Schema.prepare(db)
            // One odometer run north along 8.5° E, a point a second from 2026-03-14T08:00:00Z.
            _ = try db.query(
                """
                WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < \(n - 1))
                INSERT INTO points (trip_id, time, lat, lon, alt, eph, mode, hdop, sats)
                SELECT 1, 1773475200 + i, 47.0 + i * 0.000001, 8.5, 500, 4, 3, 0.9, 9 FROM k
                """)
        }
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(LiveHarness.freePort())"], stateDirectory: state)
        try daemon.waitFor("started", timeout: 20)
        let warm = try SocketClient(path: daemon.socketPath)
        #expect(warm.request(#"{"cmd":"status"}"#)?["ok"] as? Bool == true)
        let before = try Self.memoryKiB(daemon.pid, "VmHWM")

        let client = try SocketClient(path: daemon.socketPath, timeout: 120)
        client.send(#"{"cmd":"export","format":"gpx"}"# + "\n")
        let line = try #require(client.readLine(), "no reply to the export")
        let after = try Self.memoryKiB(daemon.pid, "VmHWM")
        #expect(line.utf8.count > 10 << 20, "the line is \(line.utf8.count) bytes")
        #expect(
            after - before < 12 * 1024, "peak RSS grew by \(after - before) KiB for a \(line.utf8.count)-byte reply")

        let reply = try #require(ExecutableRunner.json(line), "the line is not JSON: \(line.suffix(200))")
        #expect(reply["ok"] as? Bool == true && reply["points"] as? Int == n, "\(line.suffix(200))")
        let gpx = try #require(reply["gpx"] as? String)
        #expect(gpx.hasPrefix("<?xml") && gpx.hasSuffix("</gpx>\n"))
        let points = gpx.utf8.split(separator: UInt8(ascii: "\n")).filter {
            $0.starts(with: Array("      <trkpt ".utf8))
        }
        #expect(points.count == n, "\(points.count) track points of \(n)")
        // The others' requests are still answered.
        #expect(warm.request(#"{"cmd":"status"}"#)?["ok"] as? Bool == true)
        #expect(daemon.stop() == 0)
    }
}
