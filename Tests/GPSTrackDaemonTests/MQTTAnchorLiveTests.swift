import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The anchor watch's verbs from the broker on a real mosquitto, fed by gpsfake: drop (by value,
/// where the boat is), a bad member refused and named, status, ack, raise, and raise again
/// failing with the control socket's error.
@Suite(.serialized, .needs([.gpsfake, .journal] + Need.mosquitto))
struct MQTTAnchorLiveTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func anchorVerbsFromTheBrokerAreAnsweredByValue() throws {
        let rig = try MQTTCommandLiveTests.Rig(
            "anchor", config: "mqtt_commands = on\nmqtt_command_allow = anchor\n")
        let result = rig.base + "/cmd/result"
        let isAnchor: ([String: Any]) -> Bool = { $0["action"] as? String == "anchor" }
        func reply(_ m: [String: Any]) -> [String: Any] { m["reply"] as? [String: Any] ?? [:] }
        func watch(_ m: [String: Any]) -> [String: Any]? { reply(m)["anchor"] as? [String: Any] }

        let up = try rig.ask(#"{"_type":"cmd","action":"anchor","anchor":"status"}"#, on: result, isAnchor)
        #expect(up["result"] as? String == "done" && reply(up)["ok"] as? Bool == true, "\(up)")
        #expect(reply(up)["anchor"] is NSNull, "the anchor is up: \(up)")

        let bad = try rig.ask(
            #"{"_type":"cmd","action":"anchor","anchor":"drop","radius":40,"bearing":10}"#, on: result, isAnchor)
        #expect(bad["result"] as? String == "refused", "\(bad)")
        #expect((bad["reason"] as? String ?? "").contains("\"bearing\" and \"distance\" go together"), "\(bad)")

        let dropped = try rig.ask(
            #"{"_type":"cmd","action":"anchor","anchor":"drop","radius":40}"#, on: result, isAnchor)
        #expect(dropped["result"] as? String == "done", "\(dropped)")
        let w = try #require(watch(dropped), "\(dropped)")
        #expect(w["radius_m"] as? Double == 40 && w["alarm"] as? String == "ok", "\(w)")
        // At the boat's averaged position: on the walk (GeodSolve), within the receiver's noise.
        #expect(try rig.offPath(w) < 30, "\(w)")
        #expect((dropped["cmd"] as? [String: Any])?["radius"] as? Double == 40, "the command echoed: \(dropped)")

        let status = try rig.ask(#"{"_type":"cmd","action":"anchor","anchor":"status"}"#, on: result, isAnchor)
        #expect(
            watch(status)?["radius_m"] as? Double == 40 && watch(status)?["since"] as? String == w["since"] as? String)

        let ack = try rig.ask(#"{"_type":"cmd","action":"anchor","anchor":"ack"}"#, on: result, isAnchor)
        #expect(ack["result"] as? String == "done" && watch(ack) != nil, "\(ack)")

        let raised = try rig.ask(#"{"_type":"cmd","action":"anchor","anchor":"raise"}"#, on: result, isAnchor)
        #expect(raised["result"] as? String == "done" && reply(raised)["anchor"] is NSNull, "\(raised)")
        let again = try rig.ask(#"{"_type":"cmd","action":"anchor","anchor":"raise"}"#, on: result, isAnchor)
        #expect(
            again["result"] as? String == "failed" && again["reason"] as? String == "the anchor is not down", "\(again)"
        )
    }
}
