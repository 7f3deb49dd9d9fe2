import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// OwnTracks over HTTP against the loopback server of TraccarUplinkTests, as the Recorder's
/// `/pub` takes it: the walk through the ring of LiveDaemonTests.
@Suite(.serialized, .needs([.gpsfake, .journal, .tool("/usr/bin/python3", package: "python3")]))
struct OwnTracksHTTPUplinkTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// The MQTT payloads with X-Limit-U/D and basic authentication from the password file; the
    /// command array the server answers logged and ignored; the password in no journal field.
    @Test func payloadsReachThePubEndpointWithTheRecordersHeaders() throws {
        let dir = try TraccarUplinkTests.directory("othttp")
        let httpPort = LiveHarness.freePort()
        let server = try TraccarUplinkTests.Server(port: httpPort, dir: dir, mode: "cmd")
        let password = "pw-\(UInt32.random(in: 0..<UInt32.max))"
        let passwordFile = try ExecutableRunner.temporaryFile("othttp-pw-\(getpid())", contents: password + "\n")
        let fixes = TraccarUplinkTests.now(LiveDaemonTests.walk(seconds: 230, seed: 29))
        // 10 s without a fix first: gpspipe (below) watches before the first fix.
        let log = try LiveHarness.nmeaFile(
            "othttp.nmea", fixes: fixes, padding: LiveHarness.epochs(lasting: 10, cycle: 0.01))
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: [
                "--gpsd", "127.0.0.1:\(gpsPort)", "--fences", try LiveDaemonTests.fencesFile("othttp.geojson"),
            ],
            extraConfig: """
                owntracks_http_url = http://127.0.0.1:\(httpPort)/pub
                owntracks_http_user = alice
                owntracks_http_device = box25
                owntracks_http_password_file = \(passwordFile)
                owntracks_http_min_interval_s = 5
                owntracks_http_min_distance_m = 0

                """)
        try daemon.waitFor("started")
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.01)
        defer { feed.stop() }
        let gpsd = try TPVRecorder(port: gpsPort, file: dir + "/tpv.txt")
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        try LiveHarness.waitFor("the outbox drained", timeout: 120) {
            let reply = try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#)
            return ((reply?["uplinks"] as? [String: Any])?["owntracks_http"] as? [String: Any])?["queued"] as? Int == 0
        }
        let requests = server.requests().map(\.entry)
        let basic = "Basic " + Data("alice:\(password)".utf8).base64EncodedString()
        for r in requests {
            let h = r["headers"] as? [String: String] ?? [:]
            #expect(r["path"] as? String == "/pub" && h["X-Limit-U"] == "alice" && h["X-Limit-D"] == "box25", "\(r)")
            #expect(h["Authorization"] == basic, "\(h)")
        }
        let bodies = requests.compactMap { ExecutableRunner.json($0["body"] as? String ?? "") }
        #expect(bodies.first?["_type"] as? String == "waypoints", "the waypoints first: \(bodies.first ?? [:])")
        let wp = (bodies.first?["waypoints"] as? [[String: Any]])?.first
        #expect(wp?["rid"] as? String == "ring" && wp?["rad"] as? Int == 60)
        let transitions = bodies.filter { $0["_type"] as? String == "transition" }
        #expect(
            transitions.map { $0["event"] as? String ?? "" } == ["enter", "leave"]
                && transitions.allSatisfy { $0["rid"] as? String == "ring" })
        let locations = bodies.filter { $0["_type"] as? String == "location" }
        #expect(locations.count >= 20, "\(locations.count) locations")
        let times = locations.compactMap { $0["tst"] as? Int }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "once each, oldest first")
        let reported = gpsd.fixes()
        var compared = 0
        for l in locations {
            #expect(l["tid"] as? String == "25")
            guard let fix = reported[l["tst"] as? Int ?? -1] else { continue }
            compared += 1
            #expect(abs((l["lat"] as? Double ?? .nan) - (fix["lat"] as? Double ?? .nan)) < 1e-7, "\(l) from \(fix)")
            #expect(abs((l["lon"] as? Double ?? .nan) - (fix["lon"] as? Double ?? .nan)) < 1e-7, "\(l) from \(fix)")
            #expect(l["vel"] as? Int == Int(((fix["speed"] as? Double ?? .nan) * 3.6).rounded()), "\(l) from \(fix)")
        }
        #expect(compared >= locations.count - 5)
        let ignored = try daemon.entries("owntracks_http_command_ignored")
        #expect(
            !ignored.isEmpty && ignored.allSatisfy { $0["GPSTRACK_COMMANDS"] as? String == "reportLocation" },
            "\(ignored)")
        let leaks = try daemon.entries().filter { entry in entry.values.contains { "\($0)".contains(password) } }
        #expect(leaks.isEmpty, "the password in the journal: \(leaks)")
        #expect(daemon.stop() == 0)
    }
}
