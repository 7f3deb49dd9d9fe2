import Testing

@testable import GPSTrackCore

/// The lifetime odometer (`status`'s `odometer_m`, Home Assistant's odometer): every metre the
/// trip counter settled, across resets and restarts, never going down.
@Suite struct OdometerTests {
    /// A trip counter at `traveled` metres, started at `start`.
    static func trip(_ traveled: Double, start: Double) -> Trip {
        var t = Trip()
        t.traveledM = traveled
        t.startedAt = start
        return t
    }

    @Test func itAddsGrowthKeepsTakeBacksAndCarriesOnAcrossAResetAndARestart() {
        var c = FixCounters()
        // Figures worked by hand: 100 m; the automatic trips take 20 m back (a wander that proved
        // a stop); 70 m more (80 + 70 = 150 settled); a reset (a new start); 50 m.
        let steps: [(Double, Double, Double)] = [
            (0, 1, 0), (100, 1, 100), (80, 1, 100), (95, 1, 100), (150, 1, 150), (0, 2, 150), (50, 2, 200),
        ]
        for (traveled, start, odometer) in steps {
            c.account(Self.trip(traveled, start: start))
            #expect(c.odometerM == odometer, "at \(traveled) m of the trip from \(start)")
        }
        // A restart: the counters come back with the trip, which is not counted again.
        var tracker = Tracker()
        tracker.restore(trip: Self.trip(50, start: 2))
        tracker.restore(
            counters: FixCounters(total: 9, accepted: 9, delivered: 9, rejected: [:], odometerM: c.odometerM))
        var again = tracker.counters
        again.account(Self.trip(50, start: 2))
        #expect(again.odometerM == 200)
        again.account(Self.trip(60, start: 2))
        #expect(again.odometerM == 210)
    }
}
