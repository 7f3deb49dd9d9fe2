import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

@testable import GPSTrackDaemon

/// `setFences`: a GeoJSON FeatureCollection read as the fences file is, every bad feature named,
/// bounded; kept in the state directory and merged with the file's fences and the pushed
/// waypoints, a clash of ids refused.
struct MQTTCommandFencesTests {
    static func command(_ features: [String]) -> String {
        #"{"_type":"cmd","action":"setFences","fences":{"type":"FeatureCollection","features":["#
            + features.joined(separator: ",") + "]}}"
    }
    static let square =
        #"{"type":"Feature","id":"yard","properties":{"name":"Yard","dwell_s":60},"geometry":{"type":"Polygon","#
        + #""coordinates":[[[8.54,47.37],[8.55,47.37],[8.55,47.38],[8.54,47.38],[8.54,47.37]]]}}"#
    static let road =
        #"{"type":"Feature","id":"road","properties":{"width_m":30},"geometry":{"type":"LineString","#
        + #""coordinates":[[8.54,47.37],[8.56,47.37]]}}"#
    static let well =
        #"{"type":"Feature","properties":{"id":7,"radius":50,"notify":["enter"]},"geometry":{"type":"Point","coordinates":[8.5,47.3]}}"#

    static func refusal(_ text: String) -> MQTTCommand.Refusal? {
        guard case .failure(let r) = MQTTCommand.parse(Array(text.utf8)) else { return nil }
        return r
    }

