import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The commands in the OwnTracks HTTP server's reply (the loopback server of
/// TraccarUplinkTests), run as the broker's are: allowed ones answered by value in the POSTs
/// that follow, the rest refused and answered, each journaled with `GPSTRACK_SOURCE=owntracks_http`,
/// a repeated refusal logged once.
@Suite(.serialized, .needs([.gpsfake, .journal, .tool("/usr/bin/python3", package: "python3")]))
struct OwnTracksHTTPCommandTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// The daemon POSTing to `server`, without MQTT, on a walk slow enough to last the test.
    static func daemon(_ name: String, server: TraccarUplinkTests.Server, extra: String) throws -> (
        LiveHarness.DaemonProcess, LiveHarness.Feed, SimulatedTrace
    ) {
        let trace = LiveDaemonTests.walk(seconds: 230, seed: 41)
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: [
                "--gpsd", "127.0.0.1:\(gpsPort)", "--fences", try LiveDaemonTests.fencesFile("\(name).geojson"),
            ],
            extraConfig: """
                owntracks_http_url = http://127.0.0.1:\(server.port)/pub
                owntracks_http_device = box26
                owntracks_http_min_interval_s = 5
                owntracks_http_min_distance_m = 0
                mqtt_commands = on

                """ + extra)
        try daemon.waitFor("started")
        let log = try LiveHarness.nmeaFile("\(name).nmea", fixes: TraccarUplinkTests.now(trace), padding: 5)
        return (daemon, try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.1), trace)
    }

    static func bodies(_ server: TraccarUplinkTests.Server) -> [[String: Any]] {
        server.requests().compactMap { ExecutableRunner.json($0.entry["body"] as? String ?? "") }
    }

    @Test func commandsInTheRepliesRunAsTheBrokersDo() throws {
        let dir = try TraccarUplinkTests.directory("othttp-cmd")
        let server = try TraccarUplinkTests.Server(port: LiveHarness.freePort(), dir: dir, mode: "200")
        // Traccar too, on a server of its own, its intervals long: what it gets after its first
        // fix is the report (or a trip's start or end).
        let traccarDir = try TraccarUplinkTests.directory("othttp-cmd-traccar")
        let traccar = try TraccarUplinkTests.Server(port: LiveHarness.freePort(), dir: traccarDir, mode: "200")
        let (daemon, feed, trace) = try Self.daemon(
            "othttp-cmd", server: server,
            extra: "mqtt_command_allow = status,reportLocation,setWaypoints\n"
                + "traccar_url = http://127.0.0.1:\(traccar.port)/\ntraccar_device_id = box26\n"
                + "traccar_min_interval_s = 100000\ntraccar_heartbeat_s = 100000\n")
        defer { feed.stop() }
        try LiveHarness.waitFor("a location POSTed", timeout: 60) {
            Self.bodies(server).contains { $0["_type"] as? String == "location" }
        }
        let dock = Geodesic.destination(from: LiveDaemonTests.base, azimuth: 90, distance: 250)
        let commands = [
            #"{"_type":"cmd","action":"status"}"#, #"{"_type":"cmd","action":"reportLocation"}"#,
            #"{"_type":"location","lat":1,"lon":2,"tst":1,"tid":"fr"}"#, #"{"_type":"cmd","action":"dump"}"#,
            #"{"_type":"cmd","action":"guard","on":"yes"}"#,
            #"{"_type":"cmd","action":"setWaypoints","waypoints":[{"desc":"Dock","lat":\#(dock.latitude),"lon":\#(dock.longitude),"rad":40,"rid":"dock"}]}"#,
        ]
        try server.mode("cmdonce\n[" + commands.joined(separator: ",") + "]")
        func results() -> [[String: Any]] { Self.bodies(server).filter { $0["_type"] as? String == "cmdresult" } }
        try LiveHarness.waitFor("the setWaypoints answered", timeout: 60) {
            results().contains { $0["action"] as? String == "setWaypoints" }
        }
        let bodies = Self.bodies(server)
        let status = bodies.first { $0["_type"] as? String == "status" } ?? [:]
        #expect(
            status["version"] as? String == ControlRequest.version && status["fences_loaded"] as? Int == 1, "\(status)")
        let reported = bodies.filter { $0["_type"] as? String == "location" && $0["t"] as? String == "r" }
        #expect(reported.count == 1 && reported.first?["tid"] as? String == "26", "\(reported)")
        if let r = reported.first {
            let at = Coordinate(latitude: r["lat"] as? Double ?? 0, longitude: r["lon"] as? Double ?? 0)
            #expect(try GeodSolveTruth.lengths(trace.truth.map { [$0, at] }).min() ?? .infinity < 30, "\(r)")
        }
        let refused = results().filter { $0["result"] as? String == "refused" }
        #expect(
            refused.map { $0["reason"] as? String ?? "" } == [
                "dump is not in mqtt_command_allow", #""on" is "yes", not true or false"#,
            ], "\(refused)")
        let pushed = results().first { $0["action"] as? String == "setWaypoints" } ?? [:]
        #expect(
            pushed["result"] as? String == "done" && (pushed["reply"] as? [String: Any])?["fences"] as? Int == 2,
            "\(pushed)")
        try LiveHarness.waitFor("the waypoints with the dock POSTed", timeout: 30) {
            Self.bodies(server).contains {
                ($0["waypoints"] as? [[String: Any]])?.map { $0["rid"] as? String } == ["ring", "dock"]
            }
        }
        try daemon.waitFor("mqtt_command", count: 3)
        let done = try daemon.entries("mqtt_command")
        #expect(
            done.map { $0["GPSTRACK_ACTION"] as? String } == ["status", "reportLocation", "setWaypoints"], "\(done)")
        #expect(
            done.allSatisfy { $0["GPSTRACK_SOURCE"] as? String == "owntracks_http" && $0["PRIORITY"] as? String == "5" }
        )
        #expect(
            (done[1]["GPSTRACK_RESULT"] as? String) == "location published on traccar, owntracks_http", "\(done)")
        // The same fix reported to Traccar, once.
        let tst = reported.first?["tst"] as? Int ?? -1
        try LiveHarness.waitFor("the report at Traccar", timeout: 30) {
            traccar.requests().contains { $0.fields["timestamp"] == String(tst) }
        }
        let atTraccar = traccar.requests().filter { $0.fields["timestamp"] == String(tst) }
        #expect(atTraccar.count == 1 && atTraccar.first?.fields["id"] == "box26", "\(atTraccar.map(\.fields))")

        // The same bad command in every reply: answered within the limit, logged once in all.
        try server.mode("cmd\n[{\"_type\":\"cmd\",\"action\":\"guard\",\"on\":\"yes\"}]")
        let before = server.requests().count
        try LiveHarness.waitFor("15 more requests", timeout: 120) { server.requests().count >= before + 15 }
        try server.mode("200")
        let answers = results().filter { $0["result"] as? String == "refused" }.count
        #expect(answers >= 4 && answers <= 10, "\(answers) refusals answered")
        let entries = try daemon.entries("mqtt_command_refused")
        #expect(entries.map { $0["GPSTRACK_ACTION"] as? String } == ["dump", "guard"], "\(entries)")
        #expect(entries.allSatisfy { $0["GPSTRACK_SOURCE"] as? String == "owntracks_http" })
        #expect(daemon.stop() == 0)
    }

    /// With `mqtt_secret_file`: every body POSTed opens with PyNaCl into its OwnTracks payload;
    /// a command PyNaCl sealed in the reply is obeyed; plaintext and another key's refused,
    /// logged once a kind.
    @Test(.enabled(if: OwnTracksCryptoTests.haveNaCl, "python3-nacl is installed by `make test`"))
    func sealedBodiesAndSealedCommands() throws {
        let dir = try TraccarUplinkTests.directory("othttp-sealed")
        let secret = "fleet secret \(getpid())"
        try (secret + "\n").write(toFile: dir + "/secret", atomically: true, encoding: .utf8)
        let server = try TraccarUplinkTests.Server(port: LiveHarness.freePort(), dir: dir, mode: "200")
        let (daemon, feed, _) = try Self.daemon(
            "othttp-sealed", server: server,
            extra: "mqtt_command_allow = status\nmqtt_secret_file = \(dir)/secret\n")
        defer { feed.stop() }
        try LiveHarness.waitFor("a location POSTed", timeout: 60) { Self.bodies(server).count >= 2 }
        let cmd = #"{"_type":"cmd","action":"status"}"#
        // Dated by the fixes (whose times the feed takes from the clock now), as a sealed command must be.
        let dated = #"{"_type":"cmd","action":"status","tst":\#(Int(Date().timeIntervalSince1970))}"#
        let ours = try OwnTracksCryptoTests.nacl("seal", key: secret, input: dated + "\n")[0]
        let theirs = try OwnTracksCryptoTests.nacl("seal", key: "another key", input: cmd + "\n")[0]
        try server.mode("cmdonce\n[" + [cmd, theirs, theirs, cmd, ours].joined(separator: ",") + "]")
        func opened() throws -> [[String: Any]] {
            let lines = server.requests().map { $0.entry["body"] as? String ?? "" }
            return try OwnTracksCryptoTests.nacl("open", key: secret, input: lines.joined(separator: "\n") + "\n")
                .compactMap(ExecutableRunner.json)
        }
        try LiveHarness.waitFor("the status POSTed", timeout: 60) {
            try opened().contains { $0["_type"] as? String == "status" }
        }
        let bodies = Self.bodies(server)
        #expect(bodies.allSatisfy { $0["_type"] as? String == "encrypted" && $0.count == 2 }, "\(bodies.prefix(3))")
        let payloads = try opened()
        #expect(payloads.count == bodies.count, "each body opens")
        #expect(payloads.first?["_type"] as? String == "waypoints", "\(payloads.first ?? [:])")
        #expect(payloads.filter { $0["_type"] as? String == "location" }.allSatisfy { $0["tid"] as? String == "26" })
        let status = payloads.first { $0["_type"] as? String == "status" } ?? [:]
        #expect(status["version"] as? String == ControlRequest.version && status["fences_loaded"] as? Int == 1)
        try daemon.waitFor("mqtt_command")
        #expect(try daemon.entries("mqtt_command").map { $0["GPSTRACK_SOURCE"] as? String } == ["owntracks_http"])
        let reasons = try daemon.entries("mqtt_command_refused").map { $0["GPSTRACK_REASON"] as? String ?? "" }
        #expect(
            reasons.count == 2 && reasons[0].contains("not encrypted") && reasons[1].contains("does not open"),
            "\(reasons)")
        #expect(daemon.stop() == 0)
        let all = try daemon.entries().flatMap { entry in entry.flatMap { [$0.key] + MQTTTests.texts($0.value) } }
        #expect(!all.contains { $0.contains(secret) }, "the secret is in the journal")
    }
}
