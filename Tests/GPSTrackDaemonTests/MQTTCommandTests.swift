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
            (#"{"_type":"cmd","action":"anchor"}"#, "anchor", "not available from the broker"),
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
