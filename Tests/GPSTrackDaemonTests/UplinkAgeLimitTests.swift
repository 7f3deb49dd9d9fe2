import Foundation
import GPSTrackCore
import Testing

@testable import GPSTrackDaemon

/// The backlog age limit (`traccar_max_age_s`, `owntracks_http_max_age_s`) on a real outbox
/// table: locations older than the limit behind the newest fix queued go, by fix time (the
/// wall clock's `queued` says nothing); trip ends, alarms and transitions stay, and so does
/// the message in flight.
@Suite struct UplinkAgeLimitTests {
    static func outbox(_ name: String, maxAgeS: Double?) throws -> (Outbox, String) {
        let dir = NSTemporaryDirectory() + "gpstrackd-agelimit-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return (
            Outbox(uplink: "traccar", databasePath: dir + "/gpstrackd.db", limit: 10_000, maxAgeS: maxAgeS), dir
        )
    }

    /// Every waiting payload, oldest first (each taken and confirmed, as the sender does).
    static func drain(_ outbox: Outbox) -> [String] {
        var out: [String] = []
        while let m = outbox.head() {
            out.append(m.payload)
            outbox.remove(m)
        }
        return out
    }

    @Test func oldLocationsGoByFixTimeTransitionsAndAlarmsStay() throws {
        let (outbox, dir) = try Self.outbox("drop", maxAgeS: 600)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let t0 = 1_773_475_200.0
        // An hour offline: a location every minute, a trip end at 20 min, an alarm at 30 min;
        // all queued at one wall-clock second, so only fix time can tell them apart.
        for k in 0..<60 {
            let kind: OutboxKind = k == 20 ? .trip : k == 30 ? .alarm : .location
            outbox.store(kind, payload: "\(kind) \(k)", fixTime: t0 + Double(k) * 60, queued: 1000)
        }
        // Minute 59 queued last: the limit keeps minutes 49 to 59 (600 s behind, inclusive).
        let w = outbox.waiting
        let kept = (49..<60).map { "location \($0)" }
        #expect(w.expired == 60 - 2 - kept.count, "\(w)")
        #expect(w.count == 2 + kept.count && w.dropped == 0)
        #expect(Self.drain(outbox) == ["trip 20", "alarm 30"] + kept, "oldest first, the events kept")
    }

    @Test func theMessageInFlightAndOnesWithoutAFixTimeStay() throws {
        let (outbox, dir) = try Self.outbox("inflight", maxAgeS: 60)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let t0 = 1_773_475_200.0
        outbox.store(.location, payload: "first", fixTime: t0)
        outbox.store(.waypoints, payload: "waypoints")
        outbox.store(.location, payload: "second", fixTime: t0 + 10)
        let inflight = try #require(outbox.head())
        #expect(inflight.payload == "first")
        outbox.store(.location, payload: "late", fixTime: t0 + 3600)
        #expect(outbox.waiting.expired == 1, "only 'second': 'first' is in flight")
        outbox.remove(inflight)
        #expect(Self.drain(outbox) == ["waypoints", "late"])
    }

    @Test func withoutALimitNothingGoes() throws {
        let (outbox, dir) = try Self.outbox("none", maxAgeS: nil)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for k in 0..<10 { outbox.store(.location, payload: "\(k)", fixTime: 1_773_475_200 + Double(k) * 3600) }
        #expect(outbox.waiting.expired == 0 && Self.drain(outbox).count == 10)
    }

    /// A table an older daemon made, without the fix_time column, opens with its rows kept.
    @Test(.needs(.tool("/usr/bin/sqlite3", package: "sqlite3"))) func anOlderTableGainsTheColumn() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-agelimit-old-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/gpstrackd.db"
        _ = try StoreMigrationTests.sqlite(
            path,
            """
            CREATE TABLE uplink_outbox (id INTEGER PRIMARY KEY, uplink TEXT NOT NULL, kind TEXT NOT NULL,
              payload TEXT NOT NULL, queued REAL NOT NULL);
            INSERT INTO uplink_outbox (uplink, kind, payload, queued) VALUES ('traccar', 'location', 'old', 1000);
            """)
        let outbox = Outbox(uplink: "traccar", databasePath: path, limit: 10_000, maxAgeS: 60)
        outbox.store(.location, payload: "new", fixTime: 1_773_475_200)
        #expect(outbox.waiting.expired == 0, "a row of no fix time is of no age")
        #expect(Self.drain(outbox) == ["old", "new"])
    }
}
