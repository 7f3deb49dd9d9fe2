import GPSTrackSim
import Testing

@testable import GPSTrackCore
@testable import GPSTrackProtocol

/// Many fences near every fix: the monitor's lookups among them (by halves since a linear search
/// made a fix inside 10,000 fences cost seconds in a debug build) must find what a plain
/// search finds.
@Suite struct GeofenceScaleTests {
    @Test func positionFindsWhatFirstIndexFinds() {
        var rng = SeededRandom(seed: 11)
        for size in [0, 1, 2, 3, 17, 1_000] {
            var values = Set<Int>()
            while values.count < size { values.insert(Int(rng.next() % 5_000)) }
            let sorted = values.sorted()
            for probe in [-1, 0, 4_999, 5_000] + sorted.prefix(50) + (0..<200).map({ _ in Int(rng.next() % 5_000) }) {
                #expect(
                    GeofenceMonitor.position(of: probe, in: sorted) == sorted.firstIndex(of: probe),
                    "size \(size), probe \(probe)")
            }
        }
    }

    /// 300 circles on one centre, radii 202, 212, … m; a walk east from the centre at 5 m/s
    /// (error 4 m, so the 10 m hysteresis is the margin). Every fence is entered at the first
    /// fix and left at the first fix at least 10 m outside it: radius r + 10 m is first reached
    /// at x = r + 13 m, the next multiple of 5 m, that is at t = 43 + 2 i s for fence i.
    @Test func aWalkOutOfThreeHundredNestedCircles() throws {
        let fences = (0..<300).map {
            Fence(index: $0, id: "c\($0)", shape: .circle(center: FixFactory.base, radiusM: 202 + 10 * Double($0)))
        }
        let index = try FenceIndex(fences: fences, file: "nested.geojson")
        var session = TrackingSession(config: TrackerConfig(), fences: index)
        let fixes = (0...700).map { FixFactory.at(Double($0), east: 5 * Double($0), eph: 4, speed: 5, track: 90) }
        let events = fixes.flatMap { session.ingest($0) }.compactMap { e -> FenceEvent? in
            if case .fence(let f) = e.event { return f }
            return nil
        }
        let enters = events.filter { $0.kind == .enter }
        let exits = events.filter { $0.kind == .exit }
        #expect(enters.count == 300 && enters.allSatisfy { $0.time == FixFactory.t0 })
        #expect(exits.map(\.fenceID) == (0..<300).map { "c\($0)" })
        #expect(exits.map(\.time) == (0..<300).map { FixFactory.t0 + 43 + 2 * Double($0) })
        #expect(events.count == 600, "nothing else: no crossing, no second enter")
        let monitor = try #require(session.geofences)
        // Each event's fence memory, found by the event's own index, is the one found by its id.
        for e in events { #expect(monitor.memory(for: e) == monitor.memory(of: e.fenceID)) }
        // After a reload in another order the event's index names another fence: found by id.
        let reversed = fences.reversed().enumerated().map { i, f in
            var f = f
            f.index = i
            return f
        }
        let reloaded = GeofenceMonitor(
            index: try FenceIndex(fences: reversed, file: "nested.geojson"),
            config: TrackerConfig(), carryingOver: monitor)
        let last = try #require(exits.last)
        #expect(reloaded.memory(for: last) == monitor.memory(of: last.fenceID))
        #expect(reloaded.memory(for: last)?.membership == false)
    }
}
