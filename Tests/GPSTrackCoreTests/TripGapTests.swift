import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// `max_gap_s` (gpstrackd.conf(5)): no accepted fix for longer than it ends a trip at its last
/// fix; the next fix begins anew (a trip of its own once it qualifies), and the way across the
/// gap is not counted.
@Suite struct TripGapTests {
    @Test func aGapLongerThanMaxGapEndsTheTripAtItsLastFix() throws {
        let seed: UInt64 = 2
        let day = DayScenario.make(seed: seed)
        let trace = Simulator.run(day.scenario, seed: seed)
        let t0 = try #require(trace.fixes.first?.time)
        // The first drive loses its fixes for 10 minutes from its middle (a tunnel, a dead
        // antenna), with max_gap_s at 5 minutes.
        let drive = try #require(day.trips.first { $0.kind == .drive })
        let cut = t0 + Double((drive.start + drive.end) / 2)
        let resume = cut + 600
        let fixes = trace.fixes.filter { f in f.time.map { $0 < cut || $0 >= resume } ?? true }
        var config = TrackerConfig()
        config.maxGapS = 300
        let r = TripDetectionTests.run(fixes, config: config)

        let first = try #require(r.ends.first)
        let lastBefore = try #require(fixes.last { ($0.time ?? 0) < cut && $0.mode >= 2 }?.time)
        #expect(abs(first.end - lastBefore) <= 1, "the trip ends at its last fix: \(first.end - lastBefore) s off")
        // What it traveled is the way up to the gap: GeodSolve's length of the true path there.
        let upToGap = Array(trace.truth[drive.start...Int(cut - t0)])
        let truth = try GeodSolveTruth.lengths([upToGap])[0]
        #expect(abs(first.traveledM / truth - 1) <= 0.03, "\(first.traveledM) m, true \(truth) m up to the gap")
        // The rest of the drive is a trip of its own, starting after the gap.
        let second = try #require(r.ends.dropFirst().first)
        #expect(second.start >= resume, "the next trip starts after the gap: \(second.start - resume) s")
        #expect(r.ends.count == day.trips.count + 1, "one trip more than the day's: \(r.ends.count)")

        // Without the gap rule (max_gap_s beyond the gap) the drive stays one trip.
        config.maxGapS = 3600
        let whole = TripDetectionTests.run(fixes, config: config)
        #expect(whole.ends.count == day.trips.count, "\(whole.ends.count) trips with max_gap_s = 3600")
    }
}
