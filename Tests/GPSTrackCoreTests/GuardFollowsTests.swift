import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The towed car (issue "alarms on time"): parked 15 min, towed 300 m at 1 m/s, then parked 15
/// min at the new place. The breach's repeats follow the car (where it is, how far, how fast,
/// against GeodSolve's distance from the parked place to the true position), the new stop does
/// not arm the guard while the breach is latched (said once), the latch and the refusal survive
/// a restart, and only `guard ack` silences it; then the guard arms where the car now stands.
@Suite struct GuardFollowsTests {
    static var config: TrackerConfig { GuardLatchTests.config }

    static func trace(seed: UInt64) -> SimulatedTrace {
        GuardLatchTests.towed(seed: seed, speed: 1, seconds: 300, heading: 110, parkedAfter: 900)
    }

    struct Said {
        var time: Double
        var at: Coordinate
        var distanceM: Double
        var speedMps: Double?
        var n: Int
    }

    static func breaches(_ events: [TrackingSession.Sequenced]) -> [Said] {
        events.compactMap { e in
            switch e.event {
            case .tracker(.guardBreach(let t, let at, _, let d, let v)):
                Said(time: t, at: at, distanceM: d, speedMps: v, n: 0)
            case .tracker(.guardRepeat(let t, let at, _, let d, let v, let n)):
                Said(time: t, at: at, distanceM: d, speedMps: v, n: n)
            default: nil
            }
        }
    }

    static func count(_ events: [TrackingSession.Sequenced], _ name: String) -> Int {
        events.filter { $0.name.rawValue == name }.count
    }

    @Test(arguments: [21, 22, 23] as [UInt64])
    func theBreachFollowsTheCarAndOnlyAnAckSilencesIt(seed: UInt64) throws {
        let trace = Self.trace(seed: seed)
        let fixes = trace.fixes
        let t0 = try #require(fixes.first?.time)
        var session = TrackingSession(config: Self.config)
        var events: [TrackingSession.Sequenced] = []
        // Up to ten minutes into the new stop (fix time t0 + 1800).
        var k = 0
        while k < fixes.count, let t = fixes[k].time, t < t0 + 1800 {
            events += session.ingest(fixes[k])
            k += 1
        }
        #expect(Self.count(events, "guard_armed") == 1, "armed once, at the first parking")
        let said = Self.breaches(events)
        try #require(said.first?.n == 0, "the breach: \(said.map(\.n))")
        #expect(said.map(\.n) == Array(0..<said.count), "then every repeat, in order")
        // While towed: each repeat from where the car is (GeodSolve, parked place to the true
        // position at the repeat's time, within the receiver's error) and at its speed.
        let parkedTrue = trace.truth[899]
        let truthAt = said.map { trace.truth[min(trace.truth.count - 1, Int(($0.time - t0).rounded()))] }
        let reference = try GeodSolveTruth.lengths(truthAt.map { [parkedTrue, $0] })
        for (s, r) in zip(said, reference) {
            #expect(abs(s.distanceM - r) < 15, "said \(s.n) at \(s.time - t0) s: \(s.distanceM) m, truly \(r) m")
        }
        let towed = said.filter { $0.time > t0 + 900 && $0.time < t0 + 1200 }
        try #require(towed.count >= 3, "repeats while towed: \(towed.map { $0.time - t0 })")
        #expect(zip(towed, towed.dropFirst()).allSatisfy { $1.distanceM > $0.distanceM + 30 }, "a growing distance")
        #expect(Set(towed.map { "\($0.at.latitude),\($0.at.longitude)" }).count == towed.count, "a moving position")
        #expect(towed.allSatisfy { ($0.speedMps ?? 0) > 0.5 }, "at the tow's speed: \(towed.map(\.speedMps))")
        let last = try #require(said.last)
        #expect(last.distanceM > 250, "at the new place, not the first breach's \(said[0].distanceM) m")
        // The new stop is past guard_after_s (600 s): not armed there, said once.
        #expect(Self.count(events, "guard_arm_refused") == 1)
        #expect(session.tracker.parkedGuard.alarmState == "alarm" && session.tracker.parkedGuard.state == "waiting")

        // A restart from the stored state: the latch, where the car is, and the refusal kept.
        var again = TrackingSession(config: Self.config, firstSeq: session.seq)
        again.restore(trip: session.tracker.trip, seq: session.seq, fences: [:], trips: session.tracker.motionState)
        #expect(again.tracker.parkedGuard.latch == session.tracker.parkedGuard.latch)
        var later: [TrackingSession.Sequenced] = []
        while k < fixes.count, let t = fixes[k].time, t < t0 + 1950 {
            later += again.ingest(fixes[k])
            k += 1
        }
        #expect(Self.breaches(later).map(\.n) == [last.n + 1, last.n + 2], "\(Self.breaches(later).map(\.n))")
        #expect(Self.count(later, "guard_arm_refused") == 0 && Self.count(later, "guard_armed") == 0)

        // Acknowledged: quiet, and the guard arms where the car stands now.
        let ackTime = try #require(fixes[k - 1].time)
        #expect(again.acknowledgeGuard(time: ackTime).map(\.name.rawValue) == ["guard_ack"])
        var after: [TrackingSession.Sequenced] = []
        for f in fixes[k...] { after += again.ingest(f) }
        #expect(Self.breaches(after).isEmpty)
        let armed = after.compactMap { e -> Coordinate? in
            if case .tracker(.guardArmed(_, let at, _)) = e.event { at } else { nil }
        }
        try #require(armed.count == 1, "armed again once: \(after.map(\.name))")
        let moved = try GeodSolveTruth.distance(trace.truth.last!, armed[0])
        #expect(moved < 15, "armed at the new place: \(moved) m from it")
    }

    @Test func guardOffForgetsTheRefusalWithTheLatch() throws {
        let fixes = Self.trace(seed: 24).fixes
        var session = TrackingSession(config: Self.config)
        var events: [TrackingSession.Sequenced] = []
        for f in fixes { events += session.ingest(f) }
        try #require(Self.count(events, "guard_arm_refused") == 1)
        session.setGuard(on: false)
        session.setGuard(on: true)
        #expect(session.tracker.parkedGuard.alarmState == nil)
        // On again with no latch: the stop it stands at may arm it (a later fix, the same stop).
        var t = try #require(fixes.last?.time)
        var more: [TrackingSession.Sequenced] = []
        for f in fixes.suffix(60) {
            var g = f
            t += 1
            g.time = t
            more += session.ingest(g)
        }
        #expect(Self.count(more, "guard_armed") == 1, "\(more.map(\.name))")
    }
}
