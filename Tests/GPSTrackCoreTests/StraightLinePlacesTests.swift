import GPSTrackCore
import GPSTrackSim
import Testing

/// The straight line is the geodesic between the two places printed with it (the summary's
/// and `status`'s `start` and `end`, a trip end's `from` and `to`), by GeodSolve to 0.1 m, and
/// never more than the traveled distance: over seeded days in both trip modes, with and
/// without velocities, across a receiver switch mid-day and a gap beyond `max_gap_s`.
@Suite struct StraightLinePlacesTests {
    struct Claim {
        var label: String
        var from: Coordinate
        var to: Coordinate
        var figureM: Double
    }

    /// Runs a day, switching receivers a third of the way in and leaving a gap of an hour at
    /// two thirds; returns every claim made (each trip end, then the feed's end).
    static func claims(seed: UInt64, mode: TrackerConfig.TripMode, velocity: Bool) -> (Tracker, [Claim]) {
        var model = ReceiverModel()
        model.reportsVelocity = velocity
        var fixes = Simulator.run(DayScenario.make(seed: seed).scenario, model: model, seed: seed).fixes
        let gapAt = fixes.count * 2 / 3
        for k in gapAt..<fixes.count { fixes[k].time = fixes[k].time.map { $0 + 3600 } }
        var config = TrackerConfig()
        config.tripMode = mode
        var session = TrackingSession(config: config)
        var assembler = EpochAssembler()
        var claims: [Claim] = []
        let label = "seed \(seed) \(mode) velocity \(velocity)"
        for (k, fix) in fixes.enumerated() {
            // Another receiver, 40 m away from the first's idea of the place.
            if k == fixes.count / 3 { session.switchReceiver() }
            var f = fix
            if k >= fixes.count / 3 { f.latitude += 40 / 111_195 }
            for epoch in assembler.add(f) {
                for case .tracker(.tripEnd(let t)) in session.ingest(epoch).map(\.event) {
                    let name = "\(label) trip \(t.id)"
                    claims.append(Claim(label: name, from: t.from, to: t.to, figureM: t.straightLineM))
                    #expect(t.straightLineM <= t.traveledM + 0.01, "\(name)")
                }
            }
        }
        for epoch in assembler.flush() { _ = session.ingest(epoch) }
        session.settle()
        let trip = session.tracker.trip
        if let from = trip.start, let to = trip.end {
            claims.append(Claim(label: "\(label) at the end", from: from, to: to, figureM: trip.straightLineM))
        } else {
            Issue.record("\(label): no start or end")
        }
        return (session.tracker, claims)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theStraightLineIsTheGeodesicBetweenItsPlaces(seed: UInt64) throws {
        var all: [Claim] = []
        for mode in [TrackerConfig.TripMode.auto, .manual] {
            for velocity in [true, false] {
                let (tracker, claims) = Self.claims(seed: seed, mode: mode, velocity: velocity)
                #expect(tracker.trip.straightLineM <= tracker.trip.traveledM + 0.01, "\(mode) \(velocity)")
                #expect(tracker.trip.straightLineM > 100, "a day that went somewhere: \(mode) \(velocity)")
                all += claims
            }
        }
        let reference = try GeodSolveTruth.lengths(all.map { [$0.from, $0.to] })
        #expect(all.count >= 10, "trip ends and feed ends")
        for (claim, d) in zip(all, reference) {
            #expect(abs(claim.figureM - d) <= 0.1, "\(claim.label): \(claim.figureM) m, GeodSolve \(d) m")
        }
    }
}
