import Foundation
import Testing

@testable import GPSTrackDaemon

/// Rows of the state database outside their physical bounds (`RowBounds`): counters and the
/// pedometer's total at Int64's greatest (incremented, they trapped at the first fix), a trip
/// of 1e300 m (`trips` showed "1e+300 m"), a stop at latitude 1e300 and a Traccar backlog row
/// queued at -1e300 (`oldest_age_s` 1e+300). The daemon starts, shows none of them, names each
/// row once in the journal (table, row, field), tracks a walk, and leaves the rows in the file.
@Suite(.serialized, .needs([.gpsfake, .journal]))
struct DamagedRowsTests {
    init() throws { try LiveHarness.ensureJournald() }

    static let greatest = "9223372036854775807"
    static let damage = [
        "INSERT OR REPLACE INTO counters VALUES ('total', \(greatest)), ('accepted', \(greatest)), "
            + "('delivered', \(greatest))",
        "INSERT OR REPLACE INTO trips VALUES (1, 'running', 1773475200, 47.3769, 8.5417, NULL, 10, 10, 47.3769, 8.5417, "
            + "1773475260, \(greatest))",
        "INSERT OR REPLACE INTO trips VALUES (2, 'ended', 1773475200, 47.3769, 8.5417, 1773478800, 1e300, 1e300, NULL, NULL, "
            + "NULL, 5)",
        "INSERT OR REPLACE INTO auto_trips VALUES (1, 1773475200, 1773478800, 47.3769, 8.5417, '', 47.38, 8.55, '', 1e300, "
            + "1e300, 3600, 12, NULL)",
        "INSERT OR REPLACE INTO stops VALUES (1773478800, NULL, 1e300, 8.55, '', 1)",
        "INSERT OR REPLACE INTO pedometer VALUES (1, \(greatest), 700, 600, \(greatest), 7, 6, 1200, 0, 0)",
        "INSERT OR REPLACE INTO uplink_outbox (id, uplink, kind, payload, queued) VALUES (1, 'traccar', 'location', 'id=box', "
            + "-1e300)",
    ]
    /// The rows named, as (table, row, field).
    static let named: Set<[String]> = [
        ["counters", #""accepted""#, "value"], ["counters", #""delivered""#, "value"],
        ["counters", #""total""#, "value"],
        ["trips", "1", "delivered"], ["trips", "2", "traveled_m"], ["auto_trips", "1", "traveled_m"],
        ["stops", "1773478800", "lat"], ["pedometer", "1", "total"], ["uplink_outbox", "1", "queued"],
    ]

    @Test func int64MaxCountersAnd1e300FiguresAreNamedNeverShownAndLeftInTheFile() throws {
        let gpsd = LiveHarness.freePort()
        let tree = try IIOTree("damaged-rows")
        try tree.addCounter("iio:device0", name: "bma400", steps: 1200)
        let config = """
            iio_root = \(tree.sys)
            iio_dev_root = \(tree.dev)
            traccar_url = http://127.0.0.1:1/
            traccar_device_id = box

            """
        let first = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"], extraConfig: config)
        try first.waitFor("started")
        #expect(first.stop() == 0)
        let file = first.stateDirectory + "/gpstrackd.db"
        do {
            let db = try SQLiteDatabase(path: file)
            _ = try db.query("DELETE FROM counters")
            for sql in Self.damage { _ = try db.query(sql) }
        }

        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsd)"], extraConfig: config, stateDirectory: first.stateDirectory)
        try daemon.waitFor("started")
        let entries = try daemon.entries("damaged_row")
        let rows = entries.map { e in
            ["GPSTRACK_TABLE", "GPSTRACK_ROW", "GPSTRACK_FIELD"].map { e[$0] as? String ?? "" }
        }
        #expect(Set(rows) == Self.named, "\(entries.map { $0["MESSAGE"] ?? "" })")
        #expect(rows.count == Set(rows).count, "each row named once: \(rows)")
        #expect(entries.allSatisfy { ($0["GPSTRACK_VALUE"] as? String)?.isEmpty == false })

        // Shown nowhere: no 1e300 and no Int64's greatest in any answer.
        let ctl = URL(fileURLWithPath: ExecutableRunner.binary).deletingLastPathComponent()
            .appendingPathComponent("gpstrackctl").path
        func answers() throws -> [String] {
            try [["trips"], ["stops"], ["status"], ["steps"], ["metrics"]].flatMap { command in
                try [false, true].map { json in
                    let r = try ExecutableRunner.run(
                        ["--socket", daemon.socketPath] + (json ? ["--json"] : []) + command, executable: ctl)
                    #expect(r.status == 0, "\(command): \(r.stderr)")
                    return r.stdout
                }
            }
        }
        for text in try answers() {
            for figure in ["e+300", "1e300", "E+300", Self.greatest, "9.223372036854776e+18"] {
                #expect(!text.contains(figure), "\(figure) shown: \(text)")
            }
        }
        let status = try #require(try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#))
        let traccar = (status["uplinks"] as? [String: Any])?["traccar"] as? [String: Any]
        #expect(traccar?["queued"] as? Int == 1, "the damaged row stays queued: \(status)")
        #expect((traccar?["oldest_age_s"] as? Double ?? 0) < 1e9, "\(String(describing: traccar))")

        // The counters count on from nothing, without a trap. The daemon was refused since its
        // start and backs off: with 10 epochs of padding the walk had ended before it came back
        // (beside make test-repeat's CPU hog), and it never heard a report.
        let trace = LiveDaemonTests.walk(seconds: 60, seed: 43)
        let log = try LiveHarness.nmeaFile(
            "damaged-rows-\(getpid()).nmea", fixes: trace.fixes, padding: LiveHarness.epochsPastBackoff)
        let feed = try LiveHarness.Feed(log: log, port: gpsd, cycle: 0.01)
        defer { feed.stop() }
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 120)
        try #require(daemon.process.isRunning, "the daemon ended: \(daemon.process.terminationStatus)")
        let after = try #require(try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#))
        let accepted = (after["counters"] as? [String: Any])?["fixes_accepted"] as? Int ?? -1
        #expect(accepted > 0 && accepted <= trace.fixes.count, "\(after)")
        #expect(daemon.stop() == 0)

        // Left in the file for a person to look at.
        let db = try SQLiteDatabase(path: file)
        #expect(try db.query("SELECT traveled_m FROM trips WHERE id = 2").first?.first?.double == 1e300)
        #expect(try db.query("SELECT traveled_m FROM auto_trips WHERE id = 1").first?.first?.double == 1e300)
        #expect(try db.query("SELECT delivered FROM trips WHERE id = 1").first?.first?.int == Int64.max)
        #expect(try db.query("SELECT lat FROM stops WHERE arrival = 1773478800").first?.first?.double == 1e300)
    }
}
