import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// A full disk, for real: the state directory on a small tmpfs (mounted by the test, which runs
/// as root), filled with a file before a gpsfake walk across four fences and freed during it.
@Suite(
    .serialized,
    .enabled(if: LiveHarness.available && getuid() == 0, "mounting a tmpfs needs root; `make test` runs as root in CI"))
struct FullDiskTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// A small tmpfs at a fresh directory; unmounted on deinit.
    final class SmallDisk {
        let path: String
        init(kib: Int) throws {
            path = NSTemporaryDirectory() + "gpstrackd-full-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let r = try ExecutableRunner.run(
                ["-t", "tmpfs", "-o", "size=\(kib)k,mode=0755", "tmpfs", path], executable: "/usr/bin/mount")
            guard r.status == 0 else { throw LiveHarness.Timeout(what: "mount tmpfs: \(r.stderr)") }
        }
        var filler: String { path + "/filler" }
        /// Writes a file until the disk is full (ENOSPC); returns the bytes written.
        @discardableResult
        func fill() -> Int {
            let fd = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            guard fd >= 0 else { return 0 }
            defer { close(fd) }
            let block = [UInt8](repeating: 0x5a, count: 4096)
            var total = 0
            while true {
                let n = write(fd, block, block.count)
                if n <= 0 { break }
                total += n
            }
            // Partial blocks too: not one byte left.
            while write(fd, block, 1) == 1 { total += 1 }
            return total
        }
        func free() { unlink(filler) }
        deinit {
            _ = try? ExecutableRunner.run(["-l", path], executable: "/usr/bin/umount")
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Four circles of 40 m along the eastward walk: eight transitions.
    static func fencesFile(_ name: String) throws -> String {
        let features = [120.0, 300, 480, 660].enumerated().map { i, d -> String in
            let c = Geodesic.destination(from: LiveDaemonTests.base, azimuth: 90, distance: d)
            return
                #"{"type":"Feature","id":"f\#(i + 1)","properties":{"radius":40},"geometry":{"type":"Point","coordinates":[\#(c.longitude),\#(c.latitude)]}}"#
        }
        return try ExecutableRunner.temporaryFile(
            name, contents: #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
    }

    static func transitions(_ daemon: LiveHarness.DaemonProcess) throws -> [[String: Any]] {
        try daemon.entries().filter { ["enter", "exit"].contains($0["GPSTRACK_EVENT"] as? String ?? "") }
    }

    static func realtime(_ entry: [String: Any]) -> Int { Int(entry["__REALTIME_TIMESTAMP"] as? String ?? "") ?? 0 }

    /// `PRAGMA integrity_check` through Python's sqlite3 module (another SQLite client).
    static func integrity(_ db: String) throws -> String {
        let r = try ExecutableRunner.run(
            [
                "-c",
                "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])",
                db,
            ],
            executable: "/usr/bin/python3")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + r.stderr
    }

    /// Runs the walk with the disk filled before the first fix and freed after five
    /// transitions (or, with `freeAfterTheWalk`, once the walk is over); `extraConfig` adds
    /// MQTT, `beforeFeed` runs once the daemon started and `afterFree` once space returned.
    /// Returns the daemon (still running, the walk over), the disk and the seconds from freeing
    /// the space to `storage_recovered` (nil when the space returns after the walk).
    static func walkOnAFullDisk(
        _ name: String, extraConfig: String = "", freeAfterTheWalk: Bool = false,
        beforeFeed: (LiveHarness.DaemonProcess) throws -> Void = { _ in },
        afterFree: () throws -> Void = {}
    ) throws
        -> (daemon: LiveHarness.DaemonProcess, disk: SmallDisk, recoverS: Double?)
    {
        // Room for the WAL (up to 1,000 pages before a checkpoint) once the filler is gone.
        let disk = try SmallDisk(kib: 8192)
        let trace = LiveDaemonTests.walk(seconds: 560, seed: 16)
        let log = try LiveHarness.nmeaFile("\(name).nmea", fixes: trace.fixes, padding: 100)
        let port = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(port)", "--fences", try fencesFile("\(name).geojson")],
            extraConfig: extraConfig, stateDirectory: disk.path + "/state")
        try daemon.waitFor("started", timeout: 20)
        try beforeFeed(daemon)
        // Full before the first fix: filled after the first `enter` instead (as it was), the
        // spell began wherever the walk was when the journal showed that enter, and under load
        // that was past the fifth transition (CI stop 49: none of them during the spell).
        #expect(disk.fill() > 0)
        let feed = try LiveHarness.Feed(log: log, port: port, cycle: 0.01)
        defer { feed.stop() }
        try daemon.waitFor("storage_degraded", timeout: 60)
        if freeAfterTheWalk {
            try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 120)
            disk.free()
            try afterFree()
            return (daemon, disk, nil)
        }
        // Five transitions happen while the disk is full.
        try LiveHarness.waitFor("transitions during the spell", timeout: 60) { try transitions(daemon).count >= 5 }
        disk.free()
        let freed = Date()
        try daemon.waitFor("storage_recovered", timeout: 60)
        let recovered = Date().timeIntervalSince(freed)
        try afterFree()
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 120)
        return (daemon, disk, recovered)
    }

    static let expected = ["enter f1", "exit f1", "enter f2", "exit f2", "enter f3", "exit f3", "enter f4", "exit f4"]

    /// One degraded spell with at least three transitions in it, all eight in the journal.
    static func checkTheSpell(_ daemon: LiveHarness.DaemonProcess) throws {
        #expect(try daemon.entries("storage_degraded").count == 1, "one entry per spell, not per retry")
        #expect(try daemon.entries("storage_recovered").count == 1, "one entry per spell, not per retry")
        let degraded = try #require(try daemon.entries("storage_degraded").first)
        #expect(
            (degraded["MESSAGE"] as? String)?.contains("full") == true,
            "names the problem: \(degraded["MESSAGE"] ?? "")")
        let recovered = try #require(try daemon.entries("storage_recovered").first)
        let during = try transitions(daemon).filter {
            realtime($0) > realtime(degraded) && realtime($0) < realtime(recovered)
        }
        #expect(during.count >= 3, "transitions reported while the disk was full: \(during.count)")
        #expect(try transitions(daemon).count == 8, "the journal carries on")
    }

    @Test func eventsWaitInMemoryAndAreWrittenOnceSpaceReturns() throws {
        let (daemon, disk, recoverS) = try Self.walkOnAFullDisk("fulldisk")
        print(
            "full disk: storage_recovered \(String(format: "%.2f", recoverS ?? -1)) s after the space returned (gpsfake at 0.04 s per fix)"
        )
        try Self.checkTheSpell(daemon)

        // Every event in the database, once, in order: the 8 transitions among them.
        let client = try SocketClient(path: daemon.socketPath)
        let events = try #require(client.request(#"{"cmd":"events"}"#)?["events"] as? [[String: Any]])
        let seqs = events.compactMap { $0["seq"] as? Int }
        #expect(seqs.count == events.count && seqs == seqs.sorted() && Set(seqs).count == seqs.count)
        let stored = events.filter { ["enter", "exit"].contains($0["event"] as? String ?? "") }
            .map { "\($0["event"] as? String ?? "") \($0["fence"] as? String ?? "")" }
        #expect(stored == Self.expected)
        let loggedSeqs = try Self.transitions(daemon).compactMap { Int($0["GPSTRACK_SEQ"] as? String ?? "") }
        #expect(Set(loggedSeqs).isSubset(of: Set(seqs)), "the journal's transitions are the stored ones")
        // Track points waited too: every delivered position is stored, in the one trip.
        let status = try #require(client.request(#"{"cmd":"status"}"#))
        let delivered = try #require((status["counters"] as? [String: Any])?["fixes_delivered"] as? Int)
        let export = try #require(client.request(#"{"cmd":"export","trip":1}"#))
        #expect(
            export["points"] as? Int == delivered && delivered > 50,
            "points: \(export["points"] ?? "none") of \(delivered)")
        #expect((client.request(#"{"cmd":"trips"}"#)?["trips"] as? [Any])?.count == 1)
        #expect(daemon.stop() == 0)
        #expect(try Self.integrity(disk.path + "/state/gpstrackd.db") == "ok")
    }

    /// The space returns only after the walk: no fix comes to retry on, and what waits is
    /// written at shutdown (the code before the fix stored 1 of the 8 here: only the one before the
    /// disk filled; what waited was dropped at shutdown).
    @Test func whatWaitsIsWrittenAtShutdownWhenNoFixComes() throws {
        let (daemon, disk, _) = try Self.walkOnAFullDisk("fulldisk-late", freeAfterTheWalk: true)
        #expect(try daemon.entries("storage_recovered").isEmpty, "still degraded when the walk ends")
        #expect(daemon.stop() == 0)
        try daemon.waitFor("storage_recovered", timeout: 10)
        try Self.checkTheSpell(daemon)
        let r = try ExecutableRunner.run(
            [
                "-c",
                """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                print(db.execute('PRAGMA integrity_check').fetchone()[0])
                for e, f in db.execute("SELECT event, fence FROM events WHERE event IN ('enter', 'exit') ORDER BY seq"): print(e, f)
                """, disk.path + "/state/gpstrackd.db",
            ], executable: "/usr/bin/python3")
        #expect(r.lines == ["ok"] + Self.expected, "\(r.stdout)\(r.stderr)")
    }

    /// The broker is down while the disk is full: transitions wait in memory for the outbox
    /// table, then in the table, and all eight reach a subscriber once, in order.
    @Test func theOutboxWaitsInMemoryWhileTheDiskIsFull() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-fulldisk-mqtt-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let mqttPort = LiveHarness.freePort()
        var broker = try MQTTTests.Broker(port: mqttPort, dir: dir)
        // Ready when made: its subscription has carried a probe back through the broker.
        let sub = try MQTTTests.Subscriber(port: mqttPort, file: dir + "/sub.txt")
        let config =
            "mqtt_host = 127.0.0.1\nmqtt_port = \(mqttPort)\nmqtt_topic = owntracks/fleet/full\nmqtt_min_interval_s = 5\n"
        let (daemon, disk, _) = try Self.walkOnAFullDisk(
            "fulldisk-mqtt", extraConfig: config,
            beforeFeed: { daemon in
                try daemon.waitFor("mqtt_connected", timeout: 20)
                broker.stop()
                try daemon.waitFor("mqtt_lost", timeout: 20)
            },
            afterFree: {
                broker = try MQTTTests.Broker(port: mqttPort, dir: dir)
            })
        defer { broker.stop() }
        try Self.checkTheSpell(daemon)
        try LiveHarness.waitFor("eight transitions at the subscriber", timeout: 60) {
            sub.messages().filter { $0.1["_type"] as? String == "transition" }.count >= 8
        }
        try LiveHarness.waitFor("an empty outbox", timeout: 20) {
            (try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#)?["mqtt"] as? [String: Any])?[
                "outbox"] as? Int == 0
        }
        let got = sub.messages().filter { $0.1["_type"] as? String == "transition" }
            .map { "\($0.1["event"] as? String == "leave" ? "exit" : "enter") \($0.1["rid"] as? String ?? "")" }
        #expect(got == Self.expected, "every transition once, in order")
        #expect(try daemon.entries("mqtt_lost").count == 1)
        // A failed outbox write degrades the outbox visibly, once per spell, and it recovers
        // (issue 13). Since issue 30 the room the store makes on a full disk (checkpoints, its
        // reserve) mostly lets the outbox's rows in too: then there is no spell.
        let outboxDegraded = try daemon.entries("mqtt_outbox_degraded")
        #expect(outboxDegraded.count <= 1, "one entry per spell")
        #expect(
            outboxDegraded.allSatisfy { ($0["MESSAGE"] as? String)?.contains("full") == true },
            "names the problem: \(outboxDegraded)")
        #expect(try daemon.entries("mqtt_outbox_recovered").count == outboxDegraded.count)
        let mqtt = try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#)?["mqtt"] as? [String: Any]
        #expect(mqtt?["outbox_state"] as? String == "ok", "\(mqtt ?? [:])")
        #expect(daemon.stop() == 0)
        #expect(try Self.integrity(disk.path + "/state/gpstrackd.db") == "ok")
    }
}
