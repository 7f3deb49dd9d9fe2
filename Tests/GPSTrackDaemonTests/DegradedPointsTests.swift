import Foundation
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import Testing

@testable import GPSTrackDaemon

/// Track points taken while the store cannot write (issue 13): kept in memory, bounded, the
/// excess counted, and written when the database can be opened again. A real SQLite file;
/// the fault is a directory where the database file should be.
@Suite struct DegradedPointsTests {
    static func points(_ n: Int, from t0: Double) -> [Store.PointRow] {
        (0..<n).map { i in
            Store.PointRow(
                time: t0 + Double(i), latitude: 48.0 + Double(i) * 1e-6, longitude: 11.0, altitude: 500, eph: 3, mode: 3
            )
        }
    }

    @Test func pointsSurviveADegradedSpell() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-degraded-points-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir + "/gpstrackd.db", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = Store(directory: dir, journal: Journal(target: .stderr))
        #expect(store.degradedReason != nil, "a directory in the database's place cannot be opened")
        let spell = Self.points(120, from: 1_773_475_000)
        #expect(!store.commit(events: [], trip: Trip(), fences: [:], points: spell, force: true))
        #expect(store.waitingPoints == 120, "the points wait in memory")
        #expect(store.droppedPoints == 0)

        try FileManager.default.removeItem(atPath: dir + "/gpstrackd.db")
        let later = Self.points(5, from: 1_773_475_200)
        #expect(
            store.commit(events: [], trip: Trip(), fences: [:], points: later, force: true), "the database opens again")
        #expect(store.degradedReason == nil)
        let written = store.points(trip: nil, since: nil, until: nil).flatMap(\.1)
        #expect(written.count == 125, "the spell's points and the later ones")
        #expect(written.map(\.time) == (spell + later).map(\.time), "in order")
        #expect(store.waitingPoints == 0)
    }

    @Test func beyondTheBoundTheOldestGoAndAreCounted() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-degraded-bound-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir + "/gpstrackd.db", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = Store(directory: dir, journal: Journal(target: .stderr))
        let extra = 250
        let all = Self.points(Store.maxWaitingPoints + extra, from: 1_700_000_000)
        #expect(!store.commit(events: [], trip: Trip(), fences: [:], points: all, force: true))
        #expect(store.waitingPoints == Store.maxWaitingPoints)
        #expect(store.droppedPoints == extra, "every point that went is counted")
        try FileManager.default.removeItem(atPath: dir + "/gpstrackd.db")
        #expect(store.commit(events: [], trip: Trip(), fences: [:], points: [], force: true))
        let written = store.points(trip: nil, since: nil, until: nil).flatMap(\.1)
        #expect(written.count == Store.maxWaitingPoints)
        #expect(written.first?.time == all[extra].time, "the oldest went, the newest stayed")
    }

    static func event(_ seq: UInt64, _ kind: String) -> Store.EventRow {
        Store.EventRow(
            seq: seq, time: 1_773_475_000 + Double(seq), event: kind, fence: "f1",
            json: #"{"event":"\#(kind)","fence":"f1","seq":\#(seq)}"#)
    }

    /// gpstrackd(8): up to 100,000 events wait in memory; beyond, the oldest go, counted in
    /// `status`'s `storage.dropped_events`; the rest are written in order, once.
    @Test func beyondTheBoundTheOldestEventsGoAndStatusCountsThem() async throws {
        #expect(Store.maxWaitingEvents == 100_000, "the documented bound")
        let dir = NSTemporaryDirectory() + "gpstrackd-degraded-events-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir + "/gpstrackd.db", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let journal = Journal(target: .stderr)
        let store = Store(directory: dir, journal: journal)
        let extra = 250
        let all = (1...UInt64(100_000 + extra)).map { Self.event($0, $0 % 2 == 0 ? "exit" : "enter") }
        // In two commits, as a spell's events come: the bound holds across them.
        #expect(!store.commit(events: Array(all.prefix(60_000)), trip: Trip(), fences: [:], points: [], force: true))
        #expect(store.waitingEvents == 60_000 && store.droppedEvents == 0)
        #expect(!store.commit(events: Array(all.dropFirst(60_000)), trip: Trip(), fences: [:], points: [], force: true))
        #expect(store.waitingEvents == 100_000)
        #expect(store.droppedEvents == extra, "every event that went is counted")

        try FileManager.default.removeItem(atPath: dir + "/gpstrackd.db")
        #expect(store.commit(events: [], trip: Trip(), fences: [:], points: [], force: true))
        let written = store.events(since: nil, fence: nil, limit: 200_000)
        #expect(written.count == 100_000)
        #expect(written.first == all[extra].json, "the oldest went, the newest stayed")
        #expect(written.last == all.last?.json)

        // The count stays for the daemon's life: status, after the spell (the tracker owns the store).
        var config = Configuration()
        config.stateDirectory = dir
        config.pedometer = .off
        let tracker = try TrackerService(configuration: config, fences: nil, journal: journal, store: store)
        let handlers = ControlHandlers(tracker: tracker, gpsd: nil, mqtt: nil, tripMode: config.tracker.tripMode)
        let line = ReplyEncoder.encode(await handlers.handle(.status).reply)
        #expect(line.contains("\"dropped_events\":\(extra),"), "\(line)")
        let status = try ReplyDecoder.decode(StatusReply.self, line: line)
        #expect(status.storage.state == "ok" && status.storage.droppedEvents == extra)
        await tracker.finish()
    }

    /// At the stop, what cannot be written is named (issue 30): how many events of which kinds,
    /// the track points, the MQTT messages; nothing once everything is written.
    @Test func theStopNamesWhatItCannotWrite() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-degraded-stop-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir + "/gpstrackd.db", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = Store(directory: dir, journal: Journal(target: .stderr))
        let events = [
            Self.event(1, "enter"), Self.event(2, "exit"), Self.event(3, "enter"), Self.event(4, "trip_stop"),
        ]
        #expect(
            !store.commit(
                events: events, trip: Trip(), fences: [:], points: Self.points(7, from: 1_773_475_000), force: true))
        let entry = try #require(store.stopEntry(unsavedMessages: ["transition": 2, "location": 5]))
        #expect(entry.event.rawValue == "storage_at_stop" && entry.priority == .err)
        #expect(
            entry.message.contains(
                "4 events (2 enter, 1 exit, 1 trip_stop), 7 track points, 7 MQTT messages (5 location, 2 transition)"),
            "\(entry.message)")
        let fields = Dictionary(entry.fields.map { ($0.0.rawValue, $0.1) }, uniquingKeysWith: { a, _ in a })
        #expect(
            fields["GPSTRACK_UNWRITTEN_EVENTS"] == "4"
                && fields["GPSTRACK_UNWRITTEN_KINDS"] == "enter:2,exit:1,trip_stop:1")
        #expect(fields["GPSTRACK_UNWRITTEN_POINTS"] == "7" && fields["GPSTRACK_UNWRITTEN_MESSAGES"] == "7")
        try FileManager.default.removeItem(atPath: dir + "/gpstrackd.db")
        #expect(store.commit(events: [], trip: Trip(), fences: [:], points: [], force: true))
        #expect(store.stopEntry() == nil, "everything written: nothing to name")
        #expect(store.events(since: nil, fence: nil).count == 4)
    }
}
