import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// 10,000 circles in one `setWaypoints` on a real mosquitto: taken whole, in force, published
/// back as waypoints, and kept across a restart. The time from the publish to the answer is
/// printed (for the note); only a referee bounds it.
@Suite(.serialized, .needs([.gpsfake, .journal] + Need.mosquitto))
struct MQTTPushScaleTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func tenThousandCirclesInOneMessage() throws {
        let rig = try MQTTCommandLiveTests.Rig(
            "scale", config: "mqtt_commands = on\nmqtt_command_allow = status,setWaypoints\n")
        // A 100 × 100 grid 5 km north of the walk, 100 m apart, 20 m each.
        let n = 10_000
        var list: [String] = []
        for i in 0..<n {
            let lat = LiveDaemonTests.base.latitude + 0.045 + Double(i / 100) * 0.0009
            let lon = LiveDaemonTests.base.longitude + Double(i % 100) * 0.0013
            list.append(
                #"{"_type":"waypoint","desc":"Buoy \#(i)","lat":\#(lat),"lon":\#(lon),"rad":20,"rid":"b\#(i)","tst":1}"#
            )
        }
        let payload =
            #"{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":["#
            + list.joined(separator: ",") + "]}}"
        let file = rig.dir + "/push.json"
        try payload.write(toFile: file, atomically: true, encoding: .utf8)
        let result = rig.base + "/cmd/result"
        // The subscriber's file holds megabytes of JSON by now: the waits look for their topic's
        // lines and parse those alone (parsing it all ten times a second would load the box).
        func raw(_ topic: String) -> [String] {
            let text = (try? String(contentsOfFile: rig.dir + "/sub.txt", encoding: .utf8)) ?? ""
            return text.split(separator: "\n").filter { $0.hasPrefix(topic + " ") }.map {
                String($0.dropFirst(topic.count + 1))
            }
        }
        let start = Date()
        let r = try ExecutableRunner.run(
            ["-h", "127.0.0.1", "-p", String(rig.port), "-q", "1", "-t", rig.base + "/cmd", "-f", file],
            executable: "/usr/bin/mosquitto_pub")
        #expect(r.status == 0)
        var answer: [String: Any] = [:]
        // A referee, not a bound: the answer comes in seconds.
        try LiveHarness.waitFor("the push answered", timeout: 120) {
            answer =
                raw(result).compactMap(ExecutableRunner.json).first { $0["action"] as? String == "setWaypoints" } ?? [:]
            return !answer.isEmpty
        }
        let seconds = Date().timeIntervalSince(start)
        print("setWaypoints of \(n) circles (\(payload.utf8.count) bytes): answered after \(seconds) s")
        let reply = answer["reply"] as? [String: Any] ?? [:]
        #expect(
            answer["result"] as? String == "done" && reply["pushed"] as? Int == n && reply["fences"] as? Int == n + 1,
            "\(answer)")
        try LiveHarness.waitFor("the waypoints published", timeout: 120) {
            raw(rig.base + "/waypoints").last?.contains(#""rid":"b9999""#) == true
        }
        let last = raw(rig.base + "/waypoints").last.flatMap(ExecutableRunner.json)
        let published = last?["waypoints"] as? [[String: Any]] ?? []
        #expect(published.count == n + 1)
        #expect(published.last?["rid"] as? String == "b9999" && published.last?["desc"] as? String == "Buoy 9999")
        let status = try rig.ask(#"{"_type":"cmd","action":"status"}"#, on: rig.base + "/status")
        #expect(status["fences_loaded"] as? Int == n + 1)

        // After a restart the kept set is read back whole.
        let restartedAt = Date()
        try rig.restart()
        let before = raw(rig.base + "/status").count
        var sentAt = Date.distantPast
        try LiveHarness.waitFor("a status after the restart", timeout: 120) {
            if raw(rig.base + "/status").count > before { return true }
            if Date().timeIntervalSince(sentAt) > 2 {
                try rig.send(#"{"_type":"cmd","action":"status"}"#)
                sentAt = Date()
            }
            return false
        }
        print("restart with \(n) pushed circles: a status after \(Date().timeIntervalSince(restartedAt)) s")
        let after = raw(rig.base + "/status").dropFirst(before).compactMap(ExecutableRunner.json)
        #expect(!after.isEmpty && after.allSatisfy { $0["fences_loaded"] as? Int == n + 1 })
    }
}
