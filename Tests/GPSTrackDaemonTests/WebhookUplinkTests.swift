import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

/// The webhook uplink against the loopback HTTP server of TraccarUplinkTests, the daemon fed by
/// gpsfake: the walk through the ring of LiveDaemonTests.
@Suite(.serialized, .needs([.gpsfake, .journal, .tool("/usr/bin/python3", package: "python3")]))
struct WebhookUplinkTests {
    init() throws { try LiveHarness.ensureJournald() }

    func run(_ name: String, extra: String) throws -> (TraccarUplinkTests.Server, LiveHarness.DaemonProcess) {
        let dir = try TraccarUplinkTests.directory(name)
        let httpPort = LiveHarness.freePort()
        let server = try TraccarUplinkTests.Server(port: httpPort, dir: dir, mode: "200")
        let fixes = TraccarUplinkTests.now(LiveDaemonTests.walk(seconds: 230, seed: 28))
        let log = try LiveHarness.nmeaFile("\(name).nmea", fixes: fixes, padding: 60)
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: [
                "--gpsd", "127.0.0.1:\(gpsPort)", "--fences", try LiveDaemonTests.fencesFile("\(name).geojson"),
            ],
            extraConfig: "webhook_url = http://127.0.0.1:\(httpPort)/hook\n" + extra)
        try daemon.waitFor("started")
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.01)
        defer { feed.stop() }
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        try LiveHarness.waitFor("the webhook's outbox drained", timeout: 120) {
            let reply = try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#)
            return ((reply?["uplinks"] as? [String: Any])?["webhook"] as? [String: Any])?["queued"] as? Int == 0
        }
        return (server, daemon)
    }

    /// The chosen kinds only, each its event's line, in order, once, with the bearer token from
    /// its file; the token in no field of any journal entry.
    @Test func chosenEventsArePostedAsTheirLinesWithTheToken() throws {
        let token = "s3cret-\(UInt32.random(in: 0..<UInt32.max))"
        let tokenFile = try ExecutableRunner.temporaryFile("hook-token-\(getpid())", contents: token + "\n")
        let (server, daemon) = try run(
            "hookjson", extra: "webhook_events = enter, exit\nwebhook_token_file = \(tokenFile)\n")
        let requests = server.requests().map(\.entry)
        let bodies = requests.compactMap { ExecutableRunner.json($0["body"] as? String ?? "") }
        #expect(bodies.map { $0["event"] as? String ?? "" } == ["enter", "exit"], "\(bodies)")
        for (r, b) in zip(requests, bodies) {
            #expect(r["path"] as? String == "/hook" && r["method"] as? String == "POST")
            #expect((r["headers"] as? [String: String])?["Authorization"] == "Bearer \(token)", "\(r)")
            #expect(b["fence"] as? String == "ring" && b["name"] as? String == "Ring road", "\(b)")
        }
        // Each body is the event the journal has: its time and position.
        for (kind, body) in zip(["enter", "exit"], bodies) {
            let entry = try #require(try daemon.entries(kind).first)
            #expect(body["time"] as? String == entry["GPSTRACK_TIME"] as? String, "\(body) \(entry)")
            #expect(
                abs((body["lat"] as? Double ?? .nan) - (Double(entry["GPSTRACK_LAT"] as? String ?? "") ?? .nan)) < 1e-6)
        }
        let leaks = try daemon.entries().filter { entry in entry.values.contains { "\($0)".contains(token) } }
        #expect(leaks.isEmpty, "the token in the journal: \(leaks)")
        #expect(daemon.stop() == 0)
    }

    /// ntfy's form: a sentence, its title, an overspeed urgent and a fence event at default.
    @Test func theNtfyFormMarksAlarmsUrgent() throws {
        let (server, daemon) = try run(
            "hookntfy",
            extra: """
                webhook_events = enter,overspeed_start
                webhook_format = ntfy
                speed_limit_kmh = 3
                overspeed_min_s = 0

                """)
        let requests = server.requests().map(\.entry)
        let titles = requests.compactMap { ($0["headers"] as? [String: String])?["Title"] }
        #expect(Set(titles) == ["gpstrackd: enter", "gpstrackd: overspeed start"], "\(titles)")
        for r in requests {
            let h = r["headers"] as? [String: String] ?? [:]
            let urgent = h["Title"] == "gpstrackd: overspeed start"
            #expect(h["Priority"] == (urgent ? "urgent" : "default"), "\(h)")
            #expect(h["Tags"]?.hasSuffix(urgent ? "overspeed_start" : "enter") == true, "\(h)")
            let text = r["body"] as? String ?? ""
            #expect(text.hasPrefix(urgent ? "overspeed start at " : "enter Ring road at "), "\(text)")
        }
        #expect(try daemon.entries("overspeed_start").count == titles.filter { $0.hasSuffix("overspeed start") }.count)
        #expect(daemon.stop() == 0)
    }
}
