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
@Suite(.serialized, .needsLiveParts)
struct WatchdogTests {
    /// Runs the daemon fed a walk by gpsd through gpsfake, under a 2 s watchdog (or none),
    /// with `stall` (a part told to hang for good, through GPSTRACKD_TEST_STALL) or none.
    struct Run {
        let process = Process()
        let notify: NotifySocket
        let feed: LiveHarness.Feed
        let stderrPath: String
        /// A step counter, so that the pedometer's thread works too.
        let tree: IIOTree

        /// When the process was started (its journal entries are looked for from then on).
        let started = Date()

        init(stall: String?, watchdog: Bool = true, log: String = "stderr") throws {
            let name = "watchdog-\(stall ?? "none")-\(watchdog ? "2s" : "off")"
            notify = try NotifySocket(name)
            tree = try IIOTree(name)
            try tree.addCounter("iio:device0", name: "bma400", steps: 10)
            let config = notify.path + ".conf"
            try PedometerLiveTests.config(tree).write(toFile: config, atomically: true, encoding: .utf8)
            let trace = LiveDaemonTests.walk(seconds: 600, seed: 5)
            let port = LiveHarness.freePort()
            // 0.02 s a sentence: the walk lasts longer than any test here waits on it.
            feed = try LiveHarness.Feed(
                log: try LiveHarness.nmeaFile("\(name)-\(getpid()).nmea", fixes: trace.fixes), port: port, cycle: 0.02)
            stderrPath = notify.path + ".stderr"
            _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
            process.executableURL = URL(fileURLWithPath: ExecutableRunner.binary)
            process.arguments = [
                "--config", config, "--gpsd", "127.0.0.1:\(port)", "--log", log,
                "--socket", notify.path + ".control", "--state-dir", notify.path + ".state",
            ]
            var env = ["NOTIFY_SOCKET": notify.path]
            if watchdog { env["WATCHDOG_USEC"] = "2000000" }
            if let stall { env["GPSTRACKD_TEST_STALL"] = stall }
            process.environment = env
            process.standardError = FileHandle(forWritingAtPath: stderrPath)
            try process.run()
        }

        var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

        /// The stderr lines naming `part` (the `stalled` and `stall_over` entries).
        func entries(naming part: String) -> [String] {
            stderr.split(separator: "\n").map(String.init).filter { $0.contains("GPSTRACK_PART=\(part)") }
        }

        /// Collects notifications, in the order sent, until `done` holds for them; the timeout
        /// is a referee that ends a hung test.
        func messages(until what: String, referee: Double, _ done: ([String]) -> Bool) throws -> [String] {
            var out: [String] = []
            try LiveHarness.waitFor(what, timeout: referee) {
                while let m = notify.receive() {
                    out.append(m)
                    if done(out) { return true }
                }
                return done(out)
            }
            return out
        }

        func end() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            feed.stop()
            try? FileManager.default.removeItem(atPath: notify.path + ".state")
            try? FileManager.default.removeItem(atPath: notify.path + ".conf")
        }
    }

    @Test func aHealthyDaemonFeedsTheWatchdog() throws {
        let run = try Run(stall: nil)
        defer { run.end() }
        try LiveHarness.waitFor("the connection to gpsd", timeout: 30) { run.stderr.contains("Receiving from gpsd") }
        // Interval 2 s, a ping every 1 s: three come in about 3 s (60 s: a referee, 20x).
        let seen = try run.messages(until: "three pings", referee: 60) {
            $0.filter { $0.contains("WATCHDOG=1") }.count >= 3
        }
        #expect(!seen.contains { $0.contains("STATUS=stalled") }, "\(seen)")
        #expect(!run.stderr.contains("Stalled"))
        #expect(run.stderr.contains("bma400"), "the pedometer found its counter: \(run.stderr)")
    }

    @Test(arguments: ["gpsd_reader", "tracker", "store", "pedometer"])
    func aStuckPartStopsThePingsAndIsNamed(_ part: String) throws {
        let run = try Run(stall: part)
        defer { run.end() }
        // Every tick sends a ping or, while a part is late, STATUS=stalled instead: the pings
        // stop if, after the first stalled status, three more ticks bring none.
        let seen = try run.messages(until: "four 'stalled' statuses", referee: 120) {
            $0.filter { $0.hasPrefix("STATUS=stalled: ") }.count >= 4
        }
        let first = try #require(seen.firstIndex { $0.hasPrefix("STATUS=stalled: ") })
        // A part waiting on the stuck one (the tracker on the store) may be named first.
        #expect(seen[first...].contains { $0.hasPrefix("STATUS=stalled: ") && $0.contains(part) }, "\(seen)")
        #expect(!seen[first...].contains { $0.contains("WATCHDOG=1") }, "pings go on: \(seen[first...])")
        let entries = run.entries(naming: part)
        #expect(entries.count == 1, "named once: \(entries)")
        #expect(entries.first?.contains("<err> Stalled:") == true, "\(entries)")
    }
}

