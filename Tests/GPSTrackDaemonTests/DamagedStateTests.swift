import Foundation
import Testing

@testable import GPSTrackDaemon

/// A state database that passes `quick_check` but holds figures no run writes: reals of 1e300
/// where integers belong, times and distances beyond any Earth, integers beyond Int32, a
/// negative sequence number, garbage JSON. A damaged SD card or a hand edit gives such a file.
/// The daemon starts on it, answers every command, tracks a walk through gpsd and stops with 0:
/// no trap on the way.
@Suite(.serialized) struct DamagedStateTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// The walk's start (`LiveDaemonTests.walk`) is inside; it leaves after about 40 s.
    static let fences = """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"gate","properties":{"radius":60},
         "geometry":{"type":"Point","coordinates":[8.5417,47.3769]}}]}
        """

    /// One row of out-of-range figures in every table a start or a command reads.
    static let damage = [
        """
        INSERT OR REPLACE INTO trips VALUES (1, 'running', 1e300, 1e300, -1e300, -1e300, 1e300, -1e300,
          1e300, -1e300, 1e300, 1e300)
        """,
        "INSERT INTO trips VALUES (2, 'ended', -1e300, 91, 181, 1e300, -5, 1e300, NULL, NULL, NULL, -1)",
        "INSERT INTO points VALUES (1, 1, 1e300, 1e300, -1e300, 1e300, 1e300, 99999999999, 1e300, 1e300, 1e300)",
        "INSERT INTO points VALUES (2, 2, -1e300, 52.5, 13.4, NULL, NULL, 1e300, NULL, -99999999999, -1e300)",
        """
        INSERT INTO events VALUES (-7, 1e300, 'enter', 'gate', '{"event":"enter","fence":'),
          (9000000000000000000, -1e300, 'trip_end', NULL, '{"seq":1e300}')
        """,
        "INSERT OR REPLACE INTO fences VALUES ('gate', 99999999999, 1e300, -1e300, 1e300)",
        """
        INSERT INTO auto_trips VALUES (1, -1e300, 1e300, 1e300, -1e300, 'gate', 91, 181, '', 1e300, -1e300,
          1e300, 1e300, -1e300)
        """,
        "INSERT INTO stops VALUES (1e300, -1e300, 1e300, 1e300, 'gate', 99999999999)",
        "INSERT OR REPLACE INTO motion VALUES (1, 'v=1 state=garbage since=1e300')",
        // The names the store reads (Store.counters(from:)): Int64's greatest trapped at the
        // next fix (total += 1); a negative count and a real are no count either.
        """
        INSERT OR REPLACE INTO counters VALUES ('total', 9223372036854775807), ('accepted', -99999999999),
          ('delivered', 1e300), ('rejected.duplicate', -5)
        """,
        "INSERT OR REPLACE INTO anchor VALUES (1, '{\"lat\":1e300,\"lon\":\"x\"}')",
        """
        INSERT INTO uplink_outbox (id, uplink, kind, topic, payload, qos, queued) VALUES
          (2, 'mqtt', 'location', 'owntracks/x/y', '{\"_type\":', 99999999999, 1e300)
        """,
        "INSERT INTO uplink_outbox (id, uplink, kind, payload, queued, fix_time) VALUES (1, 'traccar', 'location', 'id=x', -1e300, 1e300)",
        """
        INSERT OR REPLACE INTO pedometer VALUES (1, 1e300, 1e300, -1e300, 99999999999, 1e300, 1e300,
          1e300, 1e300, -1e300)
        """,
        "INSERT INTO steps VALUES (1, 1e300, 1e300, 1e300, -1e300), (2, -1e300, -5, 0, 0)",
    ]

    /// Each fix counter of a status reply is a count (0 to 2^53 - 1) and no more fixes were
    /// accepted, delivered or rejected than offered.
    static func expectSaneCounters(_ status: [String: Any], _ when: String) throws {
        let counters = try #require(status["counters"] as? [String: Any], "\(when): \(status)")
        let count = 0...(1 << 53 - 1)
        let total = try #require(counters["fixes_total"] as? Int, "\(when): \(counters)")
        let accepted = try #require(counters["fixes_accepted"] as? Int, "\(when): \(counters)")
        let delivered = try #require(counters["fixes_delivered"] as? Int, "\(when): \(counters)")
        let rejected = (counters["fixes_rejected"] as? [String: Any] ?? [:]).values.compactMap { $0 as? Int }
        #expect(
            ([total, accepted, delivered] + rejected).allSatisfy(count.contains) && accepted <= total
                && delivered <= accepted && rejected.reduce(0, +) <= total,
            "\(when): \(counters)")
    }

    @Test func theDaemonStartsOnItAnswersEveryCommandAndStops() throws {
        let fences = try ExecutableRunner.temporaryFile("damaged-\(getpid()).geojson", contents: Self.fences)
        let gpsd = LiveHarness.freePort()
        let mqtt = LiveHarness.freePort()
        let http = LiveHarness.freePort()
        let tree = try IIOTree("damaged")
        try tree.addCounter("iio:device0", name: "bma400", steps: 1200)
        let config = """
            iio_root = \(tree.sys)
            iio_dev_root = \(tree.dev)
            trip_mode = auto
            mqtt_host = 127.0.0.1
            mqtt_port = \(mqtt)
            traccar_url = http://127.0.0.1:\(http)/
            traccar_device_id = box

            """
        let first = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:1", "--fences", fences], extraConfig: config)
        try first.waitFor("started")
        #expect(first.stop() == 0)

        do {
            let db = try SQLiteDatabase(path: first.stateDirectory + "/gpstrackd.db")
            for sql in Self.damage { _ = try db.query(sql) }
            #expect(try db.query("PRAGMA quick_check").first?.first?.string == "ok")
        }

        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsd)", "--fences", fences], extraConfig: config,
            stateDirectory: first.stateDirectory)
        try daemon.waitFor("started")
        let ctl = URL(fileURLWithPath: ExecutableRunner.binary).deletingLastPathComponent()
            .appendingPathComponent("gpstrackctl").path
        let commands: [[String]] = [
            ["status"], ["metrics"], ["fences"], ["state", "gate"], ["trips"], ["stops"], ["events"],
            ["events", "--fence", "gate"], ["steps"], ["anchor"],
            ["export", "--format", "gpx"], ["export", "--format", "geojson", "--fences"],
            ["export", "--format", "kml"],
            ["export", "--format", "csv"], ["export", "--format", "html"], ["export", "--format", "svg"],
            ["export", "--gpx", "--trip", "1"], ["export", "--anchor", "--format", "gpx"],
        ]
        func everyCommand() throws {
            for command in commands {
                for json in command[0] == "export" ? [false] : [false, true] {
                    let r = try ExecutableRunner.run(
                        ["--socket", daemon.socketPath] + (json ? ["--json"] : []) + command, executable: ctl)
                    #expect([0, 1, 66].contains(r.status), "\(command) json \(json): exit \(r.status), \(r.stderr)")
                    try #require(
                        daemon.process.isRunning, "the daemon ended at \(command): \(daemon.process.terminationStatus)")
                }
            }
        }
        try everyCommand()
        // The damaged counters were read as none: sane figures to count on from.
        let restored = try #require(try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#))
        try Self.expectSaneCounters(restored, "after the start")
        let steps = try ExecutableRunner.run(["--socket", daemon.socketPath, "steps"], executable: ctl)
        #expect(steps.status == 0, "the pedometer's damaged figures are answered: \(steps.stderr)")

        // Tracking carries on from the damaged trip, fences and counters.
        let trace = LiveDaemonTests.walk(seconds: 120, seed: 41)
        // The commands above took long enough for the daemon's gpsd reconnects to back off to
        // their cap: with 30 epochs of padding it missed the exit.
        let log = try LiveHarness.nmeaFile(
            "damaged-\(getpid()).nmea", fixes: trace.fixes, padding: LiveHarness.epochsPastBackoff)
        let feed = try LiveHarness.Feed(log: log, port: gpsd, cycle: 0.01)
        defer { feed.stop() }
        try daemon.waitFor("exit", timeout: 120)
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 120)

        // The outboxes' damaged rows go out when their receivers come: a QoS beyond Int32, a
        // queue time of -1e300 and a fix time of 1e300.
        let dir = try TraccarUplinkTests.directory("damaged")
        let broker = try MQTTTests.Broker(port: mqtt, dir: dir)
        defer { broker.stop() }
        let server = try TraccarUplinkTests.Server(port: http, dir: dir)
        defer { server.stop() }
        try LiveHarness.waitFor("the outboxes emptied", timeout: 120) {
            try #require(daemon.process.isRunning, "the daemon ended: \(daemon.process.terminationStatus)")
            let s = try #require(try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#))
            let mqtt = s["mqtt"] as? [String: Any]
            let traccar = (s["uplinks"] as? [String: Any])?["traccar"] as? [String: Any]
            return mqtt?["outbox"] as? Int == 0 && traccar?["queued"] as? Int == 0
        }
        let status = try #require(try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#))
        let accepted = (status["counters"] as? [String: Any])?["fixes_accepted"] as? Int ?? -1
        #expect(accepted > 0, "\(status)")
        try Self.expectSaneCounters(status, "after the walk")
        try everyCommand()
        #expect(daemon.stop() == 0)
    }

    /// The sequence number at both ends of SQLite's integer: only negative ones (UInt64 trapped
    /// at start), and Int64's greatest (the next event's row trapped as Int64): the walk's
    /// enter and exit are told and stored all the same.
    @Test(arguments: ["-3", "9223372036854775807"])
    func aSequenceNumberBeyondAnyRunNeitherStopsTheStartNorTheNextEvent(seq: String) throws {
        let fences = try ExecutableRunner.temporaryFile("damaged-seq-\(getpid()).geojson", contents: Self.fences)
        let first = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--fences", fences])
        try first.waitFor("started")
        #expect(first.stop() == 0)
        do {
            let db = try SQLiteDatabase(path: first.stateDirectory + "/gpstrackd.db")
            _ = try db.query("DELETE FROM events")
            _ = try db.query("INSERT INTO events VALUES (\(seq), 1773475200, 'enter', 'gate', '{}')")
        }
        // The feed first: a daemon started before it was refused and backed off (up to 30 s)
        // while the walk played, and missed the exit. 300 epochs without a fix (about 12 s)
        // cover the daemon's start, a referee of 10x.
        let gpsd = LiveHarness.freePort()
        let trace = LiveDaemonTests.walk(seconds: 90, seed: 42)
        let log = try LiveHarness.nmeaFile("damaged-seq-\(getpid()).nmea", fixes: trace.fixes, padding: 300)
        let feed = try LiveHarness.Feed(log: log, port: gpsd, cycle: 0.01)
        defer { feed.stop() }
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsd)", "--fences", fences], stateDirectory: first.stateDirectory)
        try daemon.waitFor("exit", timeout: 120)
        #expect(daemon.process.isRunning, "the daemon ended: \(daemon.process.terminationStatus)")
        let told = try daemon.entries("exit").first?["GPSTRACK_SEQ"] as? String
        #expect(told != nil && told != seq, "the exit's number: \(told ?? "none")")
        #expect(daemon.stop() == 0)
    }
}
