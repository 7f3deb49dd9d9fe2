import Foundation
import Testing

/// Numbers from outside bounded where they enter, on the real daemon: a circle of radius 1e19
/// pushed by `setFences` or `setWaypoints` is refused with a `cmdresult` and the daemon runs on
/// (it was saved, published as a waypoint and trapped in `Int(_:)`, and again at every start);
/// such a fences file and a `traccar_timeout_s` of 1e300 stop the start with exit 78, naming
/// the place.
@Suite(.serialized, .needs([.gpsfake, .journal] + Need.mosquitto))
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
