import GPSTrackSim
import Testing

@testable import GPSTrackCore
@testable import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

@Suite struct GeofenceTests {
    static let base = FixFactory.base

    static func index(_ fences: [Fence]) throws -> FenceIndex {
        try FenceIndex(fences: fences, file: "test.geojson")
    }

    /// A square polygon `half` metres around a point `east`/`north` of the base.
    static func square(east: Double = 0, north: Double = 0, half: Double) -> [Coordinate] {
        func p(_ e: Double, _ n: Double) -> Coordinate {
            var c = base
            if e + east != 0 { c = Geodesic.destination(from: c, azimuth: 90, distance: e + east) }
            if n + north != 0 { c = Geodesic.destination(from: c, azimuth: 0, distance: n + north) }
            return c
        }
        let ring = [p(-half, -half), p(half, -half), p(half, half), p(-half, half)]
        return ring + [ring[0]]
    }

    func run(_ session: inout TrackingSession, _ fixes: [Fix]) -> [FenceEvent] {
        fixes.flatMap { session.ingest($0) }.compactMap {
            if case .fence(let f) = $0.event { return f }
            return nil
        }
    }

    @Test func circleCrossingsInOrder() throws {
        let idx = try Self.index([Fence(index: 0, id: "c", shape: .circle(center: Self.base, radiusM: 100))])
        var session = TrackingSession(config: TrackerConfig(), fences: idx)
        // From 301 m west to 299 m east at 5 m/s.
        let fixes = (0...120).map {
            FixFactory.at(Double($0), east: -301 + 5 * Double($0), eph: 4, speed: 5, track: 90)
        }
        let events = run(&session, fixes)
        // Found outside at the first fix: counted in the determination, no event (issue 11).
        #expect(events.map(\.kind) == [.enter, .exit])
        // Entered at the first fix 10 m inside (x = -86 m; -91 m is not enough), left at the
        // first fix 10 m outside (x = 114 m; 109 m is not enough).
        #expect(events[0].time == FixFactory.t0 + 43)
        #expect(events[1].time == FixFactory.t0 + 83)
        #expect(idx.fences.count == 1 && session.geofences?.statuses[0].state == .outside)
    }

    @Test func polygonWithHole() throws {
        let outer = Self.square(half: 300)
        let hole = Self.square(half: 100)
        let idx = try Self.index([Fence(index: 0, id: "p", shape: .polygons([[outer, hole.reversed()]]))])
        #expect(idx.signedDistance(fence: 0, point: Self.base) < -90, "the hole's centre is outside")
        var session = TrackingSession(config: TrackerConfig(), fences: idx)
        let fixes = (0...160).map {
            FixFactory.at(Double($0), east: -400 + 5 * Double($0), eph: 4, speed: 5, track: 90)
        }
        let events = run(&session, fixes).map(\.kind)
        // Outside, into the ring, out into the hole, back into the ring, out on the far side.
        #expect(events == [.enter, .exit, .enter, .exit])
    }

    @Test func noFlappingAlongABoundary() throws {
        let idx = try Self.index([Fence(index: 0, id: "c", shape: .circle(center: Self.base, radiusM: 200))])
        var session = TrackingSession(config: TrackerConfig(), fences: idx)
        var rng = SeededRandom(seed: 3)
        var fixes = [FixFactory.at(0, eph: 4, speed: 0, track: 0)]  // start at the centre
        // Ten minutes walking along the boundary 4 m inside it, with 3 m of noise.
        for i in 1...600 {
            let angle = Double(i) * 0.002
            let r = 196 + 3 * rng.gaussian()
            fixes.append(
                FixFactory.at(Double(i), east: r * sin(angle), north: r * cos(angle), eph: 5, speed: 1.2, track: 90))
        }
        let events = run(&session, fixes).map(\.kind)
        #expect(events == [.enter])
    }

    @Test func startingInsideAndOutside() throws {
        let idx = try Self.index([
            Fence(index: 0, id: "in", shape: .circle(center: Self.base, radiusM: 100)),
            Fence(index: 1, id: "out", shape: .polygons([[Self.square(east: 1000, half: 50)]])),
        ])
        var session = TrackingSession(config: TrackerConfig(), fences: idx)
        let sequenced = session.ingest(FixFactory.at(0, eph: 4))
        let events = sequenced.compactMap {
            if case .fence(let f) = $0.event { return f }
            return nil
        }
        // The fence found outside has no event of its own (issue 11), only its count.
        #expect(events.count == 1)
        #expect(events.contains { $0.fence == 0 && $0.kind == .enter })
        guard case .fencesDetermined(let counts)? = sequenced.last?.event else {
            Issue.record("no fences_determined after the first fix")
            return
        }
        #expect(counts == FenceCounts(inside: 1, outside: 1, unknown: 0, time: FixFactory.t0))
    }

