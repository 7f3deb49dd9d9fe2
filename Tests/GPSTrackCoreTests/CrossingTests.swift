import Foundation
import GPSTrackSim
import Testing

@testable import GPSTrackCore
@testable import GPSTrackProtocol

/// Issue 11: fences passed between two fixes, and corridors. True times come from the
/// construction: the simulated car drives straight at constant speed, and every fence is placed
/// on (or beside) its true path, so a circle of radius r centred on the true position of second
/// k is entered at k - r/v and left at k + r/v.
@Suite struct CrossingTests {
    static let start = Coordinate(latitude: 47.3769, longitude: 8.5417)

    func fenceEvents(_ events: [TrackingSession.Sequenced]) -> [FenceEvent] {
        events.compactMap {
            if case .fence(let f) = $0.event { return f }
            return nil
        }
    }

    /// A square `half` metres around `c`, sides north-south and east-west.
    static func square(around c: Coordinate, half: Double) -> [Coordinate] {
        func p(_ e: Double, _ n: Double) -> Coordinate {
            Geodesic.destination(
                from: Geodesic.destination(from: c, azimuth: e < 0 ? 270 : 90, distance: abs(e)),
                azimuth: n < 0 ? 180 : 0, distance: abs(n))
        }
        let ring = [p(-half, -half), p(half, -half), p(half, half), p(-half, half)]
        return ring + [ring[0]]
    }

    /// A car on the geodesic leaving `start` eastwards at `v` m/s, one error-free fix every
    /// 5 s for `seconds`: positions and courses from GeodSolve. `at(s)` is the point `s` metres
    /// along that geodesic and its azimuth there.
    struct Road {
        static let t0 = 1_773_475_200.0
        let v: Double
        let fixes: [Fix]

        init(v: Double, seconds: Int) throws {
            self.v = v
            let times = Array(stride(from: 0, through: seconds, by: 5))
            let points = try GeodSolveDirect.solve(
                times.map { .init(from: CrossingTests.start, azimuth: 90, distance: v * Double($0)) })
            fixes = zip(times, points).map { t, p in
                Fix(
                    mode: 3, time: Self.t0 + Double(t), latitude: p.point.latitude, longitude: p.point.longitude,
                    altitude: 400, eph: 3, speed: v, track: p.azimuth)
            }
        }

        func at(_ s: Double) throws -> (point: Coordinate, azimuth: Double) {
            try GeodSolveDirect.point(from: CrossingTests.start, azimuth: 90, distance: s)
        }
    }

