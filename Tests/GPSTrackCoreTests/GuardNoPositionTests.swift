import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The armed guard's no-position alarm (`guard_no_position`, gpstrackd(8)): no accepted fix for
/// `guard_no_position_s` of fix time raises it once a silence, said again every
/// `guard_repeat_s` until `guard ack`; nothing while the fixes come or before the guard arms.
@Suite struct GuardNoPositionTests {
    static var config: TrackerConfig {
        var c = GuardAndOverspeedTests.guarded
        c.guardRepeatS = 60
        c.guardNoPositionS = 120
        return c
    }

    /// 25 minutes parked: the guard arms after `guard_after_s` (600 s).
    static func parked(seed: UInt64) -> [Fix] {
        let steps = Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 1500)
        return Simulator.run(
            Scenario(name: "parked", start: Coordinate(latitude: 47.37, longitude: 8.54), steps: steps), seed: seed
        ).fixes
    }

    static func silences(_ events: [TrackingSession.Sequenced]) -> [(time: Double, silent: Double, n: Int)] {
        events.compactMap { e in
            if case .tracker(.guardNoPosition(let t, let s, let n)) = e.event { (t, s, n) } else { nil }
        }
    }

    /// Ticks once a second of fix time, as the daemon's clock does, from `from` for `seconds`.
    static func tick(_ session: inout TrackingSession, from: Double, seconds: Int) -> [TrackingSession.Sequenced] {
        (1...seconds).flatMap { session.tickGuard(now: from + Double($0)) }
    }

    /// Ingests fixes (and ticks the clock with each) until 30 s after the guard armed; the
    /// last fix's time and the next fix's index. Records an issue if it never armed or a
    /// no-position alarm came while the fixes did.
    static func armed(_ session: inout TrackingSession, _ fixes: [Fix]) -> (last: Double, next: Int) {
        var events: [TrackingSession.Sequenced] = []
        var armedAt: Double?
        for (k, f) in fixes.enumerated() {
            events += session.ingest(f) + session.tickGuard(now: f.time!)
            if armedAt == nil { armedAt = events.first { $0.name.rawValue == "guard_armed" }?.time }
            if let a = armedAt, f.time! >= a + 30 {
                #expect(silences(events).isEmpty, "fixes came: \(silences(events))")
                return (f.time!, k + 1)
            }
        }
        Issue.record("the guard never armed: \(Set(events.map(\.name)))")
        return (fixes.last!.time!, fixes.count)
    }

    @Test(arguments: [21, 22] as [UInt64])
    func aSilenceWhileArmedRaisesOnceRepeatsUntilAckThenANewSilenceAgain(seed: UInt64) throws {
        let fixes = Self.parked(seed: seed)
        var session = TrackingSession(config: Self.config)
        let (last, k) = Self.armed(&session, fixes)
        // The fixes stop: 400 s of silence.
        let silent = Self.tick(&session, from: last, seconds: 400)
        let said = Self.silences(silent)
        #expect(said.map(\.n) == [0, 1, 2, 3, 4], "raised at 120 s, then every 60 s: \(said)")
        for (i, s) in said.enumerated() {
            #expect(s.time == last + 120 + 60 * Double(i), "said \(s.n) at \(s.time - last) s")
            #expect(s.silent == s.time - last, "silent_s is the time since the last fix: \(s.silent)")
        }
        #expect(session.tracker.parkedGuard.alarmState == "alarm")
        let ackAt = last + 400
        #expect(session.acknowledgeGuard(time: ackAt).map(\.name.rawValue) == ["guard_ack"])
        #expect(session.tracker.parkedGuard.alarmState == "acknowledged")
        // Acknowledged: the same silence stays quiet.
        #expect(Self.silences(Self.tick(&session, from: ackAt, seconds: 600)).isEmpty)
        // Fixes again (the same parking, later), then a new silence: raised again, once.
        var resumed: [TrackingSession.Sequenced] = []
        let base = fixes[k].time!
        let shift = ackAt + 600 - base
        for f in fixes[k..<(k + 60)] {
            var g = f
            g.time = f.time! + shift
            resumed += session.ingest(g) + session.tickGuard(now: g.time!)
        }
        #expect(Self.silences(resumed).isEmpty, "\(Self.silences(resumed))")
        let again = try #require(session.tracker.lastAccepted?.time)
        let second = Self.silences(Self.tick(&session, from: again, seconds: 150))
        #expect(second.map(\.n) == [0], "\(second)")
        #expect(second.first?.time == again + 120)
    }

    @Test func noSilenceAlarmBeforeTheGuardArmsNorWithTheGuardOff() {
        let fixes = Self.parked(seed: 23).prefix(200)
        var session = TrackingSession(config: Self.config)
        var events: [TrackingSession.Sequenced] = []
        for f in fixes { events += session.ingest(f) }
        let last = fixes.last!.time!
        #expect(session.tracker.parkedGuard.state == "waiting")
        #expect(Self.silences(Self.tick(&session, from: last, seconds: 600)).isEmpty)
        var off = TrackingSession(config: TrackerConfig())
        for f in Self.parked(seed: 23) { _ = off.ingest(f) }
        #expect(off.tracker.parkedGuard.state == "off")
        #expect(Self.silences(Self.tick(&off, from: off.tracker.lastAccepted!.time!, seconds: 600)).isEmpty)
    }

    @Test func aLatchedSilenceSurvivesARestart() throws {
        var session = TrackingSession(config: Self.config)
        let (last, _) = Self.armed(&session, Self.parked(seed: 24))
        #expect(Self.silences(Self.tick(&session, from: last, seconds: 130)).map(\.n) == [0])
        var again = TrackingSession(config: Self.config, firstSeq: session.seq)
        again.restore(trip: session.tracker.trip, seq: session.seq, fences: [:], trips: session.tracker.motionState)
        #expect(again.tracker.parkedGuard.silence == session.tracker.parkedGuard.silence)
        #expect(again.tracker.parkedGuard.alarmState == "alarm")
        // Still said again after the restart (no fix since: the repeat is the clock's).
        #expect(Self.silences(Self.tick(&again, from: last + 130, seconds: 60)).map(\.n) == [1])
    }

    @Test func guardNoPositionSIsAKeyAboveZero() throws {
        #expect(try ConfigParser.parse("guard_no_position_s = 45\n", file: "g.conf").tracker.guardNoPositionS == 45)
        #expect(TrackerConfig().guardNoPositionS == 300)
        for bad in ["0", "-5", "soon", "nan"] {
            #expect(throws: ConfigError.self) {
                try ConfigParser.parse("guard_no_position_s = \(bad)\n", file: "g.conf")
            }
        }
    }
}