    @Test func fixLostAndRegained() throws {
        let idx = try Self.index([Fence(index: 0, id: "c", shape: .circle(center: Self.base, radiusM: 100), dwellS: 60)]
        )
        var session = TrackingSession(config: TrackerConfig(), fences: idx)
        var fixes = (0..<10).map { FixFactory.at(Double($0), eph: 4) }
        fixes += (10..<40).map { FixFactory.at(Double($0), mode: 1) }  // 30 s without a fix
        fixes += (40..<50).map { FixFactory.at(Double($0), east: 1, eph: 4) }  // back, same place
        let events = run(&session, fixes)
        #expect(events.map(\.kind) == [.enter, .state(.unknown), .state(.inside)])
        // The state went unknown once the fix was 15 s stale (stale_after_s), by fix time.
        #expect(events[1].time == FixFactory.t0 + 25)
        #expect(session.geofences?.statuses[0].state == .inside)
        // Lost again, and back outside: that is an exit.
        fixes = (50..<70).map { FixFactory.at(Double($0), mode: 1) }
        fixes += [FixFactory.at(70, east: 500, eph: 4), FixFactory.at(71, east: 501, eph: 4)]
        #expect(run(&session, fixes).map(\.kind) == [.state(.unknown), .exit])
    }

    @Test func dwellUsesFixTime() throws {
        let idx = try Self.index([Fence(index: 0, id: "c", shape: .circle(center: Self.base, radiusM: 100), dwellS: 60)]
        )
        var session = TrackingSession(config: TrackerConfig(), fences: idx)
        let events = run(&session, (0...200).map { FixFactory.at(Double($0) * 0.5, eph: 4) })
        #expect(events.map(\.kind) == [.enter, .dwell])
        #expect(events[1].time == FixFactory.t0 + 60)
        // notify without dwell: no dwell event, but the state is kept.
        let quiet = try Self.index([
            Fence(index: 0, id: "c", shape: .circle(center: Self.base, radiusM: 100), dwellS: 60, notify: [.exit])
        ])
        var s2 = TrackingSession(config: TrackerConfig(), fences: quiet)
        #expect(run(&s2, (0...200).map { FixFactory.at(Double($0), eph: 4) }).isEmpty)
        #expect(s2.geofences?.statuses[0].state == .inside)
    }

    @Test func sequenceNumbersOnlyGrow() throws {
        let idx = try Self.index([Fence(index: 0, id: "c", shape: .circle(center: Self.base, radiusM: 50))])
        var session = TrackingSession(config: TrackerConfig(), fences: idx, firstSeq: 41)
        let fixes = (0...200).map {
            FixFactory.at(Double($0), east: -200 + 3 * Double($0), eph: 4, speed: 3, track: 90)
        }
        let seqs = fixes.flatMap { session.ingest($0) }.map(\.seq)
        #expect(seqs.first == 42)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func antimeridianSplitFence() throws {
        let json = """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"fiji","properties":{},
             "geometry":{"type":"MultiPolygon","coordinates":[
              [[[179.0,-17.0],[180.0,-17.0],[180.0,-16.0],[179.0,-16.0],[179.0,-17.0]]],
              [[[-180.0,-17.0],[-179.0,-17.0],[-179.0,-16.0],[-180.0,-16.0],[-180.0,-17.0]]]]}}]}
            """
        let fences = try GeoJSONFences.parse(Array(json.utf8), file: "fiji.geojson")
        let idx = try FenceIndex(fences: fences, file: "fiji.geojson")
        let east = Coordinate(latitude: -16.5, longitude: 179.99)
        let west = Coordinate(latitude: -16.5, longitude: -179.99)
        #expect(idx.signedDistance(fence: 0, point: east) > 1000)
        #expect(idx.signedDistance(fence: 0, point: west) > 1000, "the seam at 180° is no boundary")
        #expect(idx.signedDistance(fence: 0, point: Coordinate(latitude: -16.5, longitude: 0)) < 0)
        #expect(idx.candidates(near: west, marginM: 10) == [0])
    }
}

@Suite struct GeofenceMemoryTests {
    func fenceEvents(_ events: [TrackingSession.Sequenced]) -> [FenceEvent.Kind] {
        events.compactMap {
            if case .fence(let f) = $0.event { return f.kind }
            return nil
        }
    }

