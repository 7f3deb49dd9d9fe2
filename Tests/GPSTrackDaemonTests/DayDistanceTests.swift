import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

@testable import GPSTrackDaemon

/// The distance today across a local midnight (the fixes' times, the test process's time zone,
/// as the daemon's): each day's part against GeodSolve's length of the true path in it, and a
/// reset of the trip counter that takes nothing off the day.
struct DayDistanceTests {
    static func date(_ t: Double) -> String {
        let c = Calendar.current.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: t))
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    @Test func theDayStartsAtLocalMidnightAndAResetTakesNothingOff() throws {
        let trace = LiveDaemonTests.walk(seconds: 1200, seed: 5)
        let t0 = try #require(trace.fixes.first?.time)
        // The walk timed so that local midnight falls after its 600th second.
        let midnight = Calendar.current.startOfDay(for: Date(timeIntervalSince1970: t0 + 86_400)).timeIntervalSince1970
        let delta = midnight - 600 - t0
        var session = TrackingSession(config: TrackerConfig())
        let sink = DayDistance()
        #expect(sink.status(trip: session.tracker.trip) == nil, "no day before the first fix")
        var evening: StatusReply.DayStatus?
        var atReset = 0.0
        for (i, f) in trace.fixes.enumerated() {
            var g = f
            g.time = f.time.map { $0 + delta }
            let events = session.ingest(g)
            _ = sink.take(
                TrackerStep(fix: g, outcome: session.tracker.lastOutcome, events: events, tracker: session.tracker))
            if i == 599 { evening = sink.status(trip: session.tracker.trip) }
            if i == 900 {
                atReset = sink.status(trip: session.tracker.trip)?.traveledM ?? 0
                let reset = session.resetTrip()
                _ = sink.take(TrackerStep(events: reset, force: true, tracker: session.tracker))
            }
        }
        let (before, after) = (
            try GeodSolveTruth.lengths([Array(trace.truth[0...599])])[0],
            try GeodSolveTruth.lengths([Array(trace.truth[600...])])[0]
        )
        let first = try #require(evening)
        let second = try #require(sink.status(trip: session.tracker.trip))
        #expect(
            first.date == Self.date(midnight - 1) && second.date == Self.date(midnight), "\(first.date), \(second.date)"
        )
        // The walk's tolerance, a little wider: what the odometer holds back at midnight is the next day's.
        #expect(abs(first.traveledM / before - 1) <= 0.1, "before midnight \(first.traveledM) m of \(before) m")
        #expect(abs(second.traveledM / after - 1) <= 0.1, "after midnight \(second.traveledM) m of \(after) m")
        #expect(
            second.traveledM > atReset + 0.8 * 1.4 * 299,
            "the reset at \(atReset) m took nothing off: \(second.traveledM) m")
    }
}
