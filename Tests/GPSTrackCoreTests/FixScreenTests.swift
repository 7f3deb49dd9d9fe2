import Testing

@testable import GPSTrackCore
@testable import GPSTrackProtocol

@Suite struct FixScreenTests {
    func verdict(_ fix: Fix, after previous: [Fix] = []) -> FixScreen.Verdict {
        var screen = FixScreen(config: TrackerConfig())
        for p in previous { _ = screen.screen(p) }
        return screen.screen(fix)
    }

    @Test func validity() {
        #expect(verdict(FixFactory.at(0, mode: 1)) == .rejected(.noFix))
        #expect(verdict(Fix(mode: 3, time: nil, latitude: 1, longitude: 1)) == .rejected(.noTime))
        // libgps turns an unreadable time into 1900-01-01: no usable time.
        #expect(verdict(Fix(mode: 3, time: -2_209_075_200, latitude: 1, longitude: 1)) == .rejected(.noTime))
        #expect(verdict(Fix(mode: 3, time: FixFactory.t0, latitude: 91, longitude: 1)) == .rejected(.invalidPosition))
        #expect(
            verdict(Fix(mode: 3, time: FixFactory.t0, latitude: 1, longitude: -180.5)) == .rejected(.invalidPosition))
        #expect(verdict(Fix(mode: 2, time: FixFactory.t0, latitude: .nan, longitude: 1)) == .rejected(.invalidPosition))
        #expect(verdict(Fix(mode: 2, time: FixFactory.t0, latitude: 0, longitude: 0)) == .rejected(.invalidPosition))
        #expect(verdict(FixFactory.at(0, mode: 7)) == .rejected(.noFix))
        #expect(verdict(Fix(mode: 3, time: 253_402_300_800, latitude: 1, longitude: 1)) == .rejected(.noTime))
        #expect(verdict(FixFactory.at(0, mode: 2)) == .accepted)
    }

    @Test func accuracy() {
        #expect(verdict(FixFactory.at(0, eph: 50.5)) == .rejected(.lowAccuracy))
        #expect(verdict(FixFactory.at(0, eph: -1)) == .rejected(.lowAccuracy))
        var f = FixFactory.at(0, eph: .nan)
        f.epx = 40
        f.epy = 40  // hypot = 56.6 m
        #expect(verdict(f) == .rejected(.lowAccuracy))
        f.epx = 20
        f.epy = 20  // 28.3 m
        #expect(verdict(f) == .accepted)
        // No estimate at all: accepted, judged with the assumed error.
        #expect(verdict(FixFactory.at(0, eph: .nan)) == .accepted)
    }

    @Test func timeOrder() {
        let first = FixFactory.at(10)
        #expect(verdict(FixFactory.at(10, east: 1), after: [first]) == .rejected(.duplicate))
        #expect(verdict(FixFactory.at(9, east: 1), after: [first]) == .rejected(.outOfOrder))
        #expect(verdict(FixFactory.at(11, east: 1), after: [first]) == .accepted)
    }

    @Test func implausibleSpeed() {
        // 1 km in one second is 1000 m/s.
        #expect(verdict(FixFactory.at(1, east: 1000), after: [FixFactory.at(0)]) == .rejected(.implausibleSpeed))
        // 1 km in 20 s is a fast train: plausible.
        #expect(verdict(FixFactory.at(20, east: 1000), after: [FixFactory.at(0)]) == .accepted)
    }

    @Test func lyingJumpIsRejectedAndTheNextFixAccepted() {
        var screen = FixScreen(config: TrackerConfig())
        let walk = { (t: Double, e: Double) in FixFactory.at(t, east: e, speed: 1.4, track: 90) }
        #expect(screen.screen(walk(0, 0)) == .accepted)
        #expect(screen.screen(walk(1, 1.4)) == .accepted)
        // 60 m north with an eph of 5 m while walking east at 1.4 m/s.
        let spike = FixFactory.at(2, east: 2.8, north: 60, speed: 1.4, track: 90)
        #expect(screen.screen(spike) == .rejected(.outlierJump))
        #expect(screen.screen(walk(3, 4.2)) == .accepted)
    }

    @Test func consistentRunAfterClockStepIsAcceptedAsDiscontinuity() {
        var screen = FixScreen(config: TrackerConfig())
        #expect(screen.screen(FixFactory.at(100)) == .accepted)
        #expect(screen.screen(FixFactory.at(50, east: 1)) == .rejected(.outOfOrder))
        #expect(screen.screen(FixFactory.at(51, east: 2)) == .rejected(.outOfOrder))
        guard case .discontinuity = screen.screen(FixFactory.at(52, east: 3)) else {
            Issue.record("third consistent fix should move the reference")
            return
        }
        #expect(screen.screen(FixFactory.at(53, east: 4)) == .accepted)
    }
}
