import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

@testable import GPSTrackDaemon

/// A database of the schema before version 3 (made here by the sqlite3 shell, with the tables
/// as version 2 made them, and an MQTT outbox as the publisher made it for itself before the
/// column `queued`) opens, keeps its rows, and gains each point's HDOP and satellites (version
/// 3), the tables the other parts made for themselves (version 4), and both heights (version
/// 5: the old `alt`, gpsd's altHAE, moves to `alt_hae`; the sea-level height is unknown).
@Suite(.needs(.tool("/usr/bin/sqlite3", package: "sqlite3")))
struct StoreMigrationTests {
    static let version2 = """
        PRAGMA auto_vacuum=INCREMENTAL;
        CREATE TABLE trips (id INTEGER PRIMARY KEY, state TEXT NOT NULL, started_at REAL,
          start_lat REAL, start_lon REAL, ended_at REAL, traveled_m REAL NOT NULL DEFAULT 0,
          straight_line_m REAL NOT NULL DEFAULT 0, last_lat REAL, last_lon REAL, last_time REAL,
          delivered INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE points (id INTEGER PRIMARY KEY, trip_id INTEGER NOT NULL, time REAL NOT NULL,
          lat REAL NOT NULL, lon REAL NOT NULL, alt REAL, eph REAL, mode INTEGER);
        CREATE INDEX points_trip_time ON points(trip_id, time);
        CREATE INDEX points_time ON points(time);
        CREATE TABLE events (seq INTEGER PRIMARY KEY, time REAL, event TEXT NOT NULL, fence TEXT, json TEXT NOT NULL);
        CREATE TABLE fences (id TEXT PRIMARY KEY, membership INTEGER, since REAL, entered_at REAL,
          dwell_sent INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE auto_trips (id INTEGER PRIMARY KEY, start REAL NOT NULL, end REAL NOT NULL,
          from_lat REAL, from_lon REAL, from_fences TEXT, to_lat REAL, to_lon REAL, to_fences TEXT,
          traveled_m REAL, straight_line_m REAL, moving_s REAL, max_speed_mps REAL);
        CREATE TABLE stops (arrival REAL PRIMARY KEY, departure REAL, lat REAL, lon REAL, fences TEXT, after_trip INTEGER);
        CREATE TABLE motion (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL);
        CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT INTO trips (id, state, started_at, traveled_m, delivered) VALUES (1, 'running', 1773475200, 12.5, 3);
        INSERT INTO points (trip_id, time, lat, lon, alt, eph, mode) VALUES
          (1, 1773475200, 48.1, 11.5, 500, 3.5, 3), (1, 1773475201, 48.1001, 11.5, 501, 3.6, 3),
          (1, 1773475202, 48.1002, 11.5, 502, 3.7, 3);
        INSERT INTO events (seq, time, event, json) VALUES (7, 1773475200, 'trip_start', '{"event":"trip_start"}');
        CREATE TABLE outbox (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, topic TEXT NOT NULL, payload TEXT NOT NULL,
          qos INTEGER NOT NULL);
        INSERT INTO outbox (kind, topic, payload, qos) VALUES ('location', 'owntracks/a/b', '{}', 1);
        PRAGMA user_version = 2;
        """

    static func sqlite(_ path: String, _ sql: String) throws -> String {
        let r = try ExecutableRunner.run([path, sql], executable: "/usr/bin/sqlite3")
        try #require(r.status == 0, "sqlite3: \(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aVersion2DatabaseKeepsItsRowsAndGainsHDOPAndSatellites() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-migration-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/gpstrackd.db"
        _ = try Self.sqlite(path, Self.version2)
        #expect(try Self.sqlite(path, "PRAGMA user_version") == "2")

        let store = Store(directory: dir, journal: Journal(target: .stderr))
        #expect(store.degradedReason == nil, "\(store.degradedReason ?? "")")
        #expect(try Self.sqlite(path, "PRAGMA user_version") == "9")
        // Version 8: a trip's engine seconds, NULL in the rows that had none.
        #expect(
            try Self.sqlite(path, "SELECT count(*) FROM pragma_table_info('auto_trips') WHERE name = 'engine_s'") == "1"
        )
        // Every table of the other parts, with its columns, made by the one migration.
        let tables = try Self.sqlite(path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        #expect(
            tables.split(separator: "\n")
                == [
                    "anchor", "auto_trips", "counters", "events", "fences", "inputs", "motion", "pedometer",
                    "points", "steps", "stops", "trips", "uplink_outbox",
                ], "\(tables)")
        // The old MQTT outbox's row is the one outbox's, queue `mqtt`, with its topic and QoS and
        // a queue time (it had none).
        #expect(
            try Self.sqlite(path, "SELECT uplink, kind, topic, payload, qos, queued > 1.7e9 FROM uplink_outbox")
                == "mqtt|location|owntracks/a/b|{}|1|1", "the old row stays")
        let fixTime = "SELECT count(*) FROM pragma_table_info('uplink_outbox') WHERE name = 'fix_time'"
        #expect(try Self.sqlite(path, fixTime) == "1")
        let restored = store.restore()
        #expect(restored.seq == 7 && restored.trip?.deliveredCount == 3 && restored.trip?.traveledM == 12.5)
        let filter = Store.PointFilter(run: nil, since: nil, until: nil)
        let old = store.exportRows(filter, from: nil, limit: 10)
        #expect(old.map(\.point.time) == [1_773_475_200, 1_773_475_201, 1_773_475_202], "the old rows stay")
        #expect(old.map(\.point.eph) == [3.5, 3.6, 3.7])
        #expect(old.allSatisfy { $0.point.altitude.isNaN }, "an ellipsoidal height is not told as above sea level")
        #expect(
            try Self.sqlite(path, "SELECT ifnull(alt, 'null') || ' ' || alt_hae FROM points ORDER BY time")
                == "null 500.0\nnull 501.0\nnull 502.0", "the old heights kept, as above the ellipsoid")
        #expect(old.allSatisfy { $0.point.hdop.isNaN && $0.point.satellites == nil }, "unknown in the old rows")

        let new = Store.PointRow(
            time: 1_773_475_203, latitude: 48.1003, longitude: 11.5, altitude: 503, eph: 3.8, mode: 3, hdop: 1.3,
            satellites: 7, altitudeHAE: 550.5)
        #expect(store.commit(events: [], trip: restored.trip ?? Trip(), fences: [:], points: [new], force: true))
        // Read back by the shell, not by the code that wrote it.
        #expect(
            try Self.sqlite(path, "SELECT time, hdop, sats, alt, alt_hae FROM points WHERE hdop IS NOT NULL")
                == "1773475203.0|1.3|7|503.0|550.5")
        #expect(try Self.sqlite(path, "SELECT count(*) FROM points WHERE hdop IS NULL AND sats IS NULL") == "3")
        let all = store.exportRows(filter, from: nil, limit: 10)
        #expect(all.count == 4 && all.last?.point.hdop == 1.3 && all.last?.point.satellites == 7)

        // Opening again is no second migration.
        let again = Store(directory: dir, journal: Journal(target: .stderr))
        #expect(again.degradedReason == nil && again.exportRows(filter, from: nil, limit: 10).count == 4)
        #expect(try Self.sqlite(path, "PRAGMA user_version") == "9")
    }
}
