import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The anchor watch on seeded recordings of a boat at anchor: two hours swinging on a 35 m rode
/// through wind shifts, with a receiver's correlated noise and multipath jumps, then the anchor
/// dragging at 0.3 m/s. The truth (the boat's distance from the anchor) comes from GeodSolve.
@Suite struct AnchorWatchTests {
    static let anchor = Coordinate(latitude: 54.3521, longitude: 10.1743)
    static let t0 = 1_790_000_000.0
    /// 35 m of rode in 5 m of water from a bow 1 m up: 34.5 m of scope.
    static let config: AnchorConfig = {
        var c = AnchorConfig()
        c.bowHeightM = 1
        c.marginM = 15
        return c
    }()
    static let radius = config.radius(rodeM: 35, depthM: 5)!
    /// The receiver's noise: a bias wandering with σ 2 m (two-minute memory) plus 1.5 m white
    /// noise; σ 2.5 m in all, so 2σ is 5 m. It reports eph 5 m.
    static let sigma = (2.0 * 2.0 + 1.5 * 1.5).squareRoot()

    struct Recording {
        var fixes: [(time: Double, at: Coordinate, eph: Double)] = []
        /// The boat's true position at each fix.
        var truth: [Coordinate] = []
        var dragStart = 0.0
    }

    /// `swingS` seconds swinging at 1 Hz, then `dragS` seconds of the anchor dragging downwind.
    static func record(seed: UInt64, swingS: Int = 7200, dragS: Int = 900, jumps: Int = 6) -> Recording {
        var rng = SeededRandom(seed: seed)
        var r = Recording()
        let scope = (35.0 * 35.0 - 6.0 * 6.0).squareRoot()
        var wind = 240.0
        var target = 240.0
        var bias = (e: 0.0, n: 0.0)
        let decay = exp(-1.0 / 120)
        let kick = 2.0 * (1 - decay * decay).squareRoot()
        var jumpAt = Set<Int>()
        while jumpAt.count < jumps { jumpAt.insert(Int(rng.uniform(300...Double(swingS - 300)))) }
        var dragged = anchor
        for k in 0..<(swingS + dragS) {
            let t = Double(k)
            // The wind shifts by 60-100° every 20 minutes or so, over two minutes.
            if k % 1200 == 600 { target += (rng.uniform(0...1) < 0.5 ? -1 : 1) * rng.uniform(60...100) }
            wind += max(-0.8, min(0.8, target - wind))
            // The boat sails at anchor: ±30° about downwind, over four minutes; the rode's sag
            // shortens its reach in the lulls.
            let bearing = wind + 180 + 30 * sin(2 * .pi * t / 240)
            let reach = scope * (0.92 + 0.08 * sin(2 * .pi * t / 97))
            if k >= swingS {
                dragged = Geodesic.destination(from: dragged, azimuth: wind + 180, distance: 0.3)
            }
            let boat = Geodesic.destination(from: dragged, azimuth: bearing, distance: reach)
            bias.e = decay * bias.e + kick * rng.gaussian()
            bias.n = decay * bias.n + kick * rng.gaussian()
            var e = bias.e + 1.5 * rng.gaussian()
            var n = bias.n + 1.5 * rng.gaussian()
            if jumpAt.contains(k) {
                // Multipath: one fix 80-150 m off, with an honest-looking error estimate.
                let off = rng.uniform(80...150)
                let dir = rng.uniform(0...(2 * .pi))
                e += off * sin(dir)
                n += off * cos(dir)
            }
            var seen = Geodesic.destination(from: boat, azimuth: 90, distance: e)
            seen = Geodesic.destination(from: seen, azimuth: 0, distance: n)
            r.fixes.append((t0 + t, seen, 5 + rng.uniform(-0.5...0.5)))
            r.truth.append(boat)
        }
        r.dragStart = t0 + Double(swingS)
        return r
    }

