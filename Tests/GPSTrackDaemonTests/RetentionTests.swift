import Foundation
import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Retention (`retention_days`) over several days of fix time: the live daemon fed by gpsfake
/// on three days, and the Store itself over simulated weeks (real SQLite files).
@Suite(.serialized)
struct RetentionTests {

    static let day = 86_400.0

    /// Runs the daemon over one walk shifted by `days`, on `stateDirectory`; ends its trip
    /// (`start`) so that each day is a trip of its own. Returns the points of each stored trip.
    static func walk(onDay days: Double, stateDirectory: String, name: String) throws -> [String: Any] {
        let trace = LiveDaemonTests.walk(seconds: 130, seed: 30 + UInt64(days))
        let fixes = trace.fixes.map { f -> Fix in
            var g = f
            g.time = f.time.map { $0 + days * day }
            return g
        }
        let log = try LiveHarness.nmeaFile("\(name).nmea", fixes: fixes, padding: 60)
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port, cycle: 0.01)
        defer { feed.stop() }
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(port)", "--fences", try LiveDaemonTests.fencesFile("\(name).geojson")],
            extraConfig: "retention_days = 4\n", stateDirectory: stateDirectory)
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 90)
        let client = try SocketClient(path: daemon.socketPath)
        let status = try #require(client.request(#"{"cmd":"status"}"#))
        #expect(client.request(#"{"cmd":"start"}"#)?["ok"] as? Bool == true)
        #expect(daemon.stop() == 0)
        return status
    }

    /// Track points in the database: (trip id, time).
    static func points(_ db: String) throws -> [(Int, Double)] {
        let r = try ExecutableRunner.run(
            [
                "-c",
                "import sqlite3, sys\nfor t, s in sqlite3.connect(sys.argv[1]).execute('SELECT trip_id, time FROM points ORDER BY id'): print(t, s)",
                db,
            ],
            executable: "/usr/bin/python3")
        return r.lines.compactMap { line in
            let p = line.split(separator: " ")
            return p.count == 2 ? Int(p[0]).flatMap { t in Double(p[1]).map { (t, $0) } } : nil
        }
    }

    static func rows(_ db: String, _ sql: String) throws -> [String] {
        try ExecutableRunner.run(
            [
                "-c", "import sqlite3, sys\nfor r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print(*r)", db,
                sql,
            ],
            executable: "/usr/bin/python3"
        ).lines
    }

    @Test(.needsLiveParts) func olderPointsGoTripsAndEventsStay() throws {
        try LiveHarness.ensureJournald()
        let dir = NSTemporaryDirectory() + "gpstrackd-retention-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        let db = dir + "/gpstrackd.db"
        _ = try Self.walk(onDay: 0, stateDirectory: dir, name: "ret0")
        _ = try Self.walk(onDay: 2, stateDirectory: dir, name: "ret2")
        let before = try Self.points(db)
        let eventsBefore = try Self.rows(db, "SELECT seq, event, time FROM events ORDER BY seq")
        let tripsBefore = try Self.rows(
            db, "SELECT id, started_at, ended_at, traveled_m FROM trips WHERE ended_at IS NOT NULL ORDER BY id")
        let t0 = try #require(before.first?.1)
        #expect(tripsBefore.count == 2, "each day's trip ended: \(tripsBefore)")
        #expect(Set(before.map(\.0)).count == 2 && before.count > 20, "two days of points: \(before.count)")
        #expect(eventsBefore.contains { $0.contains(" enter ") }, "the first day's enter is stored")

        // Day 5 with retention_days = 4: day 0 goes at the first fix, day 2 stays.
        _ = try Self.walk(onDay: 5, stateDirectory: dir, name: "ret5")
        let after = try Self.points(db)
        let cutoff = t0 + 5 * Self.day - 4 * Self.day
        #expect(!after.isEmpty && after.allSatisfy { $0.1 >= cutoff }, "no point older than retention_days")
        let kept = before.filter { $0.1 >= cutoff }
        #expect(!kept.isEmpty && kept.count < before.count)
        #expect(Array(after.prefix(kept.count)).map(\.1) == kept.map(\.1), "newer points kept, all of them")
        #expect(after.count > kept.count, "the fifth day's points stored")
        // Trips and events are history: all kept, unchanged.
        #expect(
            Array(try Self.rows(db, "SELECT seq, event, time FROM events ORDER BY seq").prefix(eventsBefore.count))
                == eventsBefore)
        #expect(
            Array(
                try Self.rows(
                    db, "SELECT id, started_at, ended_at, traveled_m FROM trips WHERE ended_at IS NOT NULL ORDER BY id"
                ).prefix(tripsBefore.count)) == tripsBefore)
        #expect(try Self.rows(db, "PRAGMA integrity_check") == ["ok"])
        #expect(try Self.rows(db, "PRAGMA auto_vacuum") == ["2"], "incremental")
    }

    /// The Store alone over 16 simulated days of 2,000 points, retention 3 days, pruned step by
    /// step as the tracker does: the file stops growing once the retention window is full.
    @Test func theFileStopsGrowing() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-retention-size-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        let store = Store(directory: dir, journal: Journal(target: .stderr))
        var sizes: [Int] = []
        let t0 = 1_780_000_000.0
        for d in 0..<16 {
            let start = t0 + Double(d) * Self.day
            var steps = 0
            while store.pruneStep(before: start - 3 * Self.day) { steps += 1 }
            #expect(steps < 100)
            for k in 0..<40 {
                let points = (0..<50).map { i in
                    Store.PointRow(
                        time: start + Double(k * 50 + i) * 5, latitude: 47 + Double(i) * 1e-4, longitude: 8,
                        altitude: 400, eph: 5, mode: 3)
                }
                #expect(store.commit(events: [], trip: Trip(), fences: [:], points: points))
            }
            sizes.append(store.databaseBytes)
        }
        // Three days of points at most, whatever the day: the size of day 4 is the ceiling.
        let ceiling = sizes[3]
        #expect(sizes[4...].allSatisfy { $0 <= ceiling + ceiling / 10 }, "sizes by day: \(sizes)")
        #expect(sizes[15] > sizes[0])
    }

    /// A database made before auto_vacuum (mode NONE) is rebuilt once at open, its rows intact.
    @Test(.needs(.tool("/usr/bin/python3", package: "python3"))) func anOlderDatabaseIsMigrated() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-retention-migrate-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        do {
            let store = Store(directory: dir, journal: Journal(target: .stderr))
            let points = (0..<300).map {
                Store.PointRow(
                    time: 1_780_000_000 + Double($0), latitude: 47, longitude: 8, altitude: 0, eph: 5, mode: 3)
            }
            #expect(store.commit(events: [], trip: Trip(), fences: [:], points: points))
        }
        let db = dir + "/gpstrackd.db"
        // As an older gpstrackd left it: no auto_vacuum.
        _ = try ExecutableRunner.run(
            [
                "-c",
                "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\nc.execute('PRAGMA auto_vacuum=NONE')\nc.execute('VACUUM')",
                db,
            ],
            executable: "/usr/bin/python3")
        #expect(try Self.rows(db, "PRAGMA auto_vacuum") == ["0"])
        let store = Store(directory: dir, journal: Journal(target: .stderr))
        #expect(store.degradedReason == nil)
        #expect(try Self.rows(db, "PRAGMA auto_vacuum") == ["2"])
        #expect(try Self.rows(db, "SELECT count(*) FROM points") == ["300"])
        #expect(try Self.rows(db, "PRAGMA integrity_check") == ["ok"])
    }
}
