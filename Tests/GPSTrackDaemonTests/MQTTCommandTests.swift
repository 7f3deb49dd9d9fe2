import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

@testable import GPSTrackDaemon

/// The broker's command parser on hostile payloads: each refusal by its reason, each command by
/// value, and the fuzz harness's property (the canonical form reads back) over its seed corpus.
struct MQTTCommandTests {
    static func parse(_ text: String) -> Result<MQTTCommand, MQTTCommand.Refusal> {
        MQTTCommand.parse(Array(text.utf8))
    }

    @Test func commandsByValue() {
        #expect(Self.parse(#"{"_type":"cmd","action":"reportLocation"}"#) == .success(.reportLocation))
        #expect(Self.parse(#"{"action":"guard","_type":"cmd","on":false}"#) == .success(.guard(false)))
        #expect(Self.parse(#"{"_type":"cmd","action":"trip","trip":"stop"}"#) == .success(.trip(.stop)))
        #expect(
            Self.parse(#"{"_type":"cmd","action":"reportSteps","from":1700000000}"#)
                == .success(.reportSteps(from: 1_700_000_000, to: nil)))
        let w = MQTTCommand.Waypoint(rid: "home", desc: "Home", lat: 52.1, lon: 4.3, rad: 50)
        #expect(
            Self.parse(
                #"{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"Home","lat":52.1,"lon":4.3,"rad":50,"rid":"home","tst":1}]}}"#
            )
                == .success(.setWaypoints([w])))
        #expect(
            Self.parse(
                #"{"_type":"cmd","action":"setWaypoints","waypoints":[{"desc":"Home","lat":52.1,"lon":4.3,"rad":50,"rid":"home"}]}"#
            )
                == .success(.setWaypoints([w])))
        #expect(Self.parse(#"{"_type":"cmd","action":"anchor","anchor":"status"}"#) == .success(.anchor(.status)))
        #expect(Self.parse(#"{"_type":"cmd","action":"anchor","anchor":"raise"}"#) == .success(.anchor(.raise)))
        #expect(Self.parse(#"{"_type":"cmd","action":"anchor","anchor":"ack"}"#) == .success(.anchor(.ack)))
        #expect(
            Self.parse(#"{"_type":"cmd","action":"anchor","anchor":"drop","radius":5}"#)
                == .success(.anchor(.drop(.init(radiusM: 5)))))
        #expect(
            Self.parse(
                #"{"_type":"cmd","action":"anchor","anchor":"drop","bearing":-360,"distance":1000,"rode":0.1,"depth":500}"#
            ) == .success(.anchor(.drop(.init(bearing: -360, distanceM: 1000, rodeM: 0.1, depthM: 500)))))
        #expect(
            Self.parse(#"{"_type":"cmd","action":"anchor","anchor":"drop","radius":10000,"rode":35,"depth":0}"#)
                == .success(.anchor(.drop(.init(radiusM: 10000, rodeM: 35, depthM: 0)))))
        #expect(Self.parse("{\n \"_type\" : \"cmd\",\n \"action\" : \"dump\"\n}\n") == .success(.dump))
    }

    @Test func refusalsSayWhy() {
        let cases: [(String, String?, String)] = [
            (#"[1,2]"#, nil, "not a JSON object"),
            (#"{"_type":"cmd""#, nil, "not JSON"),
            (#"{"action":"status"}"#, nil, "no \"_type\""),
            (#"{"_type":"location","action":"status"}"#, nil, "\"_type\" is \"location\", not \"cmd\""),
            (#"{"_type":"cmd"}"#, nil, "no \"action\""),
            (#"{"_type":"cmd","action":7}"#, nil, "\"action\" is a number"),
            (#"{"_type":"cmd","action":"selfDestruct"}"#, "selfDestruct", "unknown action"),
            (#"{"_type":"cmd","action":"status","verbose":true}"#, "status", "unknown member \"verbose\""),
            (#"{"_type":"cmd","action":"guard","on":"yes"}"#, "guard", "\"on\" is \"yes\", not true or false"),
            (#"{"_type":"cmd","action":"guard"}"#, "guard", "no \"on\""),
            (#"{"_type":"cmd","action":"trip","trip":"pause"}"#, "trip", "\"trip\" is \"pause\""),
            (
                #"{"_type":"cmd","action":"reportSteps","from":-1}"#, "reportSteps",
                "\"from\" is a number, not Unix seconds"
            ),
            (#"{"_type":"cmd","action":"status","x":{"y":[[[[[[[{}]]]]]]]}}"#, nil, "nested deeper than 9"),
            (
                #"{"_type":"cmd","action":"setWaypoints","waypoints":[{"desc":"A","lat":1,"lon":2,"rad":3,"rid":"a"},{"desc":"A","lat":1,"lon":2,"rad":3,"rid":"a","uuid":"u"},{"desc":"B","lat":1,"lon":2,"rad":3,"rid":"a"}]}"#,
                "setWaypoints", #"waypoint 2 (rid "a"): unknown member "uuid"; waypoint 3 (rid "a"): rid used twice"#
            ),
            (
                #"{"_type":"cmd","action":"setWaypoints","waypoints":[{"desc":"A","lat":1,"lon":200,"rad":3,"rid":"a"},{"desc":"B","lat":1,"lon":2,"rad":0,"rid":"b"}]}"#,
                "setWaypoints",
                #"waypoint 1 (rid "a"): "lon" must be a number from -180 to 180; waypoint 2 (rid "b"): "rad" must be metres above 0"#
            ),
            (
                #"{"_type":"cmd","action":"setWaypoints","waypoints":7}"#, "setWaypoints",
                "\"waypoints\" is a number, not an array"
            ),
            (#"{"_type":"cmd","action":"anchor"}"#, "anchor", "no \"anchor\" (drop, raise, ack or status)"),
            (#"{"_type":"cmd","action":"anchor","anchor":"weigh"}"#, "anchor", "\"anchor\" is \"weigh\", not \"drop\""),
            (#"{"_type":"cmd","action":"anchor","anchor":true}"#, "anchor", "\"anchor\" is true, not \"drop\""),
            (
                #"{"_type":"cmd","action":"anchor","anchor":"drop"}"#, "anchor",
                "drop needs \"radius\", or \"rode\" and \"depth\""
            ),
            (
                #"{"_type":"cmd","action":"anchor","anchor":"drop","radius":4}"#, "anchor",
                "\"radius\" is a number, not a number from 5 to 10000"
            ),
            (
                #"{"_type":"cmd","action":"anchor","anchor":"drop","radius":"40"}"#, "anchor",
                "\"radius\" is \"40\", not a number from 5 to 10000"
            ),
            (
                #"{"_type":"cmd","action":"anchor","anchor":"drop","radius_m":40}"#, "anchor",
                "unknown member \"radius_m\""
            ),
            (
                #"{"_type":"cmd","action":"anchor","anchor":"drop","radius":40,"bearing":10}"#, "anchor",
                "\"bearing\" and \"distance\" go together"
            ),
            (
                #"{"_type":"cmd","action":"anchor","anchor":"drop","radius":40,"distance":1001,"bearing":0}"#, "anchor",
                "\"distance\" is a number, not a number from 0 to 1000"
            ),
            (
                #"{"_type":"cmd","action":"anchor","anchor":"drop","rode":40}"#, "anchor",
                "\"rode\" and \"depth\" go together"
            ),
            (
                #"{"_type":"cmd","action":"anchor","anchor":"drop","rode":0.05,"depth":1}"#, "anchor",
                "\"rode\" is a number, not a number from 0.1 to 1000"
            ),
            (
                #"{"_type":"cmd","action":"anchor","anchor":"drop","rode":40,"depth":501}"#, "anchor",
                "\"depth\" is a number, not a number from 0 to 500"
            ),
            (
                #"{"_type":"cmd","action":"anchor","anchor":"drop","radius":40,"bearing":361,"distance":5}"#, "anchor",
                "\"bearing\" is a number, not a number from -360 to 360"
            ),
            (
                #"{"_type":"cmd","action":"anchor","anchor":"ack","radius":40}"#, "anchor",
                "\"radius\" goes with \"anchor\":\"drop\", not \"ack\""
            ),
        ]
        for (payload, action, reason) in cases {
            guard case .failure(let r) = Self.parse(payload) else {
                Issue.record("\(payload) was accepted")
                continue
            }
            #expect(r.action == action && r.reason.contains(reason), "\(payload): \(r)")
        }
        #expect(
            MQTTCommand.parse([UInt8](repeating: 0x20, count: MQTTCommand.maxBytes + 1))
                == .failure(.init(reason: "longer than 4194304 bytes")))
        // 60,000 brackets: refused by the depth count, not by recursion.
        let deep = String(repeating: "[", count: 60_000)
        #expect(Self.parse(deep) == .failure(.init(reason: "nested deeper than 9")))
        // A hostile action name is echoed cut short and without control characters.
        guard
            case .failure(let r) = Self.parse(
                #"{"_type":"cmd","action":"\u001b[31m"# + String(repeating: "x", count: 500) + #""}"#)
        else {
            Issue.record("accepted")
            return
        }
        #expect(r.action?.hasPrefix("?[31m") == true && r.action?.count == 64, "\(r)")
    }

    /// The fuzz harness's property, over its seed corpus and every command.
    @Test func canonicalFormReadsBack() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../fuzz/mqtt-command/corpus"
        ).path
        let seeds = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(seeds.count >= 5)
        var commands: [MQTTCommand] = [
            .reportLocation, .status, .dump, .waypoints, .reload, .guard(true), .guard(false),
            .reportSteps(from: 0.1, to: 1e10 + 0.5), .reportSteps(from: nil, to: nil),
            .setWaypoints([.init(rid: "r\u{1F600}", desc: "\"q\"", lat: -90, lon: 179.999999999, rad: 0.001)]),
            .setWaypoints([]),
            .anchor(.status), .anchor(.raise), .anchor(.ack), .anchor(.drop(.init(radiusM: 40.5))),
            .anchor(.drop(.init(radiusM: 9999.25, bearing: -12.5, distanceM: 0, rodeM: 0.1, depthM: 3))),
        ]
        commands += MQTTCommand.TripVerb.allCases.map { .trip($0) }
        for seed in seeds {
            if case .success(let c) = MQTTCommand.parse(
                Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + seed))))
            {
                commands.append(c)
            }
        }
        for c in commands { #expect(MQTTCommand.parse(Array(c.json.utf8)) == .success(c), "\(c.json)") }
    }
}
