import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Automatic trips on seeded simulated days (`DayScenario`): drive, 20 min parked, a walk, 2 h
/// parked with a wandering receiver, a drive with 60-120 s traffic-light pauses, parked.
@Suite struct TripDetectionTests {
    static let seeds: [UInt64] = Array(1...8)

    struct Result {
        var starts: [(trip: Int?, time: Double)] = []
        var ends: [TripFigures] = []
        var tracker: Tracker
    }

    static func run(_ fixes: [Fix], config: TrackerConfig = TrackerConfig()) -> Result {
        var tracker = Tracker(config: config)
        var assembler = EpochAssembler()
        var starts: [(Int?, Double)] = []
        var ends: [TripFigures] = []
        func take(_ events: [TrackerEvent]) {
            for e in events {
                if case .tripStart(let id, let time, _) = e { starts.append((id, time)) }
                if case .tripEnd(let f) = e { ends.append(f) }
            }
        }
        for fix in fixes { for epoch in assembler.add(fix) { take(tracker.ingest(epoch)) } }
        for epoch in assembler.flush() { take(tracker.ingest(epoch)) }
        return Result(starts: starts, ends: ends, tracker: tracker)
    }

    func check(seed: UInt64, velocity: Bool) throws {
        let day = DayScenario.make(seed: seed)
        var model = ReceiverModel()
        model.reportsVelocity = velocity
        let trace = Simulator.run(day.scenario, model: model, seed: seed)
        let t0 = trace.fixes.first?.time ?? 0
        let r = Self.run(trace.fixes)
        let truths = try GeodSolveTruth.lengths(day.trips.map { Array(trace.truth[$0.start...$0.end]) })
        let label = "seed \(seed)\(velocity ? "" : ", no speed or course")"
        try #require(r.ends.count == day.trips.count, "\(label): \(r.ends.count) trips ended, \(day.trips.count) true")
        #expect(r.starts.count == day.trips.count, "\(label): no trip from the parked wander")
        #expect(r.ends.map(\.id) == [1, 2, 3])
        #expect(r.tracker.trips.tripCount == 3)
        for (i, (truth, f)) in zip(day.trips, r.ends).enumerated() {
            let trueStart = t0 + Double(truth.start)
            let trueEnd = t0 + Double(truth.end)
            #expect(abs(f.start - trueStart) <= 30, "\(label) trip \(i + 1): starts \(f.start - trueStart) s off")
            #expect(abs(f.end - trueEnd) <= 30, "\(label) trip \(i + 1): ends \(f.end - trueEnd) s off")
            #expect(r.starts[i].time == f.start, "trip_start is backdated to the departure")
            let tolerance = truth.kind == .walk ? 0.03 : 0.02
            #expect(
                abs(f.traveledM / truths[i] - 1) <= tolerance,
                "\(label) trip \(i + 1) (\(truth.kind)): \(f.traveledM) m, true \(truths[i]) m")
            // The ends: where the receiver really was when it left and where it settled (after
            // the walk it wanders threefold, sigma 9 m: the median of 5 min of it is looser).
            let fromError = try GeodSolveTruth.distance(f.from, trace.truth[truth.start])
            let toError = try GeodSolveTruth.distance(f.to, trace.truth[truth.end])
            #expect(
                fromError < 15 && toError < (i == 1 ? 25 : 15),
                "\(label) trip \(i + 1): ends \(fromError) m and \(toError) m off")
            #expect(f.maxSpeedMps > 0 && f.movingS > 0 && f.movingS <= f.durationS + 0.001)
        }
        let total = r.ends.map(\.traveledM).reduce(0, +)
        #expect(abs(r.tracker.trip.traveledM - total) < 0.01, "the odometer is the trips' sum")
    }

    @Test func aParkingPlaceWhereEveryFixIsRejectedStillEndsTheTripOnArrival() throws {
        let day = DayScenario.make(seed: 3)
        var trace = Simulator.run(day.scenario, seed: 3)
        let t0 = try #require(trace.fixes.first?.time)
        // A poor sky view where the walk ends: the receiver reports 80 m of error for the 2 h.
        let (arrived, left) = (t0 + Double(day.trips[1].end), t0 + Double(day.trips[2].start))
        for i in trace.fixes.indices
        where (trace.fixes[i].time ?? 0) > arrived + 1 && (trace.fixes[i].time ?? 0) < left - 5 {
            trace.fixes[i].eph = 80
        }
        let r = Self.run(trace.fixes)
        try #require(r.ends.count == 3)
        #expect(
            abs(r.ends[1].end - arrived) <= 30,
            "the walk ends on arrival, not when fixes come back: \(r.ends[1].end - arrived) s")
        #expect(abs(r.ends[2].start - left) <= 30)
    }

    @Test(arguments: seeds)
    func aDayWithSpeedAndCourse(seed: UInt64) throws { try check(seed: seed, velocity: true) }

    @Test(arguments: seeds)
    func aDayWithoutSpeedOrCourse(seed: UInt64) throws { try check(seed: seed, velocity: false) }
}

/// A restart anywhere (the daemon keeps the trip and the detector's state) changes no trip.
@Suite struct TripRestoreTests {
    @Test(arguments: [UInt64(1), 2])
    func restartsAnywhereLeaveTheTripsAsTheyWere(seed: UInt64) throws {
        let day = DayScenario.make(seed: seed)
        let trace = Simulator.run(day.scenario, seed: seed)
        let whole = TripDetectionTests.run(trace.fixes).ends
        // Cut every 997 fixes: mid-trip, mid-stop, mid-cluster.
        var tracker = Tracker()
        var ends: [TripFigures] = []
        var starts: [Int] = []
        for (i, fix) in trace.fixes.enumerated() {
            if i > 0, i % 997 == 0 {
                let trip = tracker.trip
                let state = tracker.trips.encodedState()
                tracker = Tracker()
                tracker.restore(trip: trip)
                let restored = tracker.restore(trips: state)
                #expect(restored)
            }
            for e in tracker.ingest(fix) {
                if case .tripEnd(let f) = e { ends.append(f) }
                if case .tripStart(let id, _, _) = e { starts.append(id ?? 0) }
            }
        }
        try #require(ends.count == whole.count)
        #expect(starts == whole.map(\.id), "each trip started once")
        for (a, b) in zip(ends, whole) {
            #expect(a.id == b.id)
            #expect(abs(a.start - b.start) <= 5 && abs(a.end - b.end) <= 5)
            #expect(
                abs(a.traveledM / b.traveledM - 1) < 0.01, "\(a.traveledM) m after restarts, \(b.traveledM) m without")
        }
        #expect(abs(tracker.trip.traveledM - whole.map(\.traveledM).reduce(0, +)) < 0.01 * tracker.trip.traveledM)
    }

    @Test func garbageStateIsRefused() {
        var tracker = Tracker()
        let wrongVersion = tracker.restore(trips: "v=9\nnext=1")
        let noEquals = tracker.restore(trips: "no equals sign")
        #expect(!wrongVersion && !noEquals)
        #expect(tracker.trips.nextTripID == 1)
    }
}
