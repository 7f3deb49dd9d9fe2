import Foundation
import GPSTrackProtocol
import Testing

@testable import GPSTrackDaemon
@testable import GPSTrackExport

/// Figures a reply or a damaged state file can hold that are valid JSON or SQLite but no Int:
/// 1e300 as a duration, a point's time far outside the page's bounds, a real in an integer
/// column. Each went through `Int(_:)` and trapped.
@Suite struct HostileFiguresTests {
    @Test func theMapPagesDurationsSayNothingForAFigureBeyondInt() {
        #expect(Clock.duration(1e300) == "–")
        #expect(Clock.duration(-1e300) == "–")
        #expect(Clock.duration(.infinity) == "–")
        // The figures it can say, from the page's own rule: minutes rounded, hours past 60.
        #expect(Clock.duration(89) == "1 min")
        #expect(Clock.duration(3 * 3600 + 5 * 60) == "3 h 5 min")
    }

    /// Points timed 1e300 s before and after a day's bounds land on the plot's left and right
    /// edges (x0 and x1 of its geometry), a point in the middle of the day in the middle, each at
    /// the height of its own speed on an axis of 100 km/h (the round ceiling of 72 km/h).
    @Test func aPointFarOutsideTheBoundsLandsAtTheEdgeOfTheProfile() throws {
        let bounds = ExportBounds(
            points: 3, first: 1000, last: 2000, minLat: 52, maxLat: 52.1, minLon: 13, maxLon: 13.1, minAlt: nil,
            maxAlt: nil)
        var profile = SpeedProfile(bounds)
        // Speeds that tell the points apart: 5, 10 and 20 m/s are 18, 36 and 72 km/h.
        for (t, v) in [(1e300, 20.0), (-1e300, 5.0), (1500, 10.0)] {
            profile.add(
                ExportPoint(
                    id: 1, time: t, lat: 52, lon: 13, alt: nil, eph: 5, mode: 3, speedMps: v, courseDeg: nil,
                    segment: false))
        }
        let context = ExportContext(trips: [], stops: [], events: [], fences: [], bounds: bounds)
        let svg = profile.svg(context)
        let line = try #require(
            svg.firstMatch(of: #/<polyline class="sp" points="([^"]*)"/>/#), "no speed line in \(svg)")
        let points = line.1.split(separator: " ").map { $0.split(separator: ",").compactMap { Double($0) } }
        // The plot spans x 50 to 950 and y 200 (0 km/h) up to 16 (the axis' top).
        func y(_ kmh: Double) -> Double { 200 - kmh / 100 * (200 - 16) }
        let expected: [[Double]] = [[50, y(18)], [500, y(36)], [950, y(72)]]
        #expect(points.count == 3, "\(line.1)")
        for (got, want) in zip(points, expected) {
            #expect(
                got.count == 2 && abs(got[0] - want[0]) <= 0.05 && abs(got[1] - want[1]) <= 0.05, "\(got) for \(want)")
        }
    }

    /// The time axis over a damaged file's span (1e300 s): at most 10 ticks, 30 days apart or a
    /// whole number of such. A fixed 30 days never ended (the page's memory grew until killed).
    @Test func theTimeAxisOverAnyTimeSpanHasAtMostTenTicksAndEnds() {
        for (first, last) in [(0.0, 1e300), (-1e300, 1e300), (1_773_475_200, 1_773_475_200 + 400 * 86_400.0)] {
            let bounds = ExportBounds(
                points: 1, first: first, last: last, minLat: 52, maxLat: 52, minLon: 13, maxLon: 13, minAlt: nil,
                maxAlt: nil)
            let svg = SpeedProfile(bounds).svg(
                ExportContext(trips: [], stops: [], events: [], fences: [], bounds: bounds))
            let ticks = svg.components(separatedBy: "text-anchor=\"middle\"").count - 1
            #expect((1...11).contains(ticks), "\(first)...\(last): \(ticks) ticks")
        }
        #expect(SpeedProfile.monthsStep(400 * 86_400) == 2 * 2_592_000)
        #expect(SpeedProfile.monthsStep(200 * 86_400) == 2_592_000)
    }

    /// The journal's and OwnTracks' whole figures from a damaged pedometer row and trip: the
    /// row outside its bounds is not loaded (`RowBounds`), so its 1e300 m is never told; a
    /// figure given anyway is said as it is (journal) or 0 (an OwnTracks integer), where
    /// `Int(_:)` trapped.
    @Test func aDamagedPedometersTripIsToldAndReported() throws {
        #expect(EventLog.metres(1e300) == "1e+300 m")
        #expect(EventLog.metres(12.5) == "13 m")
        #expect(EventLog.whole(-0.4) == "0")
        let path = NSTemporaryDirectory() + "hostile-steps-\(getpid()).db"
        unlink(path)
        defer { unlink(path) }
        do {
            var figures = StepFigures(strideM: 0.7, databasePath: path)
            figures.save(force: true)
        }
        do {
            let db = try SQLiteDatabase(path: path)
            _ = try db.query("UPDATE pedometer SET trip_steps = 5, trip_distance_m = 1e300, trip_walking_s = 1")
            #expect(db.changes == 1, "the pedometer's row is there to damage")
        }
        let entry = StepFigures(strideM: 0.7, databasePath: path).tripEntry()
        #expect(entry.message.hasPrefix("Trip: 0 steps, 0 m walked"), "\(entry.message)")
        let steps = try #require(
            ExecutableRunner.json(StepFigures.owntracks(steps: 5, distanceM: 1e300, from: 1e300, to: -1e300)))
        #expect(steps["distance"] as? Int == 0 && steps["from"] as? Int == 0 && steps["to"] as? Int == 0, "\(steps)")
        #expect(steps["steps"] as? Int == 5)
    }

    @Test func aRealBeyondInt64InAnIntegerColumnIsNoInteger() {
        #expect(SQLiteDatabase.Value.real(1e300).int == nil)
        #expect(SQLiteDatabase.Value.real(-1e19).int == nil)
        #expect(SQLiteDatabase.Value.real(.nan).int == nil)
        #expect(SQLiteDatabase.Value.real(42.9).int == 42)
        #expect(SQLiteDatabase.Value.real(-42.9).int == -42)
        #expect(SQLiteDatabase.Value.int(7).int == 7)
    }
}
