import Foundation
import Testing

/// Numbers from outside bounded where they enter, on the real daemon: a circle of radius 1e19
/// pushed by `setFences` or `setWaypoints` is refused with a `cmdresult` and the daemon runs on
/// (it was saved, published as a waypoint and trapped in `Int(_:)`, and again at every start);
/// such a fences file and a `traccar_timeout_s` of 1e300 stop the start with exit 78, naming
/// the place.
@Suite(
    .serialized,
    .needs([.gpsfake, .journal, .tool("/usr/bin/python3", package: "python3")] + Need.mosquitto))
struct BoundedInputLiveTests {
    init() throws { try LiveHarness.ensureJournald() }

    static let huge =
        #"{"type":"Feature","id":"huge","properties":{"radius":1e19},"geometry":{"type":"Point","coordinates":[8.54,47.37]}}"#

    @Test func aPushedCircleOfRadius1e19IsRefusedAndTheDaemonRunsOn() throws {
        let rig = try MQTTCommandLiveTests.Rig(
            "bounds", config: "mqtt_commands = on\nmqtt_command_allow = status,waypoints,setFences,setWaypoints\n")
        let result = rig.base + "/cmd/result"
        let fences = try rig.ask(MQTTCommandFencesTests.command([Self.huge]), on: result) {
            $0["action"] as? String == "setFences"
        }
        #expect(fences["result"] as? String == "refused", "\(fences)")
        #expect(
            (fences["reason"] as? String)?.contains(#"feature 0 (id "huge"): radius must be"#) == true, "\(fences)")
        let waypoints = try rig.ask(
            #"{"_type":"cmd","action":"setWaypoints","waypoints":[{"rid":"huge","desc":"Huge","lat":47.37,"lon":8.54,"rad":1e19}]}"#,
            on: result
        ) { $0["action"] as? String == "setWaypoints" }
        #expect(waypoints["result"] as? String == "refused", "\(waypoints)")

        // Running, answering, and no waypoint of it published.
        let status = try rig.ask(#"{"_type":"cmd","action":"status"}"#, on: rig.base + "/status")
        #expect(status["_type"] as? String == "status", "\(status)")
        let listed = try rig.ask(#"{"_type":"cmd","action":"waypoints"}"#, on: rig.base + "/waypoints")
        let rids = (listed["waypoints"] as? [[String: Any]] ?? []).compactMap { $0["rid"] as? String }
        #expect(!rids.contains("huge") && !rids.isEmpty, "\(listed)")
        #expect(
            !FileManager.default.fileExists(atPath: rig.dir + "/state/pushed-fences.json"),
            "nothing of the refused set is kept for the next start")

        // And it starts again on its state directory.
        let again = try rig.statusAfterARestart()
        #expect(again.contains { $0["_type"] as? String == "status" })
    }

    /// The same circle in the OwnTracks HTTP server's reply (the loopback server of
    /// TraccarUplinkTests): refused in the POSTs that follow, and the daemon runs on.
    @Test func aCircleOfRadius1e19InTheOwnTracksHTTPReplyIsRefused() throws {
        let dir = try TraccarUplinkTests.directory("othttp-bounds")
        let server = try TraccarUplinkTests.Server(port: LiveHarness.freePort(), dir: dir, mode: "200")
        let (daemon, feed, _) = try OwnTracksHTTPCommandTests.daemon(
            "othttp-bounds", server: server, extra: "mqtt_command_allow = status,setFences,setWaypoints\n")
        defer { feed.stop() }
        try LiveHarness.waitFor("a location POSTed", timeout: 60) {
            OwnTracksHTTPCommandTests.bodies(server).contains { $0["_type"] as? String == "location" }
        }
        let commands = [
            MQTTCommandFencesTests.command([Self.huge]),
            #"{"_type":"cmd","action":"setWaypoints","waypoints":[{"rid":"huge","desc":"Huge","lat":47.37,"lon":8.54,"rad":1e19}]}"#,
            #"{"_type":"cmd","action":"status"}"#,
        ]
        try server.mode("cmdonce\n[" + commands.joined(separator: ",") + "]")
        func results() -> [[String: Any]] {
            OwnTracksHTTPCommandTests.bodies(server).filter { $0["_type"] as? String == "cmdresult" }
        }
        try LiveHarness.waitFor("both pushes answered and a status after them", timeout: 60) {
            results().count >= 2
                && OwnTracksHTTPCommandTests.bodies(server).contains { $0["_type"] as? String == "status" }
        }
        let answers = Dictionary(results().map { ($0["action"] as? String ?? "", $0) }) { a, _ in a }
        for action in ["setFences", "setWaypoints"] {
            #expect(answers[action]?["result"] as? String == "refused", "\(action): \(results())")
        }
        #expect(
            (answers["setFences"]?["reason"] as? String)?.contains("radius must be") == true, "\(results())")
        #expect(daemon.process.isRunning, "the daemon ended: \(daemon.process.terminationStatus)")
        let waypoints = OwnTracksHTTPCommandTests.bodies(server).compactMap { $0["waypoints"] as? [[String: Any]] }
        #expect(!waypoints.joined().contains { $0["rid"] as? String == "huge" }, "\(waypoints)")
        #expect(daemon.stop() == 0)
    }

    @Test func aFencesFileWithSuchACircleStopsTheStartWith78() throws {
        let dir = try StartupFailureTests.directory("radius")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fences = dir + "/huge.geojson"
        try #"{"type":"FeatureCollection","features":[\#(Self.huge)]}"#.write(
            toFile: fences, atomically: true, encoding: .utf8)
        let r = try StartupFailureTests.exits(
            StartupFailureTests.daemon(dir, socket: dir + "/ctl.sock") + ["--fences", fences])
        #expect(r.status == 78, "\(r.stderr)")
        #expect(
            r.stderr.contains(fences) && r.stderr.contains(#"feature 0 (id "huge"): radius must be"#)
                && r.stderr.contains("at most 100000"), "\(r.stderr)")
    }

    @Test func aTraccarTimeoutOf1e300StopsTheStartWith78() throws {
        let dir = try StartupFailureTests.directory("timeout")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let conf = dir + "/gpstrackd.conf"
        try "traccar_url = http://127.0.0.1:1/\ntraccar_device_id = box\ntraccar_timeout_s = 1e300\n".write(
            toFile: conf, atomically: true, encoding: .utf8)
        let r = try StartupFailureTests.exits(
            ["--config", conf] + StartupFailureTests.daemon(dir, socket: dir + "/ctl.sock"))
        #expect(r.status == 78, "\(r.stderr)")
        #expect(r.stderr.contains("\(conf):3: traccar_timeout_s: ") && r.stderr.contains("at most 600"), "\(r.stderr)")
    }
}