    /// The boundary crossings the fences were built with, against the ones found between fixes
    /// 125 m apart: within 1 s and 2 m (GeodSolve distances).
    func expectCrossings(
        _ mine: [FenceEvent], entry: (t: Double, at: Coordinate), exit: (t: Double, at: Coordinate), _ id: String
    ) throws {
        #expect(mine.map(\.kind) == [.enter, .exit], "\(id)")
        #expect(mine.allSatisfy { $0.crossed }, "\(id)")
        guard mine.count == 2 else { return }
        for (event, truth, what) in [(mine[0], entry, "entered"), (mine[1], exit, "left")] {
            #expect(
                abs(event.time - truth.t) <= 1,
                "\(id) \(what) at \(event.time - Road.t0) s, truly \(truth.t - Road.t0) s")
            let point = try #require(event.coordinate, "\(id) \(what): no point")
            let off = try GeodSolveTruth.distance(point, truth.at)
            #expect(off <= 2, "\(id) \(what) \(off) m from the boundary crossing")
        }
    }

    @Test func fencesOnAConstructedRoadAreCrossedWhereTheirBoundariesAre() throws {
        let road = try Road(v: 25, seconds: 200)
        // Centres on the road between two fixes, so that no fix lies inside: a circle of radius
        // r centred s metres along the geodesic is crossed s - r and s + r along it (the road
        // is the geodesic through its centre); the square's west and east sides cross the road
        // half its side before and after its centre.
        var fences: [Fence] = []
        var truths: [(entry: (t: Double, at: Coordinate), exit: (t: Double, at: Coordinate))] = []
        for (second, id, half, square) in [
            (22.0, "gate", 20.0, false), (52, "weighbridge", 25, false), (87, "toll", 25, true),
            (122, "camera", 30, false),
        ] {
            let s = road.v * second
            let centre = try road.at(s).point
            let shape: Fence.Shape
            if square {
                let west = try road.at(s - half)
                let east = try road.at(s + half)
                let corners = try GeodSolveDirect.solve([
                    .init(from: west.point, azimuth: west.azimuth + 90, distance: half),
                    .init(from: east.point, azimuth: east.azimuth + 90, distance: half),
                    .init(from: east.point, azimuth: east.azimuth - 90, distance: half),
                    .init(from: west.point, azimuth: west.azimuth - 90, distance: half),
                ]).map(\.point)
                shape = .polygons([[corners + [corners[0]]]])
            } else {
                shape = .circle(center: centre, radiusM: half)
            }
            fences.append(Fence(index: fences.count, id: id, shape: shape))
            truths.append(
                (
                    (Road.t0 + second - half / road.v, try road.at(s - half).point),
                    (Road.t0 + second + half / road.v, try road.at(s + half).point)
                ))
        }
        // 40 m north of the road, radius 25: never entered.
        let beside = try road.at(road.v * 152)
        let offCentre = try GeodSolveDirect.point(from: beside.point, azimuth: beside.azimuth - 90, distance: 40).point
        let off = Fence(index: fences.count, id: "off-road", shape: .circle(center: offCentre, radiusM: 25))
        let index = try FenceIndex(fences: fences + [off], file: "road.geojson")
        var session = TrackingSession(config: TrackerConfig(), fences: index)
        let events = fenceEvents(road.fixes.flatMap { session.ingest($0) })
        for (fence, truth) in zip(fences, truths) {
            try expectCrossings(
                events.filter { $0.fence == fence.index }, entry: truth.entry, exit: truth.exit, fence.id)
        }
        #expect(!events.contains { $0.fence == off.index }, "the circle 40 m off the road is never entered")
        #expect(!events.contains { $0.kind == .dwell })
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time }, "events in time order")
        #expect(session.geofences?.statuses.allSatisfy { $0.state == .outside } == true)
    }

    /// The same road driven by the simulated receiver, with its noise: the crossings still
    /// found, each once, within a second of the simulator's true times.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func fencesOnTheRoadAreCrossedBetweenSparseFixes(seed: UInt64) throws {
        let v = 25.0
        let scenario = Scenario(
            name: "motorway", start: Self.start, steps: Array(repeating: .init(speed: v, heading: 90), count: 200))
        let trace = Simulator.run(scenario, seed: seed)
        // One fix every 5 s (a power-saving tracker).
        let fixes = trace.fixes.filter { $0.mode == 3 && Int(($0.time ?? 0) - 1_773_475_200) % 5 == 0 }
        // Centres half-way between two fixes, so that no fix ever lies inside.
        let onRoad: [(second: Int, fence: Fence, half: Double)] = [
            (22, Fence(index: 0, id: "gate", shape: .circle(center: trace.truth[22], radiusM: 20)), 20),
            (52, Fence(index: 1, id: "weighbridge", shape: .circle(center: trace.truth[52], radiusM: 25)), 25),
            (87, Fence(index: 2, id: "toll", shape: .polygons([[Self.square(around: trace.truth[87], half: 25)]])), 25),
            (122, Fence(index: 3, id: "camera", shape: .circle(center: trace.truth[122], radiusM: 30)), 30),
        ]
        let off = Fence(
            index: 4, id: "off-road",
            shape: .circle(
                center: Geodesic.destination(from: trace.truth[152], azimuth: 0, distance: 40),
                radiusM: 25))
        let index = try FenceIndex(fences: onRoad.map(\.fence) + [off], file: "road.geojson")
        var session = TrackingSession(config: TrackerConfig(), fences: index)
        let events = fenceEvents(fixes.flatMap { session.ingest($0) })
        let t0 = 1_773_475_200.0
        for (second, fence, half) in onRoad {
            let mine = events.filter { $0.fence == fence.index }
            #expect(mine.map(\.kind) == [.enter, .exit], "\(fence.id)")
            #expect(mine.allSatisfy { $0.crossed }, "\(fence.id)")
            guard mine.count == 2 else { continue }
            #expect(abs(mine[0].time - (t0 + Double(second) - half / v)) <= 1, "\(fence.id) entered")
            #expect(abs(mine[1].time - (t0 + Double(second) + half / v)) <= 1, "\(fence.id) left")
            #expect(mine[0].time < mine[1].time)
        }
        #expect(!events.contains { $0.fence == off.index }, "the circle 40 m off the road is never entered")
        #expect(!events.contains { $0.kind == .dwell })
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time }, "events in time order")
        #expect(session.geofences?.statuses.allSatisfy { $0.state == .outside } == true)
    }

    @Test func crossingsCanBeSwitchedOff() throws {
        let scenario = Scenario(
            name: "motorway", start: Self.start, steps: Array(repeating: .init(speed: 25, heading: 90), count: 60))
        let trace = Simulator.run(scenario, seed: 7)
        let fixes = trace.fixes.filter { $0.mode == 3 && Int(($0.time ?? 0) - 1_773_475_200) % 5 == 0 }
        let index = try FenceIndex(
            fences: [Fence(index: 0, id: "gate", shape: .circle(center: trace.truth[22], radiusM: 20))], file: "f")
        var config = TrackerConfig()
        config.detectCrossings = false
        var session = TrackingSession(config: config, fences: index)
        #expect(fenceEvents(fixes.flatMap { session.ingest($0) }).isEmpty)
    }

    @Test func aRejectedJumpCrossesNothing() throws {
        // Walking east at 1.4 m/s; a fence 1 km north of the path. One fix jumps 2 km north
        // (through the fence) and is rejected as implausible; the walk goes on.
        let fence = Fence(
            index: 0, id: "north",
            shape: .circle(
                center: Geodesic.destination(from: Self.start, azimuth: 0, distance: 1000),
                radiusM: 60))
        let index = try FenceIndex(fences: [fence], file: "f")
        var session = TrackingSession(config: TrackerConfig(), fences: index)
        var fixes: [Fix] = []
        for i in 0..<60 {
            var p = Geodesic.destination(from: Self.start, azimuth: 90, distance: 1.4 * Double(i))
            if i == 30 { p = Geodesic.destination(from: p, azimuth: 0, distance: 2000) }
            fixes.append(
                Fix(
                    mode: 3, time: 1_773_475_200 + Double(i), latitude: p.latitude, longitude: p.longitude,
                    eph: 5, speed: 1.4, track: 90))
        }
        let events = fenceEvents(fixes.flatMap { session.ingest($0) })
        #expect(
            (session.tracker.counters.rejected[.implausibleSpeed] ?? 0)
                + (session.tracker.counters.rejected[.outlierJump] ?? 0) == 1)
        #expect(events.isEmpty)
    }

    @Test func aCorridorFollowedWithNoiseThenLeftAtAJunction() throws {
        // 3 km east along the route at 14 m/s, then north at the junction; the route goes on east.
        let v = 14.0
        let east = Int((3000 / v).rounded())
        let scenario = Scenario(
            name: "delivery", start: Self.start,
            steps: Array(repeating: .init(speed: v, heading: 90), count: east)
                + Array(repeating: .init(speed: v, heading: 0), count: 120))
        var model = ReceiverModel()
        model.lyingJumpProbability = 0
        let trace = Simulator.run(scenario, model: model, seed: 12)
        let junction = trace.truth[east]
        // The route: the true path's vertices every 10 s, then 1 km on past the junction.
        var route = stride(from: 0, through: east, by: 10).map { trace.truth[$0] }
        route += [junction, Geodesic.destination(from: junction, azimuth: 90, distance: 1000)]
        let corridor = Fence(index: 0, id: "route", shape: .corridor(lines: [route], widthM: 50))
        let index = try FenceIndex(fences: [corridor], file: "route.geojson")
        var session = TrackingSession(config: TrackerConfig(), fences: index)
        let events = fenceEvents(trace.fixes.flatMap { session.ingest($0) })
        #expect(events.map(\.kind) == [.enter, .exit], "entered at the first fix, left once: no flapping")
        guard events.count == 2 else { return }
        // The car leaves the 25 m half-width when it is 25 m north of the junction.
        let trueExit = 1_773_475_200 + Double(east) + 25 / v
        #expect(abs(events[1].time - trueExit) <= 30)
        #expect(!events[1].crossed)
    }

    @Test func aCorridorIsCrossedBetweenSparseFixes() throws {
        // A 30 m wide road corridor running north-south, crossed at 25 m/s with a fix every 5 s:
        // the corridor's centre line is the geodesic through the road's point at 32 s square to
        // it, so its edges cross the road 15 m before and after that point.
        let road = try Road(v: 25, seconds: 60)
        let mid = try road.at(road.v * 32)
        let ends = try GeodSolveDirect.solve([
            .init(from: mid.point, azimuth: mid.azimuth + 90, distance: 500),
            .init(from: mid.point, azimuth: mid.azimuth - 90, distance: 500),
        ]).map(\.point)
        let index = try FenceIndex(
            fences: [Fence(index: 0, id: "road", shape: .corridor(lines: [ends], widthM: 30))], file: "f")
        var session = TrackingSession(config: TrackerConfig(), fences: index)
        let events = fenceEvents(road.fixes.flatMap { session.ingest($0) })
        try expectCrossings(
            events, entry: (Road.t0 + 32 - 15 / road.v, try road.at(road.v * 32 - 15).point),
            exit: (Road.t0 + 32 + 15 / road.v, try road.at(road.v * 32 + 15).point), "road")
    }

    /// A large circle's corner cut between two fixes that both lie in its box, each more than
    /// twice the margin outside it (so that neither end's depth is measured, only bounded): the
    /// chord 370 m from the centre of a 400 m circle runs √(400² − 370²) = 152 m either side of
    /// the point nearest the centre, up to 30 m deep. Fixes 424 m apart, 14 s apart (30 m/s; the
    /// fences' fix goes stale after 15 s).
    @Test func aCornerOfALargeCircleIsCrossedBetweenFixesBothInItsBox() throws {
        let centre = Self.start
        let nearest = try GeodSolveDirect.point(from: centre, azimuth: 0, distance: 370)
        let along = [-636.0, -212, 212, 636]
        let points = try GeodSolveDirect.solve(
            along.map { .init(from: nearest.point, azimuth: $0 < 0 ? 270 : 90, distance: abs($0)) }
        ).map(\.point)
        let t0 = 1_773_475_200.0
        let fixes = points.enumerated().map { k, p in
            Fix(
                mode: 3, time: t0 + 14 * Double(k), latitude: p.latitude, longitude: p.longitude, altitude: 40,
                eph: 3, speed: 424 / 14, track: 90)
        }
        let index = try FenceIndex(
            fences: [Fence(index: 0, id: "yard", shape: .circle(center: centre, radiusM: 400))], file: "f")
        var session = TrackingSession(config: TrackerConfig(), fences: index)
        let events = fenceEvents(fixes.flatMap { session.ingest($0) })
        // Entered 212 - 152 m and left 212 + 152 m into the 424 m between the middle fixes.
        let half = (400.0 * 400 - 370 * 370).squareRoot()
        try expectCrossings(
            events,
            entry: (
                t0 + 14 + 14 * (212 - half) / 424,
                try GeodSolveDirect.point(from: nearest.point, azimuth: 270, distance: half).point
            ),
            exit: (
                t0 + 14 + 14 * (212 + half) / 424,
                try GeodSolveDirect.point(from: nearest.point, azimuth: 90, distance: half).point
            ),
            "yard")
    }
}
