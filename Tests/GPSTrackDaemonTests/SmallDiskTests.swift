import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

@testable import GPSTrackDaemon

/// A nearly full disk (issue 30): the state directory on a tmpfs of a few hundred KiB, where the
/// database's own growth (track points, the write-ahead log) fills what little space there is.
/// Events must still be stored, the oldest track points giving way, counted.
@Suite(
    .serialized,
    .enabled(if: LiveHarness.available && getuid() == 0, "mounting a tmpfs needs root; `make test` runs as root in CI"))
struct SmallDiskTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// The stored enter/exit events (`event fence`, by seq), `PRAGMA integrity_check`, and the
    /// count of track points before `before` (fix time), through Python's sqlite3 module.
    static func stored(_ db: String, pointsBefore before: Double = 0) throws -> (
        integrity: String, transitions: [String], old: Int
    ) {
        let r = try ExecutableRunner.run(
            [
                "-c",
                """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                print(db.execute('PRAGMA integrity_check').fetchone()[0])
                print(db.execute('SELECT count(*) FROM points WHERE time < ?', (float(sys.argv[2]),)).fetchone()[0])
                for e, f in db.execute("SELECT event, fence FROM events WHERE event IN ('enter', 'exit') ORDER BY seq"): print(e, f)
                """, db, String(before),
            ], executable: "/usr/bin/python3")
        let lines = r.lines
        guard lines.count >= 2, let old = Int(lines[1]) else { return (r.stdout + r.stderr, [], -1) }
        return (lines[0], Array(lines.dropFirst(2)), old)
    }

    /// The walk of FullDiskTests (four fences, eight transitions) into a daemon whose state
    /// directory is on `disk`; `during` runs once the feed started. Returns the daemon, the walk
    /// over (gpsd's end noticed), still running.
    static func walk(
        _ name: String, on disk: FullDiskTests.SmallDisk, stateDirectory: String, extraConfig: String = "",
        during: (LiveHarness.DaemonProcess) throws -> Void
    ) throws -> LiveHarness.DaemonProcess {
        let trace = LiveDaemonTests.walk(seconds: 560, seed: 16)
        let log = try LiveHarness.nmeaFile("\(name).nmea", fixes: trace.fixes, padding: 100)
        let port = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: [
                "--gpsd", "127.0.0.1:\(port)", "--fences",
                try FullDiskTests.fencesFile("\(name).geojson"),
            ],
            extraConfig: extraConfig, stateDirectory: stateDirectory)
        try daemon.waitFor("started", timeout: 20)
        let feed = try LiveHarness.Feed(log: log, port: port, cycle: 0.01)
        defer { feed.stop() }
        try during(daemon)
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 120)
        return daemon
    }

    /// The issue's case: 256 KiB, filled before the first fix, freed after the first two
    /// transitions. The code before stored 1 of the 8 (the database's own growth, a WAL let grow
    /// towards 4 MiB, filled the disk again 0.6 s after the space returned).
    @Test func aSmallDiskFreedMidWalkKeepsEveryEvent() throws {
        let disk = try FullDiskTests.SmallDisk(kib: 256)
        let state = disk.path + "/state"
        var freed = 0
        let daemon = try Self.walk("smalldisk", on: disk, stateDirectory: state) { daemon in
            #expect(disk.fill() > 0)
            try daemon.waitFor("storage_degraded", timeout: 60)
            try LiveHarness.waitFor("two transitions while full", timeout: 60) {
                try FullDiskTests.transitions(daemon).count >= 2
            }
            disk.free()
            freed = try FullDiskTests.transitions(daemon).count
        }
        let status = try #require(SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#))
        #expect(daemon.stop() == 0)
        let entries = try daemon.entries().filter { ($0["GPSTRACK_EVENT"] as? String ?? "").hasPrefix("storage") }
        print(
            "small disk: freed after \(freed) transitions; storage entries: "
                + entries.map { "\($0["GPSTRACK_EVENT"] ?? "") (\($0["MESSAGE"] ?? ""))" }.joined(separator: "; "))
        print("small disk: status storage \(status["storage"] ?? "-")")
        let (integrity, transitions, _) = try Self.stored(state + "/gpstrackd.db")
        print("small disk: \(transitions.count) of 8 transitions stored; integrity \(integrity)")
        #expect(integrity == "ok")
        #expect(transitions == FullDiskTests.expected, "every true enter/exit stored once, in order")
        // The walk's track may fill so small a disk again (a second spell): then the stop names
        // the points it could not write, and no event among them.
        for entry in try daemon.entries("storage_at_stop") {
            print("small disk: at the stop: \(entry["MESSAGE"] ?? "")")
            #expect(entry["GPSTRACK_UNWRITTEN_EVENTS"] as? String == "0", "\(entry["MESSAGE"] ?? "")")
        }
    }

    /// Earlier days' track points, `count` of them a second apart two days before the walk,
    /// put into a database the daemon made (its schema) by another SQLite client.
    static func earlierDays(_ state: String, count: Int) throws {
        let made = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(LiveHarness.freePort())"], stateDirectory: state)
        try made.waitFor("started", timeout: 20)
        #expect(made.stop() == 0)
        let r = try ExecutableRunner.run(
            [
                "-c",
                """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                t0, n = float(sys.argv[2]), int(sys.argv[3])
                db.execute("INSERT INTO trips (id, state, started_at, ended_at) VALUES (1000, 'stopped', ?, ?)", (t0, t0 + n))
                db.executemany("INSERT INTO points (trip_id, time, lat, lon, alt, eph, mode) VALUES (1000, ?, 47.3, 8.5, 400, 3, 3)",
                               [(t0 + i,) for i in range(n)])
                db.commit()
                print(db.execute('SELECT count(*) FROM points').fetchone()[0])
                """, state + "/gpstrackd.db", String(earlierStart), String(count),
            ], executable: "/usr/bin/python3")
        #expect(r.lines == [String(count)], "\(r.stdout)\(r.stderr)")
    }

    /// Two days before the walk (Simulator's start time).
    static let earlierStart = 1_773_475_200.0 - 2 * 86_400

    /// The disk fills after the first enter and is never freed; the database holds earlier days'
    /// track points. Every event of the walk is stored, and so is every track point of it: the
    /// earlier days' oldest points gave way, counted in `status` and named at the stop.
    @Test func aDiskThatStaysFullThinsTheOldestPoints() throws {
        let disk = try FullDiskTests.SmallDisk(kib: 1024)
        let state = disk.path + "/state"
        let earlier = 3000
        try Self.earlierDays(state, count: earlier)
        // Every fix a track point: a walk's worth of them is more than the reserve's room.
        let daemon = try Self.walk(
            "fulldisk-thin", on: disk, stateDirectory: state, extraConfig: "distance_filter_m = 0\n"
        ) { daemon in
            try daemon.waitFor("enter", timeout: 90)
            #expect(disk.fill() > 0)
            try daemon.waitFor("storage_degraded", timeout: 60)
        }
        let client = try SocketClient(path: daemon.socketPath)
        let status = try #require(client.request(#"{"cmd":"status"}"#))
        let storage = try #require(status["storage"] as? [String: Any])
        let delivered = try #require((status["counters"] as? [String: Any])?["fixes_delivered"] as? Int)
        #expect(
            storage["state"] as? String == "degraded" && storage["reason"] as? String == "database or disk is full",
            "\(storage)")
        #expect(daemon.stop() == 0)
        print("stays full: " + (try ExecutableRunner.run(["-l", state], executable: "/usr/bin/ls")).stdout)
        let (integrity, transitions, old) = try Self.stored(
            state + "/gpstrackd.db", pointsBefore: Self.earlierStart + Double(earlier))
        print(
            "stays full: \(transitions.count) of 8 transitions stored, \(old) of \(earlier) earlier points left; status storage \(storage)"
        )
        #expect(integrity == "ok")
        #expect(transitions == FullDiskTests.expected, "every event of the walk stored, once, in order")
        let atStop = try #require(
            try daemon.entries("storage_at_stop").last, "the stop names what it wrote and thinned")
        let thinned = Int(atStop["GPSTRACK_THINNED_POINTS"] as? String ?? "") ?? -1
        print("stays full: at the stop: \(atStop["MESSAGE"] ?? "")")
        #expect(
            thinned > 0 && old == earlier - thinned,
            "every earlier point that went is counted: \(old) left, \(thinned) thinned")
        #expect(
            storage["thinned_points"] as? Int ?? 0 > 0 && storage["thinned_points"] as? Int ?? .max <= thinned,
            "status counts the thinning: \(storage)")
        #expect(
            atStop["GPSTRACK_UNWRITTEN_EVENTS"] as? String == "0"
                && atStop["GPSTRACK_UNWRITTEN_POINTS"] as? String == "0",
            "everything waiting was written at the stop: \(atStop["MESSAGE"] ?? "")")
        #expect(try daemon.entries("storage_thinning").count == 1, "one entry per spell, not per row")
        #expect(try daemon.entries().last?["GPSTRACK_EVENT"] as? String == "storage_at_stop", "the stop's last entry")
        // The walk's own track: every delivered point is in the database.
        let r = try ExecutableRunner.run(
            [
                "-c",
                "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM points WHERE time >= ?', (float(sys.argv[2]),)).fetchone()[0])",
                state + "/gpstrackd.db", String(Self.earlierStart + Double(earlier)),
            ], executable: "/usr/bin/python3")
        #expect(
            r.lines == [String(delivered)], "the walk's \(delivered) delivered points stored: \(r.stdout)\(r.stderr)")
    }

    /// The Store itself on a full 512 KiB disk (no daemon): 300 events, each with a track
    /// point, after 3,000 points taken `earlier` seconds before. Every event is committed, more
    /// of them than the reserve has room for: the room comes from the oldest points, every one
    /// counted, the oldest first. Track two days old gives way to new points too.
    @Test(arguments: [2 * 86_400.0, 3_600])
    func eventsTakeTheRoomOfTheOldestPoints(earlier: Double) throws {
        let disk = try FullDiskTests.SmallDisk(kib: 512)
        let store = Store(directory: disk.path + "/state", journal: Journal(target: .stderr))
        let t0 = 1_773_475_200.0
        for batch in 0..<60 {
            let points = DegradedPointsTests.points(50, from: t0 - earlier - 3000 + Double(batch * 50))
            #expect(store.commit(events: [], trip: Trip(), fences: [:], points: points, force: true))
        }
        #expect(disk.fill() > 0)
        var refused = 0
        let n = 300
        for i in 1...n {
            var event = DegradedPointsTests.event(UInt64(i), i % 2 == 0 ? "exit" : "enter")
            event.json += String(repeating: " ", count: 120)  // an event line's usual length
            if !store.commit(
                events: [event], trip: Trip(), fences: [:], points: DegradedPointsTests.points(1, from: t0 + Double(i)),
                force: true)
            {
                refused += 1
            }
        }
        #expect(refused == 0, "every commit took its events")
        #expect(store.degradedReason == "database or disk is full")
        #expect(store.events(since: nil, fence: nil).count == n)
        let old = store.points(trip: nil, since: nil, until: t0 - 1).flatMap(\.1).count
        let new = store.points(trip: nil, since: t0, until: nil).flatMap(\.1).count
        print(
            "store on a full disk, track \(Int(earlier)) s older: \(store.thinnedPoints) points thinned, \(old) of 3000 left, "
                + "\(new) new written, \(store.waitingPoints) waiting")
        #expect(store.thinnedPoints > 0, "the reserve alone had not the room")
        #expect(
            old + new + store.waitingPoints + store.thinnedPoints == 3000 + n,
            "every point is stored, waits, or is counted as thinned")
        let first = store.points(trip: nil, since: nil, until: t0 - 1).flatMap(\.1).first?.time
        #expect(first == t0 - earlier - 3000 + Double(store.thinnedPoints), "the oldest went first")
        if earlier > Store.keptTrackS { #expect(new == n, "older track gave way to the new") }
        disk.free()
        #expect(store.commit(events: [], trip: Trip(), fences: [:], points: [], force: true))
        #expect(store.degradedReason == nil && store.waitingPoints == 0)
        #expect(store.stopEntry() == nil)
    }

    /// With no track points left to thin, the MQTT outbox's oldest locations give way to events,
    /// counted; its transitions never do. The outbox is the publisher's table in the same file.
    @Test func thenTheOutboxsLocationsGiveWay() throws {
        let disk = try FullDiskTests.SmallDisk(kib: 512)
        let store = Store(directory: disk.path + "/state", journal: Journal(target: .stderr))
        let outbox = try #require(store.file.connection, "the one connection the outbox shares")
        let location =
            #"{"_type":"location","lat":47.3769,"lon":8.5417,"tst":1773475200,"acc":3,"vel":5,"cog":90,"tid":"xx"}"#
        for i in 0..<1500 {
            try outbox.query(
                """
                INSERT INTO uplink_outbox (uplink, kind, topic, payload, qos, queued)
                  VALUES ('mqtt', ?, 'owntracks/a/b', ?, ?, 1773475200)
                """,
                [.text(i % 300 == 0 ? "transition" : "location"), .text(location), .int(i % 300 == 0 ? 1 : 0)])
        }
        #expect(disk.fill() > 0)
        var refused = 0
        for i in 1...300 {
            var event = DegradedPointsTests.event(UInt64(i), "enter")
            event.json += String(repeating: " ", count: 120)
            if !store.commit(events: [event], trip: Trip(), fences: [:], points: [], force: true) { refused += 1 }
        }
        let kinds = Dictionary(
            uniqueKeysWithValues: try outbox.query("SELECT kind, count(*) FROM uplink_outbox GROUP BY kind")
                .map { ($0[0].string ?? "", Int($0[1].int ?? 0)) })
        print("store on a full disk with an outbox: \(store.thinnedLocations) locations thinned, outbox \(kinds)")
        #expect(refused == 0 && store.events(since: nil, fence: nil).count == 300, "every event stored")
        #expect(
            store.thinnedLocations > 0 && kinds["location"] == 1495 - store.thinnedLocations,
            "every location that went is counted")
        #expect(kinds["transition"] == 5, "transitions never go")
        #expect(store.thinnedPoints == 0)
    }
}
