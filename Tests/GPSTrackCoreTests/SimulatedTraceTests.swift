import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Invariants over seeded simulated traces (the quality figures themselves are in `make bench`).
@Suite struct SimulatedTraceTests {
    static let seeds: [UInt64] = [1, 2, 3, 5, 8]

    func run(
        _ trace: SimulatedTrace, config: TrackerConfig = TrackerTests.odometer,
        each: (Tracker) -> Void = { _ in }
    ) -> Tracker {
        var tracker = Tracker(config: config)
        var assembler = EpochAssembler()
        for fix in trace.fixes {
            for epoch in assembler.add(fix) {
                _ = tracker.ingest(epoch)
                each(tracker)
            }
        }
        for epoch in assembler.flush() {
            _ = tracker.ingest(epoch)
            each(tracker)
        }
        return tracker
    }

    /// Each delivered hop is GeodSolve's distance between the two delivered points, and at
    /// least the 10 m filter.
    @Test(
        .enabled(
            if: GeodSolveTruth.path != nil, "needs GeodSolve (geographiclib-tools); scripts/deps.sh test installs it"),
        arguments: seeds)
    func odometerNeverDecreasesAndDeliveriesRespectTheFilter(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let trace = Simulator.run(.drive(lengthM: 4000, rng: &rng), seed: seed)
        var previous = 0.0
        var lastDelivered: Coordinate?
        var hops: [(from: Coordinate, to: Coordinate, hop: Double)] = []
        _ = run(trace) { t in
            #expect(t.trip.traveledM >= previous)
            previous = t.trip.traveledM
            if case .accepted(true, let hop) = t.lastOutcome, let p = t.trip.lastDelivered {
                if let l = lastDelivered { hops.append((l, p, hop)) }
                lastDelivered = p
            }
        }
        #expect(hops.count > 10)
        let truth = try GeodSolveTruth.lengths(hops.map { [$0.from, $0.to] })
        for (h, d) in zip(hops, truth) {
            #expect(abs(d - h.hop) < 1e-6, "hop \(h.hop) m, GeodSolve \(d) m")
            #expect(d >= 10, "a delivery \(d) m from the last, under the 10 m filter")
        }
    }

    @Test(arguments: seeds)
    func parkedReceiverStaysWithinFifteenMetres(seed: UInt64) {
        var model = ReceiverModel()
        model.wanderSigmaM = 4
        let trace = Simulator.run(.parked(seconds: 1800), model: model, seed: seed)
        #expect(NaiveOdometer.traveled(trace.fixes) > 100, "the trace must be hard: a naive odometer drifts")
        #expect(run(trace).trip.traveledM <= 15)
    }

    @Test(arguments: seeds)
    func walkIsWithinThreePercent(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let trace = Simulator.run(.walk(rng: &rng), seed: seed)
        let traveled = run(trace).trip.traveledM
        // The truth: GeodSolve's length of the true path, not the simulator's own sum.
        let truth = try GeodSolveTruth.lengths([trace.truth])[0]
        #expect(abs(traveled / truth - 1) <= 0.03, "traveled \(traveled) vs GeodSolve \(truth)")
    }

    @Test func partialTPVsPerEpochAreNotCountedTwice() {
        var model = ReceiverModel()
        model.partialTPVs = true
        var rng = SeededRandom(seed: 11)
        let trace = Simulator.run(.walk(lengthM: 500, rng: &rng), model: model, seed: 11)
        let tracker = run(trace)
        #expect(tracker.counters.total == trace.truth.count)
        #expect(tracker.counters.rejected[.duplicate] == nil)
    }
}
