import Foundation
import GPSTrackCore
import GPSTrackJSON
import GPSTrackTestKit
import Testing

@testable import GPSTrackDaemon

/// A Traccar message goes in the OsmAnd form it was queued in (a JSON body or a query string),
/// kept with its outbox row: `traccar_format` changed across a restart does not change what
/// waits, and rows an older version queued (which kept no form) go as they were queued.
@Suite struct TraccarFormTests {
    static let url = "http://traccar.test/"

    /// A temporary state directory, removed by the caller.
    static func directory() throws -> String {
        var template = Array("/tmp/gpstrack-traccar-form-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw HarnessError("mkdtemp: errno \(errno)") }
        return String(cString: dir)
    }

    static func configuration(_ dir: String, _ format: TraccarConfig.Format) -> Configuration {
        var c = Configuration()
        c.stateDirectory = dir
        // The fixes are dated in the past: the clock check lets them through.
        c.uplinkMaxClockOffsetS = 1e10
        c.traccar.url = url
        c.traccar.deviceID = "box"
        c.traccar.format = format
        return c
    }

    static func uplink(_ c: Configuration, _ server: InMemoryHTTPServer) throws -> TraccarUplink {
        try TraccarUplink(
            configuration: c, file: StateDatabase(path: c.stateDirectory + "/gpstrackd.db"),
            journal: InMemoryJournal().journal, configFile: "t.conf", transport: server.transport(.traccar))
    }

    /// Waits for `condition`, polled, for at most 60 s.
    static func wait(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            try #require(Date() < deadline, "\(what): not within 60 s")
            try await Task.sleep(for: .milliseconds(20))  // polls the condition above
        }
    }

    static func fix(_ time: Double, _ lat: Double) -> Fix {
        Fix(mode: 3, time: time, latitude: lat, longitude: 10.1743, eph: 5)
    }

    @Test func aMessageKeepsItsFormAcrossARestartWithTheOtherFormat() async throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = InMemoryHTTPServer()
        // The first run queues in JSON while the server is down: tried once, kept.
        server.answer(503)
        let first = try Self.uplink(Self.configuration(dir, .json), server)
        first.reportLocation(Self.fix(1_773_475_200, 54.3521), time: 1_773_475_200, inside: nil)
        try await Self.wait("the first try") { !server.requests(.traccar).isEmpty }
        await first.stop()
        let refused = server.requests(.traccar).count

        // Started again with the query form: what waits goes as JSON, the new one as a query.
        server.answer(200)
        let second = try Self.uplink(Self.configuration(dir, .query), server)
        second.reportLocation(Self.fix(1_773_475_260, 54.3522), time: 1_773_475_260, inside: nil)
        try await Self.wait("the outbox drained") { second.sender.snapshot.queued == 0 }
        await second.stop()

        let sent = Array(server.requests(.traccar).dropFirst(refused))
        try #require(sent.count == 2, "\(sent.map(\.url))")
        #expect(sent[0].url == Self.url && sent[0].method == "POST")
        #expect(sent[0].headers == ["Content-Type: application/json"])
        let body = try JSONValue.parse(Array(sent[0].body.utf8))
        #expect(body["device_id"]?.string == "box")
        #expect(body["location"]?["coords"]?["latitude"]?.number == 54.3521, "\(sent[0].body)")
        let query = URLComponents(string: sent[1].url)?.queryItems ?? []
        #expect(sent[1].url.hasPrefix(Self.url + "?") && sent[1].body.isEmpty, "\(sent[1].url)")
        #expect(query.first { $0.name == "timestamp" }?.value == "1773475260")
        #expect(query.first { $0.name == "lat" }?.value == "54.3522")
        #expect(query.first { $0.name == "id" }?.value == "box")
    }

    @Test func rowsQueuedBeforeTheFormWasKeptGoAsTheyWereQueued() async throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The outbox of version 6, as that build wrote it: no `form`, a row of each form and MQTT's.
        let json = #"{"device_id":"box","location":{"timestamp":"2026-03-14T08:00:00Z"}}"#
        let query = "id=box&timestamp=1773475260&lat=54.3522&lon=10.1743"
        do {
            let old = try SQLiteDatabase(path: dir + "/gpstrackd.db")
            _ = try old.query(
                """
                CREATE TABLE uplink_outbox (id INTEGER PRIMARY KEY, uplink TEXT NOT NULL, kind TEXT NOT NULL,
                  payload TEXT NOT NULL, queued REAL NOT NULL, fix_time REAL, topic TEXT, qos INTEGER)
                """)
            for (uplink, payload) in [("traccar", json), ("mqtt", "{}"), ("traccar", query)] {
                _ = try old.query(
                    "INSERT INTO uplink_outbox (uplink, kind, payload, queued, qos) VALUES (?, 'location', ?, 1e9, 1)",
                    [.text(uplink), .text(payload)])
            }
            _ = try old.query("PRAGMA user_version = 6")
        }
        // The JSON row must not go as a query, nor the query as JSON, whatever is configured now.
        for format in [TraccarConfig.Format.query, .json] {
            let server = InMemoryHTTPServer()
            server.answer(503)
            let uplink = try Self.uplink(Self.configuration(dir, format), server)
            try await Self.wait("the first try") { server.requests(.traccar).count >= 1 }
            await uplink.stop()
            let head = try #require(server.requests(.traccar).first)
            #expect(head.url == Self.url && head.body == json, "\(format): \(head.url) \(head.body)")
        }
        let server = InMemoryHTTPServer()
        let uplink = try Self.uplink(Self.configuration(dir, .json), server)
        try await Self.wait("the outbox drained") { uplink.sender.snapshot.queued == 0 }
        await uplink.stop()
        let sent = server.requests(.traccar)
        #expect(sent.map(\.url) == [Self.url, Self.url + "?" + query])
        #expect(sent.map(\.body) == [json, ""])
        // MQTT's row has no form; it waits for its own queue.
        let db = try SQLiteDatabase(path: dir + "/gpstrackd.db")
        let rows = try db.query("SELECT uplink, ifnull(form, 'none') FROM uplink_outbox ORDER BY id")
        #expect(rows.map { $0.compactMap(\.string) } == [["mqtt", "none"]])
    }
}