    @Test(
        .enabled(if: GeodSolveTruth.path != nil, "GeodSolve is installed by `make test`"),
        arguments: [1, 2, 3] as [UInt64])
    func theSwingRaisesNothingAndTheDragRaisesTheAlarmWithinAMinute(seed: UInt64) throws {
        let rec = Self.record(seed: seed)
        var watch = AnchorWatch(config: Self.config)
        _ = watch.drop(at: Self.anchor, radiusM: Self.radius, time: Self.t0)
        var events: [AnchorEvent] = []
        var acked = false
        for fix in rec.fixes {
            let out = watch.ingest(at: fix.at, errorM: fix.eph, time: fix.time)
            events += out
            // Someone answers the first alarm at once; the boat goes on dragging.
            if !acked, out.contains(where: { if case .alarm = $0 { true } else { false } }) {
                events += watch.acknowledge(time: fix.time)
                acked = true
            }
        }
        let truth = try GeodSolveTruth.lengths(rec.truth.map { [Self.anchor, $0] })
        let swing = events.filter { e in
            switch e {
            case .warning(let t, _, _), .alarm(let t, _, _, _): t < rec.dragStart
            default: false
            }
        }
        #expect(swing.isEmpty, "seed \(seed): raised during the swing: \(swing)")
        #expect(truth.prefix(7200).max()! < Self.radius, "the swing stays inside the radius (the scenario is right)")

        let raises = events.compactMap { e -> Double? in if case .alarm(let t, _, _, 0) = e { t } else { nil } }
        try #require(raises.count >= 2, "seed \(seed): the alarm, then again after the ack: \(events)")
        // The truth passes the radius plus the receiver's 2σ at `due`; the alarm within a minute
        // after it, and never before the boat is truly outside the radius.
        let k = try #require(truth.indices.first { truth[$0] > Self.radius + 2 * Self.sigma })
        let due = rec.fixes[k].time
        let outside = rec.fixes[truth.indices.first { truth[$0] > Self.radius }!].time
        #expect(raises[0] <= due + 60 && raises[0] >= outside, "seed \(seed): alarm at +\(raises[0] - due) s after due")
        #expect(events.contains(.acknowledged(time: raises[0])))
        // Raised again once it has dragged the step farther than at the ack.
        let atAck = truth[rec.fixes.firstIndex { $0.time == raises[0] }!]
        let again = truth[rec.fixes.firstIndex { $0.time == raises[1] }!]
        #expect(
            again > atAck + Self.config.redragM - 2 * Self.sigma,
            "seed \(seed): raised again at \(again) m, acked at \(atAck) m")
        #expect(
            events.contains {
                if case .warning(let t, _, _) = $0 { t >= rec.dragStart && t <= raises[0] } else { false }
            },
            "a warning comes before the alarm")
    }

    @Test func fixesStoppingRaiseNoPositionOnceASilenceLatchedAndRepeatedUntilAcknowledged() {
        var c = Self.config
        c.noPositionS = 60
        c.repeatS = 120
        var watch = AnchorWatch(config: c)
        _ = watch.drop(at: Self.anchor, radiusM: Self.radius, time: Self.t0)
        for k in 0..<600 { #expect(watch.ingest(at: Self.anchor, errorM: 5, time: Self.t0 + Double(k)).isEmpty) }
        // The fixes stop at t0 + 599; time goes on.
        var events: [AnchorEvent] = []
        for k in 600..<1000 { events += watch.tick(now: Self.t0 + Double(k)) }
        let raised = events.filter { if case .noPosition(_, _, 0) = $0 { true } else { false } }
        #expect(raised == [.noPosition(time: Self.t0 + 659, silentS: 60, repeat: 0)], "\(events)")
        let repeats = events.compactMap { e -> Int? in if case .noPosition(_, _, let n) = e, n > 0 { n } else { nil } }
        #expect(repeats == [1, 2], "at 779 and 899, every 120 s: \(events)")
        #expect(watch.state?.alarmState == "alarm")
        // Fixes back: still latched; acknowledged: quiet.
        _ = watch.ingest(at: Self.anchor, errorM: 5, time: Self.t0 + 1000)
        #expect(watch.state?.alarmState == "alarm")
        #expect(watch.acknowledge(time: Self.t0 + 1001) == [.acknowledged(time: Self.t0 + 1001)])
        var after: [AnchorEvent] = []
        for k in 1001..<1050 { after += watch.ingest(at: Self.anchor, errorM: 5, time: Self.t0 + Double(k)) }
        #expect(after.isEmpty && watch.state?.alarmState == "acknowledged")
        // A new silence is a new alarm.
        for k in 1050..<1200 { after += watch.tick(now: Self.t0 + Double(k)) }
        #expect(after == [.noPosition(time: Self.t0 + 1109, silentS: 60, repeat: 0)], "\(after)")
    }

    @Test func aLatchedDragAlarmRepeatsUntilAcknowledged() {
        var c = Self.config
        c.repeatS = 60
        var watch = AnchorWatch(config: c)
        _ = watch.drop(at: Self.anchor, radiusM: 30, time: Self.t0)
        let away = Geodesic.destination(from: Self.anchor, azimuth: 45, distance: 60)
        var events: [AnchorEvent] = []
        for k in 0..<200 { events += watch.ingest(at: away, errorM: 5, time: Self.t0 + Double(k)) }
        let alarms = events.compactMap { e -> (Double, Int)? in
            if case .alarm(let t, _, _, let n) = e { (t, n) } else { nil }
        }
        // The vote needs five fixes, all beyond: the raise at the fifth (t0 + 4), then every 60 s.
        #expect(alarms.map(\.0) == [4, 64, 124, 184].map { Self.t0 + $0 }, "\(alarms)")
        #expect(alarms.map(\.1) == [0, 1, 2, 3])
        _ = watch.acknowledge(time: Self.t0 + 200)
        var after: [AnchorEvent] = []
        for k in 200..<400 { after += watch.ingest(at: away, errorM: 5, time: Self.t0 + Double(k)) }
        #expect(after.isEmpty, "acknowledged and not dragging farther: quiet, \(after)")
        let raised = watch.raise(time: Self.t0 + 400)
        guard case .raised(let t, let most)? = raised.first, raised.count == 1 else {
            Issue.record("\(raised)")
            return
        }
        #expect(t == Self.t0 + 400 && abs(most - 60) < 1e-6, "the farthest: 60 m, \(most)")
        #expect(watch.state == nil)
    }

    @Test func theRadiusFromRodeAndDepthIsTheHorizontalScopePlusTheMargin() {
        var c = AnchorConfig()
        c.bowHeightM = 1.5
        c.marginM = 10
        // 30 m of rode from 1.5 m above 6 m of water: sqrt(30² - 7.5²) = 29.047 m of scope.
        #expect(abs(c.radius(rodeM: 30, depthM: 6)! - (29.047 + 10)) < 0.001)
        #expect(c.radius(rodeM: 7, depthM: 6) == nil, "a rode that does not reach the bottom")
        #expect(c.radius(rodeM: .nan, depthM: 6) == nil && c.radius(rodeM: 30, depthM: -1) == nil)
    }
}
