import Foundation
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import GPSTrackTestKit
import Testing

/// A good reload in-process (gpstrackd(8), *reload*): the new file's fences come into force,
/// *fences_reloaded* names how many, and a fence whose id is unchanged keeps its state, so the
/// reload causes no second *enter*.
@Suite struct ReloadPipelineTests {
    static let t0 = 1_773_475_200.0  // 2026-03-14T08:00:00Z
    static let here = Coordinate(latitude: 48.1, longitude: 11.5)

    static func parked(_ n: Int, from t: Double) -> [Fix] {
        (0..<n).map { i in
            Fix(
                mode: 3, time: t + Double(i), latitude: here.latitude, longitude: here.longitude, altitude: 520,
                eph: 3, speed: 0, track: 0)
        }
    }

    static func circle(_ id: String, _ c: Coordinate, radius: Double) -> String {
        #"{"type":"Feature","id":"\#(id)","properties":{"radius":\#(radius)},"#
            + #""geometry":{"type":"Point","coordinates":[\#(c.longitude),\#(c.latitude)]}}"#
    }

    static func write(_ features: [String], to path: String) throws {
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func aReloadBringsTheNewFencesAndKeepsTheStateOfTheUnchanged() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fences-\(getpid()).geojson").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let home = Self.circle("home", Self.here, radius: 100)
        try Self.write([home], to: file)
        let fences = try GeoJSONFences.parse(Array(try String(contentsOfFile: file, encoding: .utf8).utf8), file: file)
        let h = try await TrackerHarness(fences: fences) {
            $0.pedometer = .off
            $0.fencesPath = file
        }
        await h.feed(Self.parked(30, from: Self.t0))
        let before = try await h.request(.fences, as: FencesReply.self).fences
        #expect(before.map(\.id) == ["home"] && before.first?.state == "inside", "\(before)")

        // A second fence 2 km away, and home unchanged.
        let far = Coordinate(latitude: Self.here.latitude + 0.018, longitude: Self.here.longitude)
        try Self.write([home, Self.circle("depot", far, radius: 50)], to: file)
        let reply = try await h.requestLine(.reload)
        #expect(reply == #"{"ok":true,"fences":2}"#, "\(reply)")
        let reloaded = h.journal.entries(.fencesReloaded)
        try #require(reloaded.count == 1, "one fences_reloaded entry")
        #expect(reloaded[0].fields.contains { $0.0 == .fences && $0.1 == "2" }, "\(reloaded[0].fields)")

        await h.feed(Self.parked(30, from: Self.t0 + 30))
        let after = try await h.request(.fences, as: FencesReply.self).fences
        #expect(Set(after.map(\.id)) == ["home", "depot"], "\(after)")
        #expect(after.first { $0.id == "home" }?.state == "inside")
        #expect(after.first { $0.id == "depot" }?.state == "outside")
        let stored = try await h.request(.events(since: nil, fence: "home"), as: EventsReply.self).events
        // gpstrackd-fences(5): found inside at the first determination, one enter; none again.
        #expect(
            stored.filter { $0.body.name.rawValue == "enter" }.count == 1,
            "one enter for home: \(stored.map(\.body.name.rawValue))")
        #expect(!h.journal.entries(.enter).contains { $0.message.contains("depot") }, "the far fence is not entered")
        await h.close()
    }
}
