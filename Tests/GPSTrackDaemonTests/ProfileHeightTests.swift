import Foundation
import GPSTrackProtocol
import Testing

@testable import GPSTrackExport

/// The profile's height line (issue 44): a receiver's few metres of vertical noise are not drawn
/// as hills; a real climb is, on a scale of its own.
@Suite struct ProfileHeightTests {
    static let t0 = 1_773_475_200.0

    /// A day of a fix a second for an hour at `height(t)` plus noise of about ±2 m (seeded).
    static func profile(_ height: (Double) -> Double) -> String {
        let bounds = ExportBounds(
            points: 3600, first: t0, last: t0 + 3599, minLat: 52, maxLat: 52.1, minLon: 13, maxLon: 13.1, minAlt: nil,
            maxAlt: nil)
        var p = SpeedProfile(bounds)
        var seed: UInt64 = 44
        for i in 0..<3600 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = (Double(seed >> 11) / Double(1 << 53) - 0.5) * 4
            p.add(
                ExportPoint(
                    id: i + 1, time: t0 + Double(i), lat: 52, lon: 13, alt: height(Double(i)) + noise, eph: 25, mode: 3,
                    speedMps: 10, courseDeg: 0, segment: i == 0))
        }
        return p.svg(ExportContext(trips: [], stops: [], events: [], fences: [], bounds: bounds))
    }

    @Test func aFlatDaysNoiseIsSaidNotDrawn() throws {
        let svg = Self.profile { _ in 82 }
        #expect(!svg.contains("class=\"alt\""), "no height line")
        let note = try #require(svg.firstMatch(of: #/height (\d+)–(\d+) m, within the receiver's error/#))
        #expect(Int(note.1)! >= 79 && Int(note.2)! <= 85, "the range said: \(note.0)")
    }

    @Test func aClimbIsDrawnOnItsOwnScale() throws {
        // 100 m up over the hour: drawn, its axis from at or below the start to at or above the top.
        let svg = Self.profile { 80 + $0 / 36 }
        #expect(svg.contains("class=\"alt\"") && !svg.contains("within the receiver's error"))
        let marks = svg.matches(of: #/<text x="954[^"]*" y="[^"]*">(-?\d+) m</text>/#).compactMap { Int($0.1) }
        #expect(marks.count == 3, "\(marks)")
        #expect((marks.min() ?? 999) <= 81 && (marks.max() ?? 0) >= 179, "the axis holds the climb: \(marks)")
    }
}
