import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The anchor watch inside the tracking session, on the seeded recordings of AnchorWatchTests:
/// a boat motors in (a trip), stops over the anchor, drops it at its averaged position, swings
/// for two hours and drags. Truth from GeodSolve.
@Suite struct AnchorSessionTests {
    typealias W = AnchorWatchTests

    static var config: TrackerConfig {
        var c = TrackerConfig()
        c.anchor = W.config
        c.anchor.noPositionS = 60
        c.anchor.repeatS = 120
        return c
    }

    static func fix(_ t: Double, _ at: Coordinate, eph: Double = 5) -> Fix {
        Fix(mode: 3, time: t, latitude: at.latitude, longitude: at.longitude, eph: eph, speed: .nan, track: .nan)
    }

    /// 1,500 m motoring in at 3 m/s from the north-east, then a minute stopped over the anchor.
    static func approach(seed: UInt64) -> [Fix] {
        var rng = SeededRandom(seed: seed &+ 100)
        var fixes: [Fix] = []
        let start = W.t0 - 560
        for k in 0..<560 {
            let left = max(0, 1500 - 3 * Double(k))
            var p = Geodesic.destination(from: W.anchor, azimuth: 45, distance: left)
            p = Geodesic.destination(from: p, azimuth: rng.uniform(0...360), distance: abs(1.5 * rng.gaussian()))
            fixes.append(fix(start + Double(k), p))
        }
        return fixes
    }

    static func kinds(_ events: [TrackingSession.Sequenced]) -> [String] { events.map(\.name.rawValue) }

    /// The averaged position is the mean of the last `averagedFixes` accepted fixes however many
    /// came before (they are kept in a ring; break tried: a ring that never turns fails it).
    @Test func theAveragedPositionIsTheLastAveragedFixes() throws {
        var session = TrackingSession(config: Self.config)
        let n = TrackingSession.averagedFixes
        // Walking north at about 1.1 m/s: 1e-5 degrees a second, every fix accepted.
        let total = n + 17
        for k in 0..<total {
            _ = session.ingest(Self.fix(W.t0 + Double(k), Coordinate(latitude: 50 + Double(k) * 1e-5, longitude: 1)))
        }
        #expect(session.tracker.counters.accepted == total)
        let averaged = try #require(session.averagedPosition)
        // The last n fixes, k = total - n ..< total: their mean k is total - (n + 1) / 2.
        let meanK = Double(total) - Double(n + 1) / 2
        #expect(abs(averaged.latitude - (50 + meanK * 1e-5)) < 1e-9, "\(averaged.latitude)")
        #expect(abs(averaged.longitude - 1) < 1e-9, "\(averaged.longitude)")
    }

    @Test(
        .enabled(if: GeodSolveTruth.path != nil, "GeodSolve is installed by `make test`"),
        arguments: [1, 2, 3] as [UInt64])
    func aSwingIsNoVoyageTheDragIsAnAlarmAndSilenceIsNoPosition(seed: UInt64) throws {
        let rec = W.record(seed: seed)
        var session = TrackingSession(config: Self.config)
        var events: [TrackingSession.Sequenced] = []
        for f in Self.approach(seed: seed) { events += session.ingest(f) }
        #expect(Self.kinds(events).contains("trip_start"), "the approach is a trip: \(Self.kinds(events))")
        let approachM = session.tracker.trip.traveledM
        #expect(approachM > 1000, "the approach counted: \(approachM)")

        // Dropped at the boat's averaged position: the last half minute over the anchor.
        let averaged = try #require(session.averagedPosition)
        let off = try GeodSolveTruth.distance(averaged, W.anchor)
        #expect(off < 3, "seed \(seed): the averaged position is \(off) m from the anchor")
        let dropped = session.dropAnchor(at: averaged, radiusM: W.radius, time: W.t0)
        #expect(
            Self.kinds(dropped) == ["trip_end", "anchor_dropped"], "the voyage ends at the drop: \(Self.kinds(dropped))"
        )
        let atDrop = session.tracker.trip.traveledM
        let acceptedAtDrop = session.tracker.counters.accepted

        var swing: [TrackingSession.Sequenced] = []
        var drag: [TrackingSession.Sequenced] = []
        var acks = 0
        for f in rec.fixes {
            let out = session.ingest(Self.fix(f.time, f.at, eph: f.eph))
            if f.time < rec.dragStart {
                swing += out
                continue
            }
            drag += out
            // Someone answers each alarm at once; the boat goes on dragging.
            if out.contains(where: { $0.name.rawValue == "anchor_alarm" }) {
                drag += session.acknowledgeAnchor(time: f.time)
                acks += 1
            }
        }
        #expect(swing.isEmpty, "seed \(seed): two hours of swing raised \(Self.kinds(swing))")
        #expect(session.tracker.trip.traveledM == atDrop, "the swing and the drag are no traveled distance")
        #expect(!Self.kinds(drag).contains("trip_start"), "no trip starts at anchor: \(Self.kinds(drag))")
        let accepted = session.tracker.counters.accepted - acceptedAtDrop
        #expect(accepted > rec.fixes.count - 20, "the screen let the swing through: \(accepted)")
        #expect(session.anchorTrack.points.count == accepted, "every accepted fix in the anchor track")