    @Test func aCollectionIsReadAsTheFencesFileIs() throws {
        guard
            case .success(.setFences(let set)) = MQTTCommand.parse(
                Array(Self.command([Self.square, Self.road, Self.well]).utf8))
        else {
            Issue.record("refused")
            return
        }
        #expect(set.fences.map(\.id) == ["yard", "road", "7"])
        #expect(set.fences.map(\.shape.kind) == ["polygon", "corridor", "circle"])
        #expect(set.fences[0].name == "Yard" && set.fences[0].dwellS == 60 && set.fences[2].notify == [.enter])
        guard case .corridor(let lines, let width) = set.fences[1].shape,
            case .circle(let c, let r) = set.fences[2].shape
        else {
            Issue.record("shapes")
            return
        }
        #expect(
            width == 30
                && lines == [[.init(latitude: 47.37, longitude: 8.54), .init(latitude: 47.37, longitude: 8.56)]])
        #expect(r == 50 && c == Coordinate(latitude: 47.3, longitude: 8.5))
        // The canonical form reads back to the same set (the fuzz harness's property).
        let again = MQTTCommand.parse(Array(MQTTCommand.setFences(set).json.utf8))
        #expect(again == .success(.setFences(set)))
        #expect(MQTTCommand.setFences(set).action == "setFences")
    }

    @Test func everyBadFeatureIsNamed() {
        let unclosed =
            #"{"type":"Feature","id":"a","geometry":{"type":"Polygon","coordinates":[[[8,47],[8.1,47],[8.1,47.1],[8,47.1]]]}}"#
        let noWidth = #"{"type":"Feature","id":"b","geometry":{"type":"LineString","coordinates":[[8,47],[8.1,47]]}}"#
        let twice =
            #"{"type":"Feature","id":"yard","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[8,47]}}"#
        let noID = #"{"type":"Feature","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[8,47]}}"#
        let r = Self.refusal(Self.command([unclosed, Self.square, noWidth, twice, noID]))
        #expect(r?.action == "setFences")
        #expect(
            r?.reason
                == #"feature 0 (id "a"): ring 0 is not closed (its first and last positions differ); "#
                + #"feature 2 (id "b"): a LineString fence (corridor) needs properties.width_m (metres); "#
                + #"feature 3 (id "yard"): duplicate id (feature 1 has it too); and 1 more"#, "\(String(describing: r))"
        )

        // A bow tie: GEOS's reason, and the other bow tie named too.
        let bow = { (id: String) in
            #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Polygon","coordinates":[[[8,47],[8.1,47.1],[8.1,47],[8,47.1],[8,47]]]}}"#
        }
        let geos = Self.refusal(Self.command([bow("x"), Self.square, bow("y")]))
        #expect(
            geos?.reason.hasPrefix(#"feature 0 (id "x"): "#) == true
                && geos?.reason.contains(#"; feature 2 (id "y"): "#) == true
                && geos?.reason.contains("Self-intersection") == true, "\(String(describing: geos))")

        let long = String(repeating: "i", count: 65)
        let cases: [(String, String)] = [
            (#"{"_type":"cmd","action":"setFences"}"#, #"no "fences""#),
            (
                #"{"_type":"cmd","action":"setFences","fences":[]}"#,
                #""fences" is an array, not a GeoJSON FeatureCollection"#
            ),
            (
                #"{"_type":"cmd","action":"setFences","fences":{"type":"Feature"}}"#,
                #""fences": not a GeoJSON FeatureCollection"#
            ),
            (
                #"{"_type":"cmd","action":"setFences","fences":{"type":"FeatureCollection"}}"#,
                #"FeatureCollection without a "features" array"#
            ),
            (
                Self.command([Self.well.replacingOccurrences(of: #""id":7"#, with: #""id":"\#(long)""#)]),
                "the id must be at most 64 printable characters"
            ),
            (
                Self.command(Array(repeating: "{}", count: MQTTCommand.maxPushed + 1)),
                "\(MQTTCommand.maxPushed + 1) features, more than \(MQTTCommand.maxPushed)"
            ),
        ]
        for (payload, reason) in cases {
            let r = Self.refusal(payload)
            #expect(
                r?.action == "setFences" && r?.reason.contains(reason) == true,
                "\(payload.prefix(200)): \(String(describing: r))")
        }
        // Hostile ids and types come back cut short and printable (the journal and the answer).
        let hostile =
            #"{"type":"Feature","id":"\u001b"# + String(repeating: "z", count: 300)
            + #"","geometry":{"type":""# + String(repeating: "Q", count: 3000) + #"","coordinates":[8,47]}}"#
        let h = Self.refusal(Self.command([hostile, hostile, hostile, hostile]))
        #expect(
            (h?.reason.unicodeScalars.count ?? 1000) < 600 && h?.reason.contains("\u{1b}") == false,
            "\(String(describing: h))")
    }

    @Test func keptAndMergedWithTheFileAndTheWaypoints() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-pushed-fences-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard
            case .success(.setFences(let set)) = MQTTCommand.parse(Array(Self.command([Self.square, Self.road]).utf8))
        else {
            Issue.record("refused")
            return
        }
        #expect(PushedFences.save(set, stateDirectory: dir) == nil)
        #expect(try PushedFences.load(dir).map(\.id) == ["yard", "road"])
        let ring = Fence(index: 0, id: "ring", shape: .circle(center: .init(latitude: 47, longitude: 8), radiusM: 9))
        let dock = MQTTCommand.Waypoint(rid: "dock", desc: "Dock", lat: 47, lon: 8, rad: 5)
        #expect(PushedWaypoints.save([dock], stateDirectory: dir) == nil)
        let file = try FenceIndex(fences: [ring], file: "f.geojson")
        let merged = try PushedWaypoints.merged(file, stateDirectory: dir, file: "f.geojson")
        #expect(merged?.fences.map(\.id) == ["ring", "dock", "yard", "road"])
        #expect(merged?.fences.map(\.index) == [0, 1, 2, 3])

        // Replacing the fences keeps the file's and the waypoints; a clash is refused.
        let replaced = try PushedWaypoints.replacing(
            fences: [ring.with(id: "pond")], in: merged?.fences ?? [], stateDirectory: dir)
        #expect(replaced?.fences.map(\.id) == ["ring", "dock", "pond"])
        // An empty collection removes the pushed fences, and reads back as none.
        let none = try PushedWaypoints.replacing(fences: [], in: merged?.fences ?? [], stateDirectory: dir)
        #expect(none?.fences.map(\.id) == ["ring", "dock"])
        guard case .success(.setFences(let empty)) = MQTTCommand.parse(Array(Self.command([]).utf8)) else {
            Issue.record("an empty collection refused")
            return
        }
        #expect(PushedFences.save(empty, stateDirectory: dir) == nil)
        #expect(try PushedFences.load(dir).isEmpty)
        #expect(
            try PushedWaypoints.merged(file, stateDirectory: dir, file: "f.geojson")?.fences.map(\.id) == [
                "ring", "dock",
            ])
        #expect(throws: FenceError.self) {
            try PushedWaypoints.replacing(fences: [ring], in: merged?.fences ?? [], stateDirectory: dir)
        }
        do {
            _ = try PushedWaypoints.replacing(
                fences: [ring.with(id: "dock")], in: merged?.fences ?? [], stateDirectory: dir)
            Issue.record("a fence with a waypoint's id was taken")
        } catch {
            #expect(error.reason == #"pushed fence id "dock" is a pushed waypoint's rid"#)
        }
        // A kept file that does not read is an error naming it, not an empty set.
        try "{\"_type\":\"cmd\",\"action\":\"status\"}".write(
            toFile: PushedFences.path(dir), atomically: true, encoding: .utf8)
        #expect(throws: FenceError.self) { try PushedFences.load(dir) }
    }
}

extension Fence {
    func with(id: String) -> Fence {
        var f = self
        f.id = id
        return f
    }
}
