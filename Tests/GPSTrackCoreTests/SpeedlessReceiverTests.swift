import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Receivers that report no speed, as gpsd passes them on: gpsd makes a speed up from the
/// hop between its fixes (with no track) and reports a pessimistic eph (HDOP × 15 m, 20-30 m
/// where the receiver's real error is 6 m), which sets the creep distance to 60-90 m.
@Suite struct SpeedlessReceiverTests {
    /// A fix `metres` east of the base at second `s`, with the given speed and track.
    static func fix(_ s: Double, east metres: Double, speed: Double, track: Double = .nan) -> Fix {
        FixFactory.at(s, east: metres, eph: 23, speed: speed, track: track)
    }

    @Test func aSpeedThatRestatesTheHopWithoutATrackIsDropped() {
        var screen = DerivedSpeed()
        #expect(screen.screen(Self.fix(0, east: 0, speed: 0)).speed == 0, "nothing to compare the first fix with")
        // 13 m in one second, reported as 13.0 m/s without a track: gpsd's arithmetic.
        #expect(screen.screen(Self.fix(1, east: 13, speed: 13.0)).speed.isNaN)
        // Over two seconds (an epoch without a fix between), 26 m as 13.0 m/s: the same.
        #expect(screen.screen(Self.fix(3, east: 39, speed: 13.0)).speed.isNaN)
        // A Doppler speed differs from the hop by more than rounding: kept.
        #expect(screen.screen(Self.fix(4, east: 52, speed: 12.2)).speed == 12.2)
        // With a track the receiver measured its velocity: kept even when it agrees.
        #expect(screen.screen(Self.fix(5, east: 65, speed: 13.0, track: 90)).speed == 13.0)
    }

    /// A jump backed by a made-up speed is still a jump: the screen judges it by the
    /// velocity of the fixes before it, as for any receiver without speed.
    @Test func aJumpIsNotBackedByTheSpeedDerivedFromIt() {
        var session = TrackingSession(config: TrackerConfig())
        // Walking east at 1.4 m/s; at second 15 the receiver jumps 60 m north and is back
        // on the line at second 16. Each speed is what gpsd derives: the hop over the second.
        var fixes = (0..<30).map { s in
            FixFactory.at(Double(s), east: 1.4 * Double(s), north: s == 15 ? 60 : 0, eph: 23)
        }
        for i in fixes.indices.dropFirst() {
            fixes[i].speed = Geodesic.distance(fixes[i - 1].coordinate, fixes[i].coordinate)
        }
        var rejected = 0
        for f in fixes {
            _ = session.ingest(f)
            if case .rejected(.outlierJump) = session.tracker.lastOutcome { rejected += 1 }
        }
        #expect(rejected == 1, "the jump out is rejected; the way back is no jump from the fix before it")
        #expect(
            session.tracker.trip.traveledM < 45,
            "29 steps of 1.4 m, never the 120 m out and back: \(session.tracker.trip.traveledM)")
    }

    /// A 600 m walk (turns of 30-100° every 80-250 m) from a receiver without speed, with
    /// gpsd's eph: the creep distance is about 70 m, and the corners between its chords must
    /// still be counted (chords alone came out 3-7 % short).
    @Test(arguments: Array(UInt64(1)...8))
    func aSpeedlessWalksCornersAreCounted(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let walk = Scenario.walk(lengthM: 600, rng: &rng).steps
        let steps =
            Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 400) + walk
            + Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 400)
        var model = ReceiverModel()
        model.reportsVelocity = false
        var trace = Simulator.run(
            Scenario(name: "walk", start: FixFactory.base, steps: steps), model: model, seed: seed)
        for i in trace.fixes.indices { trace.fixes[i].eph *= 3.6 }
        let truth = try GeodSolveTruth.lengths([Array(trace.truth[400...(400 + walk.count)])])[0]
        let r = TripDetectionTests.run(trace.fixes)
        try #require(r.ends.count == 1, "seed \(seed): one walk, \(r.ends.count) trips")
        #expect(abs(r.ends[0].traveledM / truth - 1) <= 0.03, "seed \(seed): \(r.ends[0].traveledM) m of \(truth) m")
    }

    /// The same receiver parked for two hours, wandering: nothing counted.
    @Test func aSpeedlessParkedReceiverAddsNothing() {
        var model = ReceiverModel()
        model.reportsVelocity = false
        model.honestJumpProbability = 0
        model.lyingJumpProbability = 0
        var trace = Simulator.run(
            Scenario(
                name: "parked", start: FixFactory.base,
                steps: Array(repeating: Scenario.Step(speed: 0, heading: 0, wanderScale: 3), count: 7200)),
            model: model, seed: 7)
        for i in trace.fixes.indices { trace.fixes[i].eph *= 3.6 }
        let r = TripDetectionTests.run(trace.fixes)
        #expect(r.ends.isEmpty && r.starts.isEmpty)
        #expect(r.tracker.trip.traveledM == 0)
    }

    /// Parked, then 600 m east at 10 m/s with speed and track, then parked: the fix at which
    /// the departure is recognised is counted once, not once by the departure and again as
    /// the odometer's hop.
    @Test func aDepartureAtADeliveredFixIsCountedOnce() {
        var fixes: [Fix] = []
        for s in 0..<400 { fixes.append(FixFactory.at(Double(s), eph: 5, speed: 0, track: 0)) }
        for k in 1...60 {
            fixes.append(FixFactory.at(Double(399 + k), east: Double(k) * 10, eph: 5, speed: 10, track: 90))
        }
        for s in 460..<860 { fixes.append(FixFactory.at(Double(s), east: 600, eph: 5, speed: 0, track: 0)) }
        let r = TripDetectionTests.run(fixes)
        #expect(r.ends.count == 1)
        #expect(abs((r.ends.first?.traveledM ?? 0) - 600) < 1, "\(r.ends.first?.traveledM ?? 0) m of 600 m")
    }
}