        let truth = try GeodSolveTruth.lengths(rec.truth.map { [averaged, $0] })
        let due = rec.fixes[try #require(truth.indices.first { truth[$0] > W.radius + 2 * W.sigma })].time
        let alarms = drag.compactMap { e -> Double? in
            if case .tracker(.anchor(.alarm(let t, _, _, 0))) = e.event { t } else { nil }
        }
        try #require(alarms.count >= 2, "seed \(seed): the alarm, acked, raised again: \(Self.kinds(drag))")
        #expect(alarms[0] <= due + 60 && alarms[0] >= due - 60, "seed \(seed): alarm \(alarms[0] - due) s after due")
        #expect(acks == alarms.count && Self.kinds(drag).filter { $0 == "anchor_ack" }.count == acks)
        let seqs = drag.map(\.seq)
        #expect(seqs == Array(seqs.first!...seqs.last!), "sequenced without gaps: \(seqs)")

        // The fixes stop: time goes on on the fixes' scale (the daemon's tick); silence is
        // one anchor_no_position, repeated until acknowledged, then quiet.
        let last = rec.fixes.last!.time
        var silence: [TrackingSession.Sequenced] = []
        for k in 1...600 {
            let out = session.tickAnchor(now: last + Double(k))
            silence += out
            if k == 200 { silence += session.acknowledgeAnchor(time: last + Double(k)) }
        }
        let raised = silence.filter {
            if case .tracker(.anchor(.noPosition(_, _, 0))) = $0.event { true } else { false }
        }
        #expect(raised.count == 1 && raised.first?.time == last + 60, "once, at +60 s: \(Self.kinds(silence))")
        #expect(silence.last?.name.rawValue == "anchor_ack", "quiet after the ack: \(Self.kinds(silence))")

        // Raised: the odometer goes on from where the boat is; a new voyage is a trip again.
        #expect(Self.kinds(session.raiseAnchor(time: last + 601)) == ["anchor_raised"])
        var after: [TrackingSession.Sequenced] = []
        let from = rec.truth.last!
        for k in 0..<400 {
            after += session.ingest(
                Self.fix(
                    last + 700 + Double(k), Geodesic.destination(from: from, azimuth: 200, distance: 3 * Double(k))))
        }
        #expect(Self.kinds(after).contains("trip_start"), "a trip after the raise: \(Self.kinds(after))")
        let moved = session.tracker.trip.traveledM - atDrop
        #expect(moved > 1100 && moved < 1250, "the new voyage's 1,197 m, not the gap to it: \(moved)")
    }

    @Test func withoutTheAnchorTheSwingWouldBeTraveledDistance() {
        // The control for the test above: the same swing, no anchor dropped, is counted.
        let rec = W.record(seed: 1)
        var session = TrackingSession(config: Self.config)
        for f in rec.fixes.prefix(7200) { _ = session.ingest(Self.fix(f.time, f.at, eph: f.eph)) }
        #expect(session.tracker.trip.traveledM > 100, "the swing counted: \(session.tracker.trip.traveledM)")
    }

    @Test func theStateReadsBackAsItWasWrittenAndADamagedOneIsNoAnchor() {
        var s = AnchorWatch.State(anchor: W.anchor, radiusM: 42.5, droppedAt: W.t0)
        s.maxDistanceM = 61.25
        s.maxAt = W.t0 + 99
        s.drag = AnchorWatch.Alarm(raisedAt: W.t0 + 50)
        s.drag?.repeats = 3
        s.drag?.lastSaidAt = W.t0 + 410
        s.noPosition = AnchorWatch.Alarm(raisedAt: W.t0 + 80)
        s.noPosition?.acknowledged = true
        s.ackedDistanceM = 44
        s.warned = true
        s.lastFixTime = W.t0 + 420
        s.lastDistanceM = 60
        s.lastBearing = 231.5
        #expect(AnchorWatch.State(encoded: s.encoded) == s)
        let fresh = AnchorWatch.State(anchor: W.anchor, radiusM: 30, droppedAt: W.t0)
        #expect(AnchorWatch.State(encoded: fresh.encoded) == fresh)
        for bad in ["", "anchor=1,2,3", "anchor=91,10,30,0", "anchor=54,10,-5,0", "anchor=54,10,nan,0", "garbage"] {
            #expect(AnchorWatch.State(encoded: bad) == nil, "\(bad)")
        }
    }

    @Test func aRestoredLatchedAlarmStaysLatchedAndRepeats() {
        var session = TrackingSession(config: Self.config)
        _ = session.ingest(Self.fix(W.t0, W.anchor))
        _ = session.dropAnchor(at: W.anchor, radiusM: 30, time: W.t0)
        let away = Geodesic.destination(from: W.anchor, azimuth: 90, distance: 80)
        var events: [TrackingSession.Sequenced] = []
        for k in 1...40 { events += session.ingest(Self.fix(W.t0 + Double(k), away)) }
        #expect(Self.kinds(events).contains("anchor_alarm"))
        let stored = session.anchor.state!.encoded
        // A restart: a new session from the stored text.
        var again = TrackingSession(config: Self.config, firstSeq: session.seq)
        again.restore(anchor: AnchorWatch.State(encoded: stored))
        #expect(again.anchor.state?.alarmState == "alarm" && again.tracker.anchored)
        var later: [TrackingSession.Sequenced] = []
        for k in 41...200 { later += again.ingest(Self.fix(W.t0 + Double(k), away)) }
        // The restarted session's first fix is its fix_acquired; then only the alarm, repeated.
        #expect(Self.kinds(later).first == "fix_acquired", "\(Self.kinds(later))")
        let repeats = Self.kinds(later).dropFirst()
        #expect(repeats.allSatisfy { $0 == "anchor_alarm" } && !repeats.isEmpty, "\(Self.kinds(later))")
        #expect(again.tracker.trip.traveledM == 0, "the restored anchor keeps the swing off the odometer")
        #expect(Self.kinds(again.acknowledgeAnchor(time: W.t0 + 201)) == ["anchor_ack"])
    }
}
