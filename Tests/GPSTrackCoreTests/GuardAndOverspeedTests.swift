import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The parked guard and overspeed on seeded simulated traces.
@Suite struct GuardAndOverspeedTests {
    static func events(_ fixes: [Fix], config: TrackerConfig, fences: FenceIndex? = nil) -> [TrackerEvent] {
        var session = TrackingSession(config: config, fences: fences)
        var assembler = EpochAssembler()
        var out: [TrackerEvent] = []
        func take(_ es: [TrackingSession.Sequenced]) {
            for e in es { if case .tracker(let t) = e.event { out.append(t) } }
        }
        for fix in fixes { for epoch in assembler.add(fix) { take(session.ingest(epoch)) } }
        for epoch in assembler.flush() { take(session.ingest(epoch)) }
        return out
    }

    static var guarded: TrackerConfig {
        var c = TrackerConfig()
        c.guardOn = true
        return c
    }

    @Test(arguments: [(UInt64(1), true), (2, true), (3, false), (4, false)])
    func towedAfterFifteenMinutesBreachesOnce(seed: UInt64, velocity: Bool) throws {
        let park = Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 900)
        let tow = Array(repeating: Scenario.Step(speed: 3, heading: 70), count: 100)
        let scenario = Scenario(
            name: "towed", start: Coordinate(latitude: 50.11, longitude: 8.68),
            steps: park + tow + Array(repeating: Scenario.Step(speed: 0, heading: 70), count: 120))
        var model = ReceiverModel()
        model.reportsVelocity = velocity
        let trace = Simulator.run(scenario, model: model, seed: seed)
        let t0 = try #require(trace.fixes.first?.time)
        let events = Self.events(trace.fixes, config: Self.guarded)
        let armed = events.filter {
            if case .guardArmed = $0 { return true }
            return false
        }
        let breaches = events.compactMap { e -> (Double, Double)? in
            if case .guardBreach(let t, _, _, let d, _) = e { return (t, d) }
            return nil
        }
        #expect(armed.count == 1)
        try #require(breaches.count == 1, "one breach per parking: \(breaches)")
        let parked = trace.truth[899]
        let left = try #require(
            trace.truth.indices.first { try GeodSolveTruth.distance(parked, trace.truth[$0]) > 100 })
        #expect(
            breaches[0].0 - (t0 + Double(left)) <= 60 && breaches[0].0 >= t0 + 900,
            "breach \(breaches[0].0 - t0 - Double(left)) s after leaving the radius")
        #expect(breaches[0].1 > 100)
    }

    @Test(arguments: [(UInt64(5), true), (6, false)])
    func twoHoursOfWanderNeverBreach(seed: UInt64, velocity: Bool) {
        let scenario = Scenario(
            name: "parked", start: Coordinate(latitude: 50.11, longitude: 8.68),
            steps: Array(repeating: Scenario.Step(speed: 0, heading: 0, wanderScale: 3), count: 7200))
        var model = ReceiverModel()
        model.reportsVelocity = velocity
        let events = Self.events(Simulator.run(scenario, model: model, seed: seed).fixes, config: Self.guarded)
        #expect(
            events.filter {
                if case .guardArmed = $0 { return true }
                return false
            }.count == 1)
        #expect(
            !events.contains {
                if case .guardBreach = $0 { return true }
                return false
            })
        #expect(
            !events.contains {
                if case .tripStart = $0 { return true }
                return false
            }, "no trip from the wander")
    }

    /// A straight road inside a 50 km/h zone (a 1.5 km circle) under a 100 km/h limit.
    static func zone(at center: Coordinate) throws -> FenceIndex {
        try FenceIndex(
            fences: [
                Fence(
                    index: 0, id: "school", name: "School zone", shape: .circle(center: center, radiusM: 1500),
                    speedLimitKmh: 50)
            ], file: "zone.geojson")
    }

    @Test(arguments: [UInt64(7), 8])
    func aSustainedExcessInAZoneMakesOnePair(seed: UInt64) throws {
        // 30 s at 11 m/s, then 40 s at 17 m/s (61 km/h), then 11 m/s again, all inside.
        let speeds =
            Array(repeating: 11.0, count: 30) + Array(repeating: 17.0, count: 40) + Array(repeating: 11.0, count: 20)
        let start = Coordinate(latitude: 50.11, longitude: 8.68)
        let scenario = Scenario(name: "zone", start: start, steps: speeds.map { Scenario.Step(speed: $0, heading: 90) })
        let center = Geodesic.destination(from: start, azimuth: 90, distance: 400)
        var config = TrackerConfig()
        config.speedLimitKmh = 100
        let trace = Simulator.run(scenario, seed: seed)
        let events = Self.events(trace.fixes, config: config, fences: try Self.zone(at: center))
        let starts = events.compactMap { e -> Double? in
            if case .overspeedStart(_, _, let limit, _) = e { return limit }
            return nil
        }
        let ends = events.compactMap { e -> (Double, Double, Double)? in
            if case .overspeedEnd(_, _, _, let max, let duration, let distance) = e { return (max, duration, distance) }
            return nil
        }
        #expect(starts == [50], "the zone's lower limit wins")
        try #require(ends.count == 1)
        #expect(abs(ends[0].0 - 17) < 0.5, "maximum \(ends[0].0) m/s")
        #expect(abs(ends[0].1 - 40) <= 3 && abs(ends[0].2 - 680) < 60, "\(ends[0].1) s, \(ends[0].2) m over")
    }

    /// A zone loaded by a reload (SIGHUP) limits like one loaded at the start.
    @Test func aZoneFromAReloadLimitsToo() throws {
        let speeds =
            Array(repeating: 11.0, count: 30) + Array(repeating: 17.0, count: 40) + Array(repeating: 11.0, count: 20)
        let start = Coordinate(latitude: 50.11, longitude: 8.68)
        let scenario = Scenario(name: "zone", start: start, steps: speeds.map { Scenario.Step(speed: $0, heading: 90) })
        var session = TrackingSession(config: TrackerConfig())
        session.replaceFences(try Self.zone(at: Geodesic.destination(from: start, azimuth: 90, distance: 400)))
        var limits: [Double] = []
        for fix in Simulator.run(scenario, seed: 7).fixes {
            for e in session.ingest(fix) {
                if case .tracker(.overspeedStart(_, _, let limit, _)) = e.event { limits.append(limit) }
            }
        }
        #expect(limits == [50])
    }

    @Test func aFiveSecondExcessMakesNone() throws {
        let speeds =
            Array(repeating: 11.0, count: 30) + Array(repeating: 17.0, count: 5) + Array(repeating: 11.0, count: 30)
        let start = Coordinate(latitude: 50.11, longitude: 8.68)
        let scenario = Scenario(name: "zone", start: start, steps: speeds.map { Scenario.Step(speed: $0, heading: 90) })
        var model = ReceiverModel()
        model.noFixProbability = 0
        let events = Self.events(
            Simulator.run(scenario, model: model, seed: 9).fixes, config: TrackerConfig(),
            fences: try Self.zone(at: Geodesic.destination(from: start, azimuth: 90, distance: 400)))
        #expect(
            !events.contains {
                if case .overspeedStart = $0 { return true }
                if case .overspeedEnd = $0 { return true }
                return false
            })
    }
}
