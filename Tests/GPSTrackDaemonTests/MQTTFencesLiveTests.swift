import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// `setFences` on a real mosquitto, fed by gpsfake: a polygon and a corridor the box is inside
/// pushed and entered; a bad collection refused naming each bad feature, the set kept; a clash
/// with the fences file refused; the pushed set in force after a restart.
@Suite(.serialized, .needs([.gpsfake, .journal] + Need.mosquitto))
struct MQTTFencesLiveTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func pushedFencesAreEnteredAndKept() throws {
        let rig = try MQTTCommandLiveTests.Rig(
            "fences", config: "mqtt_commands = on\nmqtt_command_allow = status,setFences,reload\n")
        let result = rig.base + "/cmd/result"
        let b = LiveDaemonTests.base
        // The walk goes 322 m east of `base`: the yard (about 750 m by 450 m) holds all of it,
        // the path (40 m wide) runs along it; the well is 10 km off.
        let (w, e, s, n) = (b.longitude - 0.004, b.longitude + 0.006, b.latitude - 0.002, b.latitude + 0.002)
        let yard =
            #"{"type":"Feature","id":"yard","properties":{"name":"Yard"},"geometry":{"type":"Polygon","coordinates":"#
            + "[[[\(w),\(s)],[\(e),\(s)],[\(e),\(n)],[\(w),\(n)],[\(w),\(s)]]]}}"
        let path =
            #"{"type":"Feature","id":"path","properties":{"name":"Path","width_m":40},"geometry":{"type":"LineString","#
            + #""coordinates":[[\#(b.longitude - 0.001),\#(b.latitude)],[\#(b.longitude + 0.006),\#(b.latitude)]]}}"#
        let well =
            #"{"type":"Feature","id":"well","properties":{"radius":30},"geometry":{"type":"Point","coordinates":[\#(b.longitude),\#(b.latitude + 0.09)]}}"#
        func push(_ features: [String]) -> String {
            #"{"_type":"cmd","action":"setFences","fences":{"type":"FeatureCollection","features":["#
                + features.joined(separator: ",") + "]}}"
        }
        let done = try rig.ask(push([yard, path, well]), on: result) { $0["action"] as? String == "setFences" }
        let reply = done["reply"] as? [String: Any] ?? [:]
        #expect(
            done["result"] as? String == "done" && reply["pushed"] as? Int == 3 && reply["fences"] as? Int == 4,
            "\(done)")
        // Referees, not bounds: the box is inside both at the next fix.
        try rig.daemon.waitFor("enter", containing: "Yard", timeout: 120)
        try rig.daemon.waitFor("enter", containing: "Path", timeout: 120)

        // Two bad features of three: both named, nothing applied.
        let open = yard.replacingOccurrences(of: "],[\(w),\(s)]]]", with: "]]]").replacingOccurrences(
            of: #""yard""#, with: #""pond""#)
        let noWidth = path.replacingOccurrences(of: #","width_m":40"#, with: "")
        let refused = try rig.ask(push([well, open, noWidth]), on: result) { $0["result"] as? String == "refused" }
        #expect(
            refused["reason"] as? String
                == #"feature 1 (id "pond"): ring 0 is not closed (its first and last positions differ); "#
                + #"feature 2 (id "path"): a LineString fence (corridor) needs properties.width_m (metres)"#,
            "\(refused)")
        let clash = try rig.ask(
            push([well.replacingOccurrences(of: #""well""#, with: #""ring""#)]), on: result
        ) { $0["result"] as? String == "failed" }
        #expect(
            (clash["reason"] as? String)?.contains(#"pushed fence id "ring" is a fence of the fences file"#) == true,
            "\(clash)")
        let status = try rig.ask(#"{"_type":"cmd","action":"status"}"#, on: rig.base + "/status")
        #expect(status["fences_loaded"] as? Int == 4, "\(status)")
        // A reload reads the file again and keeps the pushed set merged in.
        let reload = try rig.ask(#"{"_type":"cmd","action":"reload"}"#, on: result) {
            $0["action"] as? String == "reload"
        }
        #expect(
            reload["result"] as? String == "done" && (reload["reply"] as? [String: Any])?["fences"] as? Int == 4,
            "\(reload)")
        try rig.daemon.waitFor("mqtt_command_refused")
        let refusedEntries = try rig.daemon.entries("mqtt_command_refused")
        #expect(
            refusedEntries.count == 1 && (refusedEntries.first?["GPSTRACK_REASON"] as? String)?.contains("pond") == true
        )

        // After the restart: asked again until answered (one sent before the daemon subscribed is lost).
        let after = try rig.statusAfterARestart()
        #expect(!after.isEmpty && after.allSatisfy { $0["fences_loaded"] as? Int == 4 }, "\(Array(after))")
        // The well, the one pushed circle, among the waypoints published at the restart.
        let waypoints = rig.on(rig.base + "/waypoints").last?["waypoints"] as? [[String: Any]] ?? []
        #expect(waypoints.map { $0["rid"] as? String } == ["ring", "well"], "\(waypoints)")
    }
}