/// A stall that ends: the pedometer's counter read stuck in its driver (in_steps_input made a
/// FIFO, so the read waits for a writer, as a sysfs read waits in a stuck driver) and then
/// answered. Logged once when it is seen, once when it is over (`stall_over`), with the part's
/// name; under a watchdog the pings stop and come back, without one the stall is logged after
/// the 30 s limit and there are no pings.
extension WatchdogTests {
    @Test(arguments: [true, false])
    func aStallThatEndsIsLoggedAndSoIsItsEnd(watchdog: Bool) throws {
        try LiveHarness.ensureJournald()
        let run = try Run(stall: nil, watchdog: watchdog, log: "journal")
        defer { run.end() }
        let entries = {
            try LiveHarness.journal(["_PID=\(run.process.processIdentifier)"], since: run.started).filter {
                $0["GPSTRACK_PART"] as? String == "pedometer"
            }
        }
        try LiveHarness.waitFor("the pedometer's counter", timeout: 30) {
            try LiveHarness.journal(["_PID=\(run.process.processIdentifier)"], since: run.started).contains {
                $0["GPSTRACK_EVENT"] as? String == "pedometer_found"
            }
        }
        var seen: [String] = []
        let input = run.tree.sys + "/iio:device0/in_steps_input"
        unlink(input)
        try #require(mkfifo(input, 0o600) == 0)
        // The limit: 2 s under the watchdog, 30 s without; referees of 30x and 10x.
        try LiveHarness.waitFor("the 'stalled' entry", timeout: watchdog ? 60 : 300) {
            while let m = run.notify.receive() { seen.append(m) }
            return try !entries().isEmpty
        }
        // The daemon's read waits in open(2) for a writer; this one answers it (after a
        // regular file took the name back, so that the next read does not wait again).
        let writer = open(input, O_WRONLY | O_CLOEXEC)
        try #require(writer >= 0)
        try run.tree.write("iio:device0/in_steps_input", "25")
        #expect("25\n".withCString { write(writer, $0, 3) } == 3)
        close(writer)
        try LiveHarness.waitFor("the 'stall_over' entry", timeout: 60) { try entries().count >= 2 }
        let found = try entries()
        #expect(found.map { $0["GPSTRACK_EVENT"] as? String } == ["stalled", "stall_over"])
        let stalled = try #require(found.first)
        let message = stalled["MESSAGE"] as? String ?? ""
        #expect(stalled["PRIORITY"] as? String == "3")
        #expect(message.hasPrefix("Stalled: the pedometer has made no progress for "), "\(message)")
        let seconds = message.split(separator: "for ").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
        #expect((seconds ?? 0) >= (watchdog ? 2 : 30), "logged past the limit: \(message)")
        let over = try #require(found.last)
        #expect(over["PRIORITY"] as? String == "5")
        #expect(over["MESSAGE"] as? String == "Recovered: the pedometer makes progress again")
        if watchdog {
            // In the order sent: pings, the stalled status (no ping meanwhile), pings again.
            let before = seen
            seen += try run.messages(until: "a ping after the stall", referee: 60) { m in
                let all = before + m
                let stall = all.lastIndex { $0.hasPrefix("STATUS=stalled: ") && $0.contains("pedometer") }
                return stall.map { all[$0...].contains { $0.contains("WATCHDOG=1") } } ?? false
            }
        } else {
            while let m = run.notify.receive() { seen.append(m) }
        }
        #expect(seen.contains { $0.hasPrefix("STATUS=stalled: ") && $0.contains("pedometer") }, "\(seen)")
        #expect(seen.contains { $0.contains("WATCHDOG=1") } == watchdog, "pings only under a watchdog: \(seen)")
    }
}
