import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The odometer counts every accepted movement, in either trip mode, and its straight line
/// never exceeds it: checked after every fix, at every trip end and at the feed's end, over
/// seeded simulated traces. Reference lengths come from GeodSolve.
@Suite struct OdometerInvariantTests {
    /// Metres the straight line may exceed the traveled distance by: float rounding only.
    static let rounding = 0.01

    /// Runs the fixes through a tracker, checking the invariant as it goes; then settles.
    static func run(_ fixes: [Fix], config: TrackerConfig, label: String, settle: Bool = true) -> Tracker {
        var tracker = Tracker(config: config)
        var assembler = EpochAssembler()
        var checked = 0
        func check(_ events: [TrackerEvent], _ tracker: Tracker, at: String) {
            let t = tracker.trip
            if t.straightLineM > t.traveledM + rounding {
                Issue.record("\(label) \(at): straight line \(t.straightLineM) m over traveled \(t.traveledM) m")
            }
            for case .tripEnd(let f) in events where f.straightLineM > f.traveledM + rounding {
                Issue.record("\(label) trip \(f.id): straight line \(f.straightLineM) m over traveled \(f.traveledM) m")
            }
            checked += 1
        }
        for fix in fixes {
            for epoch in assembler.add(fix) { check(tracker.ingest(epoch), tracker, at: "fix \(checked)") }
        }
        for epoch in assembler.flush() { check(tracker.ingest(epoch), tracker, at: "last fix") }
        if settle { tracker.settle() }
        check([], tracker, at: "feed's end")
        #expect(checked > 0)
        return tracker
    }

    static func config(_ mode: TrackerConfig.TripMode) -> TrackerConfig {
        var c = TrackerConfig()
        c.tripMode = mode
        return c
    }

    @Test(arguments: Array(UInt64(1)...6))
    func theStraightLineNeverExceedsTheWayOnASimulatedDay(seed: UInt64) {
        let day = DayScenario.make(seed: seed)
        for velocity in [true, false] {
            var model = ReceiverModel()
            model.reportsVelocity = velocity
            let trace = Simulator.run(day.scenario, model: model, seed: seed)
            for mode in [TrackerConfig.TripMode.auto, .manual] {
                let t = Self.run(
                    trace.fixes, config: Self.config(mode), label: "seed \(seed) \(mode) velocity \(velocity)")
                #expect(t.trip.traveledM > 10_000, "a day of two drives and a walk")
            }
        }
    }

    @Test(arguments: Array(UInt64(1)...6))
    func theStraightLineNeverExceedsTheWayOnAWalkWithJumps(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var model = ReceiverModel()
        model.honestJumpProbability = 0.01
        model.lyingJumpProbability = 0.01
        model.reportsVelocity = seed % 2 == 0
        let trace = Simulator.run(Scenario.walk(lengthM: 1500, rng: &rng), model: model, seed: seed)
        for mode in [TrackerConfig.TripMode.auto, .manual] {
            _ = Self.run(trace.fixes, config: Self.config(mode), label: "walk \(seed) \(mode)")
        }
    }

    /// Parked 400 s, 120 m east in 80 s, parked 400 s: too short for a trip (200 m), still
    /// 120 m traveled, in both modes; and the parked spells add nothing.
    @Test(arguments: [true, false])
    func aShortMoveIsTraveledDistanceInEveryTripMode(velocity: Bool) throws {
        let still = Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 400)
        let steps = still + Array(repeating: Scenario.Step(speed: 1.5, heading: 90), count: 80) + still
        var model = ReceiverModel()
        model.reportsVelocity = velocity
        model.honestJumpProbability = 0
        model.lyingJumpProbability = 0
        let trace = Simulator.run(
            Scenario(name: "short move", start: FixFactory.base, steps: steps), model: model, seed: 11)
        let truth = try GeodSolveTruth.lengths([Array(trace.truth[400...480])])[0]
        for mode in [TrackerConfig.TripMode.auto, .manual] {
            let t = Self.run(trace.fixes, config: Self.config(mode), label: "short move \(mode)")
            #expect(
                abs(t.trip.traveledM / truth - 1) <= 0.10,
                "\(mode), velocity \(velocity): \(t.trip.traveledM) m of \(truth) m")
            if mode == .auto {
                #expect(t.trips.tripCount == 0, "too short for a trip")
                #expect(t.trips.shortMoves == 1, "one short move ended at the stop")
            }
        }
    }

    /// A receiver without speed (gpsd's eph, creep distance ~70 m) walking when the feed
    /// ends: the held fixes are resolved, so the figures end where it was.
    @Test(arguments: Array(UInt64(1)...6))
    func aSpeedlessWalksEndIsSettledAtTheFeedsEnd(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let walk = Scenario.walk(lengthM: 2246, rng: &rng).steps
        let steps = Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 400) + walk
        var model = ReceiverModel()
        model.reportsVelocity = false
        model.honestJumpProbability = 0
        model.lyingJumpProbability = 0
        var trace = Simulator.run(
            Scenario(name: "walk", start: FixFactory.base, steps: steps), model: model, seed: seed)
        for i in trace.fixes.indices { trace.fixes[i].eph *= 3.6 }
        let trueStraight = try GeodSolveTruth.distance(trace.truth[0], try #require(trace.truth.last))
        for mode in [TrackerConfig.TripMode.auto, .manual] {
            let t = Self.run(trace.fixes, config: Self.config(mode), label: "speedless walk \(seed) \(mode)")
            #expect(
                abs(t.trip.straightLineM - trueStraight) <= 15,
                "seed \(seed) \(mode): straight line \(t.trip.straightLineM) m, true \(trueStraight) m")
            let end = try #require(t.trip.lastDelivered)
            let off = try GeodSolveTruth.distance(end, try #require(trace.truth.last))
            #expect(off <= 15, "seed \(seed) \(mode): the summary ends \(off) m from where the receiver was")
        }
    }
}
