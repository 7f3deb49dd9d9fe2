import Foundation
import GPSTrackCore
import GPSTrackDaemon
import GPSTrackExport
import GPSTrackProtocol
import GPSTrackTestKit
import Testing

/// `export --since/--until` (gpstrackctl(1)): the stored points of the range, both ends
/// included, none outside; every `trkpt` of the GPX with the `ele`, `time` and `fix` of the fix
/// handed in. Both forms: `--format gpx` (the pages through `GPXExport`) and `--gpx`.
@Suite struct ExportRangeTests {
    static let t0 = 1_773_475_200.0  // 2026-03-14T08:00:00Z

    /// Two minutes of driving north at 12 m/s, a fix a second (each beyond the 10 m distance
    /// filter, so each is a track point); 2D (no altitude) from 40 s to 49 s.
    static func fixes() -> [Fix] {
        (0..<120).map { i in
            let flat = (40..<50).contains(i)
            return Fix(
                mode: flat ? 2 : 3, time: t0 + Double(i), latitude: 48.1 + Double(i) * 12 / 111_200,
                longitude: 11.5, altitude: flat ? .nan : 500 + Double(i) * 0.25, eph: 4, speed: 12, track: 0)
        }
    }

    struct TrackPoint {
        var lat: Double
        var lon: Double
        var ele: Double?
        var time: String
        var fix: String?
    }

    /// The `trkpt` elements of a GPX document, in order.
    static func trackPoints(_ gpx: String) throws -> [TrackPoint] {
        let point = try Regex(#"<trkpt lat="([^"]*)" lon="([^"]*)">(.*?)</trkpt>"#)
        func element(_ name: String, _ body: Substring) throws -> String? {
            guard let m = try Regex("<\(name)>([^<]*)</\(name)>").firstMatch(in: body) else { return nil }
            return m.output[1].substring.map(String.init)
        }
        return try gpx.matches(of: point).map { m in
            let body = m.output[3].substring ?? ""
            return TrackPoint(
                lat: Double(m.output[1].substring ?? "") ?? .nan, lon: Double(m.output[2].substring ?? "") ?? .nan,
                ele: try element("ele", body).flatMap(Double.init), time: try element("time", body) ?? "",
                fix: try element("fix", body))
        }
    }

    /// The fix's time as GPX writes it, formatted here by Foundation, not by the code under test.
    static func iso(_ t: Double) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: Date(timeIntervalSince1970: t))
    }

    /// Each point against the fix handed in at its time: position, altitude, time, 2D or 3D.
    static func check(_ points: [TrackPoint], against fixes: [Fix], latTolerance: Double) {
        for (p, f) in zip(points, fixes) {
            #expect(p.time == iso(f.time!), "time \(p.time), fix at \(iso(f.time!))")
            #expect(abs(p.lat - f.latitude) <= latTolerance && abs(p.lon - f.longitude) <= latTolerance)
            #expect(p.fix == (f.mode == 3 ? "3d" : "2d"), "at \(p.time): fix \(p.fix ?? "none"), mode \(f.mode)")
            if f.altitude.isFinite {
                #expect(p.ele.map { abs($0 - f.altitude) < 0.005 } == true, "at \(p.time): ele \(p.ele ?? .nan)")
            } else {
                #expect(p.ele == nil, "a 2D fix has no altitude: \(p.ele ?? .nan)")
            }
        }
    }

    /// The pages of `export --format gpx` for a scope, through the format's writer.
    static func pagedGPX(_ h: TrackerHarness, _ scope: ExportScope) async throws -> String {
        var out = ""
        var writer = GPXExport(title: "test") { out += $0 }
        var after: Int?
        var first = true
        repeat {
            let page = try await h.request(.exportPage(scope, after: after), as: ExportPageReply.self)
            if first { writer.begin(try #require(page.context, "the first page has the context")) }
            first = false
            for p in page.points { writer.point(p) }
            after = page.after
        } while after != nil
        writer.finish()
        return out
    }

    @Test func theRangeHoldsExactlyTheStoredFixesOfItsTimesBothEndsIncluded() async throws {
        let fixes = Self.fixes()
        let h = try await TrackerHarness { $0.pedometer = .off }
        await h.feed(fixes)
        await h.endFeed()
        let everything = try Self.trackPoints(
            try await Self.pagedGPX(h, ExportScope(trip: nil, since: nil, until: nil)))
        try #require(everything.count == fixes.count, "every fix driven is stored: \(everything.count)")

        let (since, until) = (Self.t0 + 30, Self.t0 + 89)
        let inRange = fixes.filter { $0.time! >= since && $0.time! <= until }
        #expect(inRange.count == 60 && inRange.contains { $0.mode == 2 })
        let paged = try Self.trackPoints(try await Self.pagedGPX(h, ExportScope(trip: nil, since: since, until: until)))
        let times = inRange.map { Self.iso($0.time!) }
        // The points compared one by one only once they are the range's (else one message).
        #expect(paged.map(\.time) == times, "from \(Self.iso(since)) to \(Self.iso(until))")
        if paged.map(\.time) == times { Self.check(paged, against: inRange, latTolerance: 5e-8) }

        let earlier = try await h.request(.export(trip: nil, since: since, until: until), as: ExportReply.self)
        #expect(earlier.points == 60)
        let points = try Self.trackPoints(earlier.gpx)
        #expect(points.map(\.time) == times, "--gpx: the same range")
        // The same writer as the pages' (`GPXExport`, 7 decimals), streamed.
        if points.map(\.time) == times { Self.check(points, against: inRange, latTolerance: 5e-8) }

        // Only --since: to the last point; a range with no point: nothing.
        let tail = try Self.trackPoints(
            try await Self.pagedGPX(h, ExportScope(trip: nil, since: Self.t0 + 100, until: nil)))
        #expect(tail.map(\.time) == fixes.suffix(20).map { Self.iso($0.time!) })
        let none = try await h.request(
            .exportPage(ExportScope(trip: nil, since: Self.t0 + 30.2, until: Self.t0 + 30.8), after: nil),
            as: ExportPageReply.self)
        #expect(none.points.isEmpty && none.empty != nil, "between two fixes: \(none.points.count) points")
        await h.close()
    }
}
