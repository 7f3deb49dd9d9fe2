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

    @Test func aPointFarOutsideTheBoundsLandsAtTheEdgeOfTheProfile() {
        let bounds = ExportBounds(
            points: 3, first: 1000, last: 2000, minLat: 52, maxLat: 52.1, minLon: 13, maxLon: 13.1, minAlt: nil,
            maxAlt: nil)
        var profile = SpeedProfile(bounds)
        for t in [1e300, -1e300, 1500] {
            profile.add(
                ExportPoint(
                    id: 1, time: t, lat: 52, lon: 13, alt: nil, eph: 5, mode: 3, speedMps: 10, courseDeg: nil,
                    segment: false))
        }
        let context = ExportContext(trips: [], stops: [], events: [], fences: [], bounds: bounds)
        #expect(profile.svg(context).contains("<svg"))
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
