import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The parked guard's breach latched as the anchor's alarms are: said again every
/// `guard_repeat_s` of fix time until `guard ack`, through a restart, and while no fix comes.
@Suite struct GuardLatchTests {
    static var config: TrackerConfig {
        var c = GuardAndOverspeedTests.guarded
        c.guardRepeatS = 60
        return c
    }

    /// 15 min parked, towed 300 m at 3 m/s, then 10 min parked there.
    static func trace(seed: UInt64) -> SimulatedTrace {
        towed(seed: seed, speed: 3, seconds: 100, heading: 70, parkedAfter: 600)
    }

    /// 15 min parked, towed at `speed` for `seconds` on `heading`, then parked `parkedAfter` s.
    static func towed(seed: UInt64, speed: Double, seconds: Int, heading: Double, parkedAfter: Int) -> SimulatedTrace {
        let steps =
            Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 900)
            + Array(repeating: Scenario.Step(speed: speed, heading: heading), count: seconds)
            + Array(repeating: Scenario.Step(speed: 0, heading: heading), count: parkedAfter)
        return Simulator.run(
            Scenario(name: "towed", start: Coordinate(latitude: 50.11, longitude: 8.68), steps: steps), seed: seed)
    }

    static func repeats(_ events: [TrackingSession.Sequenced]) -> [(time: Double, n: Int)] {
        events.compactMap { e in
            if case .tracker(.guardRepeat(let t, _, _, _, _, let n)) = e.event { (t, n) } else { nil }
        }
    }

    @Test(arguments: [7, 8] as [UInt64])
    func aBreachIsSaidAgainUntilAcknowledgedAndSurvivesARestart(seed: UInt64) throws {
        let fixes = Self.trace(seed: seed).fixes
        var session = TrackingSession(config: Self.config)
        var events: [TrackingSession.Sequenced] = []
        var k = 0
        // Up to five minutes after the breach.
        while k < fixes.count {
            events += session.ingest(fixes[k])
            k += 1
            if let b = events.first(where: { $0.name.rawValue == "guard_breach" }), let t = fixes[k - 1].time,
                t >= b.time! + 300
            {
                break
            }
        }
        let breach = try #require(events.first { $0.name.rawValue == "guard_breach" })
        let said = Self.repeats(events)
        #expect(said.map(\.n) == [1, 2, 3, 4, 5], "every 60 s: \(said)")
        for (i, r) in said.enumerated() {
            #expect(
                abs(r.time - (breach.time! + 60 * Double(i + 1))) <= 2, "repeat \(r.n) at \(r.time - breach.time!) s")
        }
        #expect(session.tracker.parkedGuard.alarmState == "alarm")
        // A restart from the stored state: still latched, still said again.
        var again = TrackingSession(config: Self.config, firstSeq: session.seq)
        #expect(again.tracker.parkedGuard.alarmState == nil)
        again.restore(trip: session.tracker.trip, seq: session.seq, fences: [:], trips: session.tracker.motionState)
        #expect(again.tracker.parkedGuard.latch == session.tracker.parkedGuard.latch)
        var later: [TrackingSession.Sequenced] = []
        for f in fixes[k..<(k + 130)] { later += again.ingest(f) }
        #expect(Self.repeats(later).map(\.n) == [6, 7], "\(Self.repeats(later))")
        // Acknowledged: quiet; a second ack says nothing.
        let ackTime = try #require(fixes[k + 130].time)
        #expect(again.acknowledgeGuard(time: ackTime).map(\.name.rawValue) == ["guard_ack"])
        #expect(again.acknowledgeGuard(time: ackTime).isEmpty)
        #expect(again.tracker.parkedGuard.alarmState == "acknowledged")
        var after: [TrackingSession.Sequenced] = []
        for f in fixes[(k + 130)...] { after += again.ingest(f) }
        // (A new stop arms the guard again and forgets the acknowledged breach.)
        #expect(Self.repeats(after).isEmpty && again.tracker.parkedGuard.alarmState != "alarm")
    }

    @Test func withoutFixesTheClockSaysItAgainAndGuardOffForgetsIt() {
        let fixes = Self.trace(seed: 9).fixes.prefix(1010)
        var session = TrackingSession(config: Self.config)
        var events: [TrackingSession.Sequenced] = []
        for f in fixes { events += session.ingest(f) }
        let breach = events.first { $0.name.rawValue == "guard_breach" }
        guard let t = breach?.time else {
            Issue.record("no breach: \(events.map(\.name))")
            return
        }
        let last = fixes.last!.time!
        var ticked: [TrackingSession.Sequenced] = []
        for s in 1...200 { ticked += session.tickGuard(now: last + Double(s)) }
        let said = Self.repeats(events + ticked)
        #expect(!said.isEmpty && said.allSatisfy { $0.time >= t + 60 }, "\(said)")
        let n = said.count
        #expect(Self.repeats(ticked).count >= 3, "about every 60 s of the 200: \(Self.repeats(ticked))")
        session.setGuard(on: false)
        #expect(session.tickGuard(now: last + 1000).isEmpty && session.tracker.parkedGuard.alarmState == nil)
        #expect(n > 0)
    }

    @Test func guardRepeatSIsAKeyAboveZero() throws {
        #expect(try ConfigParser.parse("guard_repeat_s = 30\n", file: "g.conf").tracker.guardRepeatS == 30)
        #expect(throws: ConfigError.self) { try ConfigParser.parse("guard_repeat_s = 0\n", file: "g.conf") }
    }
}
