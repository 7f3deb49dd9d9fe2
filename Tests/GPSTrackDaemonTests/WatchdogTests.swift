import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// A datagram socket standing in for systemd's NOTIFY_SOCKET.
final class NotifySocket {
    let path: String
    let fd: Int32

    init(_ name: String) throws {
        path = NSTemporaryDirectory() + "gpstrackd-\(name)-\(getpid()).sock"
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next message, or nil after 0.2 s without one.
    func receive() -> String? {
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buf, buf.count, 0)
        return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : nil
    }

    deinit {
        close(fd)
        unlink(path)
    }
}

/// The watchdog is fed only while the gpsd reader, the tracker, the store and the pedometer
/// make progress.
@Suite(.serialized) struct WatchdogTests {
    /// Runs the daemon under a 2 s watchdog, fed a walk by a fake gpsd, with `stall` (a part
    /// told to hang, through GPSTRACKD_TEST_STALL) or none.
    struct Run {
        let process = Process()
        let notify: NotifySocket
        let gpsd: FakeGPSD
        let stderrPath: String
        /// A step counter, so that the pedometer's thread works too.
        let tree: IIOTree

        init(stall: String?) throws {
            notify = try NotifySocket("watchdog-\(stall ?? "none")")
            tree = try IIOTree("watchdog-\(stall ?? "none")")
            try tree.addCounter("iio:device0", name: "bma400", steps: 10)
            let config = notify.path + ".conf"
            try PedometerLiveTests.config(tree).write(toFile: config, atomically: true, encoding: .utf8)
            let trace = LiveDaemonTests.walk(seconds: 600, seed: 5)
            gpsd = try FakeGPSD(lines: trace.fixes.map { GPSDLogWriter.tpv($0) + "\n" }, gap: 0.05)
            stderrPath = notify.path + ".stderr"
            _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
            process.executableURL = URL(fileURLWithPath: ExecutableRunner.binary)
            process.arguments = [
                "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)", "--log", "stderr",
                "--socket", notify.path + ".control", "--state-dir", notify.path + ".state",
            ]
            var env = ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "2000000"]
            if let stall { env["GPSTRACKD_TEST_STALL"] = stall }
            process.environment = env
            process.standardError = FileHandle(forWritingAtPath: stderrPath)
            try process.run()
        }

        var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

        /// Collects notifications for `seconds`.
        func messages(for seconds: Double) -> [String] {
            var out: [String] = []
            let end = Date().addingTimeInterval(seconds)
            while Date() < end { if let m = notify.receive() { out.append(m) } }
            return out
        }

        func end() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            gpsd.stop()
            try? FileManager.default.removeItem(atPath: notify.path + ".state")
            try? FileManager.default.removeItem(atPath: notify.path + ".conf")
        }
    }

    @Test func aHealthyDaemonFeedsTheWatchdog() throws {
        let run = try Run(stall: nil)
        defer { run.end() }
        try LiveHarness.waitFor("the fake gpsd's WATCH", timeout: 20) { run.gpsd.state.sawWatch }
        // Interval 2 s, a ping every 1 s: 5 s of a working daemon bring several.
        let pings = run.messages(for: 5).filter { $0.contains("WATCHDOG=1") }
        #expect(pings.count >= 3)
        #expect(!run.stderr.contains("Stalled"))
        #expect(run.stderr.contains("bma400"), "the pedometer found its counter: \(run.stderr)")
    }

    @Test(arguments: ["gpsd_reader", "tracker", "store", "pedometer"])
    func aStuckPartStopsThePingsAndIsNamed(_ part: String) throws {
        let run = try Run(stall: part)
        defer { run.end() }
        var seen: [String] = []
        try LiveHarness.waitFor("a 'stalled' entry", timeout: 30) {
            seen += run.messages(for: 0.2)
            return run.stderr.contains("GPSTRACK_PART=\(part)")
        }
        let entry = run.stderr.split(separator: "\n").first { $0.contains("GPSTRACK_PART=\(part)") } ?? ""
        #expect(entry.contains("<err> Stalled:"))
        // Pings sent before the stall was seen may still be queued: drain, then listen.
        let after = run.messages(for: 4)
        #expect(!after.contains { $0.contains("WATCHDOG=1") }, "pings go on: \(after)")
        #expect((seen + after).contains { $0.contains("STATUS=stalled: ") && $0.contains(part) })
    }
}
