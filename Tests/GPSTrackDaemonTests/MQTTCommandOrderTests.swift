import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Commands run in the order the broker delivered them: thirty `setWaypoints` published back to
/// back on one connection are answered in that order and the last one is the set in force.
@Suite(.serialized, .needs([.gpsfake, .journal] + Need.mosquitto))
struct MQTTCommandOrderTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func pushesApplyInTheOrderSent() throws {
        let rig = try MQTTCommandLiveTests.Rig(
            "order", config: "mqtt_commands = on\nmqtt_command_allow = status,setWaypoints\n")
        let n = 30
        // Push k holds k circles: its answer says which it was.
        var lines: [String] = []
        for k in 1...n {
            let list = (0..<k).map { i in
                #"{"desc":"W\#(i)","lat":\#(48 + Double(i) * 0.001),"lon":9,"rad":10,"rid":"w\#(i)"}"#
            }
            lines.append(#"{"_type":"cmd","action":"setWaypoints","waypoints":["# + list.joined(separator: ",") + "]}")
        }
        let r = try ExecutableRunner.run(
            ["-h", "127.0.0.1", "-p", String(rig.port), "-q", "1", "-t", rig.base + "/cmd", "-l"],
            stdin: Data((lines.joined(separator: "\n") + "\n").utf8), executable: "/usr/bin/mosquitto_pub")
        #expect(r.status == 0)
        let result = rig.base + "/cmd/result"
        try LiveHarness.waitFor("\(n) answers", timeout: 60) {
            rig.on(result).filter { $0["action"] as? String == "setWaypoints" }.count >= n
        }
        let pushed = rig.on(result).filter { $0["action"] as? String == "setWaypoints" }.map {
            ($0["reply"] as? [String: Any])?["pushed"] as? Int ?? -1
        }
        #expect(pushed == Array(1...n), "\(pushed)")
        let status = try rig.ask(#"{"_type":"cmd","action":"status"}"#, on: rig.base + "/status")
        #expect(status["fences_loaded"] as? Int == n + 1, "\(status)")
    }
}