    @Test func aReloadKeepsMembershipSoThereIsNoSecondEnter() throws {
        let circle = Fence(index: 0, id: "c", shape: .circle(center: FixFactory.base, radiusM: 100))
        var session = TrackingSession(config: TrackerConfig(), fences: try FenceIndex(fences: [circle], file: "a"))
        #expect(fenceEvents(session.ingest(FixFactory.at(0, eph: 4))) == [.enter])
        // The same fence and a new one.
        let other = Fence(
            index: 1, id: "far", shape: .circle(center: FixFactory.at(0, east: 5000).coordinate, radiusM: 100))
        session.replaceFences(try FenceIndex(fences: [circle, other], file: "b"))
        let after = fenceEvents(session.ingest(FixFactory.at(1, east: 1, eph: 4)))
        // The new fence found outside is only counted (issue 11).
        #expect(after == [.state(.inside)])
    }

    @Test func restoredMembershipCarriesOnAfterARestart() throws {
        let circle = Fence(index: 0, id: "c", shape: .circle(center: FixFactory.base, radiusM: 100), dwellS: 60)
        var first = TrackingSession(config: TrackerConfig(), fences: try FenceIndex(fences: [circle], file: "a"))
        _ = first.ingest(FixFactory.at(0, eph: 4))
        _ = first.ingest(FixFactory.at(30, eph: 4))
        let memory = try #require(first.geofences?.memory(of: 0))
        #expect(memory.membership == true && memory.enteredAt == FixFactory.t0 && !memory.dwellSent)

        var second = TrackingSession(config: TrackerConfig(), fences: try FenceIndex(fences: [circle], file: "a"))
        second.restore(trip: first.tracker.trip, seq: first.seq, fences: ["c": memory])
        let events = [40.0, 50, 60].flatMap { second.ingest(FixFactory.at($0, eph: 4)) }
        // Still inside: a state event, no second enter; the dwell counts from the first entry.
        #expect(fenceEvents(events) == [.state(.inside), .dwell])
        #expect(events.first?.seq == first.seq + 1)
        #expect(second.tracker.trip.startedAt == FixFactory.t0, "the trip carries on")
    }
}

/// Issue 11, part 1: a determination of 10,000 fences writes one summary, not 10,000 events.
@Suite struct DeterminationTests {
    @Test func tenThousandFencesALossAndAReturnWriteNoFlood() throws {
        let origin = Geodesic.destination(
            from: Geodesic.destination(from: FixFactory.base, azimuth: 270, distance: 10_000),
            azimuth: 180, distance: 10_000)
        let fences = FenceGenerator.fences(count: 10_000, origin: origin, sideM: 20_000, seed: 11)
        let idx = try FenceIndex(fences: fences, file: "many.geojson")
        var session = TrackingSession(config: TrackerConfig(), fences: idx)
        func feed(_ fixes: [Fix]) -> [TrackingSession.Sequenced] { fixes.flatMap { session.ingest($0) } }

        let first = feed((0..<10).map { FixFactory.at(Double($0), eph: 4) })
        let inside = try #require(session.geofences).statuses.filter { $0.state == .inside }.count
        #expect(inside >= 1, "the spot lies in some fence, so that the bound below says something")
        #expect(first.count <= inside + 2)
        guard case .fencesDetermined(let counts)? = first.last?.event else {
            Issue.record("no fences_determined")
            return
        }
        #expect(counts.inside == inside && counts.inside + counts.outside + counts.unknown == 10_000)

        // 30 s without a fix: stale after 15 s; then the fix returns at the same place.
        let lost = feed((10..<40).map { FixFactory.at(Double($0), mode: 1) })
        #expect(lost.count <= inside + 2)
        // The fix's loss itself once (a core event since issue 21), then the fences' unknowns.
        #expect(lost.map(\.name.rawValue) == ["fix_lost"] + Array(repeating: "state", count: lost.count - 1))
        #expect(
            lost.dropFirst().allSatisfy {
                if case .fence(let f) = $0.event { return f.kind == .state(.unknown) }
                return false
            })
        let back = feed((40..<45).map { FixFactory.at(Double($0), east: 1, eph: 4) })
        #expect(back.count <= inside + 2)
        let kinds = back.map { e -> String in
            switch e.event {
            case .fence(let f): return f.kind == .state(.inside) ? "inside" : f.kind.name.rawValue
            case .fencesDetermined: return "summary"
            case .tracker(let t): return t.name.rawValue
            }
        }
        #expect(kinds == ["fix_acquired"] + Array(repeating: "inside", count: inside) + ["summary"])
    }
}
