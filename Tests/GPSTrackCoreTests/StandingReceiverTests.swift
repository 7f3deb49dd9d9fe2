import GPSTrackCore
import GPSTrackSim
import Testing

/// A poor receiver standing still (gpstrackd issue: 150 m over 11 minutes): speed frozen at 0,
/// a frozen course, positions wandering over ~100 m, spells of low accuracy that lose the fix.
@Suite struct StandingReceiverTests {
    /// The standing receiver's fixes, one a second for `seconds`: a slow wander of `wanderM`
    /// (a random walk pulled back to the place), eph 25-50 m, and `losses` spells of 20-40 s of
    /// eph over the limit (rejected, so the fix is lost and regained).
    static func standing(seed: UInt64, seconds: Int = 660, wanderM: Double = 50, losses: Int = 10) -> [Fix] {
        var rng = SeededRandom(seed: seed)
        var e = 0.0
        var n = 0.0
        var fixes: [Fix] = []
        let spacing = seconds / (losses + 1)
        var lossStarts: [Int: Int] = [:]
        for k in 1...max(1, losses) where losses > 0 { lossStarts[k * spacing] = Int(rng.uniform(20...40)) }
        var lostUntil = -1
        for s in 0..<seconds {
            // A random walk pulled back towards the place: wander of about `wanderM`.
            // Ornstein-Uhlenbeck, sigma wanderM/2.5 per axis, tau 90 s: a spread of about wanderM*2.
            let sigma = wanderM / 2.5
            let tau = 90.0
            e += rng.gaussian() * sigma * (2 / tau).squareRoot() - e / tau
            n += rng.gaussian() * sigma * (2 / tau).squareRoot() - n / tau
            if let d = lossStarts[s] { lostUntil = s + d }
            let eph = s < lostUntil ? rng.uniform(60...120) : rng.uniform(25...50)
            fixes.append(FixFactory.at(Double(s), east: e, north: n, eph: eph, speed: 0, track: 123.4))
        }
        return fixes
    }

    /// 11 minutes, the fix lost and regained 10 times, about a third of the fixes rejected for
    /// low accuracy: nothing moved, so at most 10 m (before the fix: 180-400 m, each fix lost
    /// counted the wander since the last delivery as travel).
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func aFrozenSpeedStandingReceiverAddsAtMost10m(seed: UInt64) {
        var session = TrackingSession(config: TrackerConfig())
        var lost = 0
        for f in Self.standing(seed: seed) {
            for s in session.ingest(f) {
                if case .tracker(.fixLost) = s.event { lost += 1 }
            }
        }
        session.settle()
        #expect(lost >= 5)
        #expect(session.tracker.trip.traveledM <= 10)
    }

    /// Without a speed, held fixes that wander back towards the last delivery are no movement
    /// when the fix is lost; held fixes that recede (a walk's last fix is its farthest) are.
    @Test func aSpeedlessReceiversHeldFixesAreMovementOnlyWhenTheyRecede() {
        var wander = MotionFilter(config: TrackerConfig())
        var walk = MotionFilter(config: TrackerConfig())
        _ = wander.offer(FixFactory.at(0, eph: 20))
        _ = walk.offer(FixFactory.at(0, eph: 20))
        // Out 40 m and back to 8 m: each within the creep distance (60 m), so all held.
        for (k, east) in [10.0, 25, 40, 30, 8].enumerated() {
            #expect(wander.offer(FixFactory.at(Double(k + 1), east: east, eph: 20)) == nil)
        }
        for (k, east) in [2.0, 4, 6, 8].enumerated() {
            #expect(walk.offer(FixFactory.at(Double(k + 1) * 4, east: east, eph: 20)) == nil)
        }
        #expect(wander.heldWayDisowned)
        #expect(!walk.heldWayDisowned)
    }

    /// The same standing spell, then a walk of 800 m with an honest receiver: the walk counts in
    /// full, within 2 % of its true length by GeodSolve.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func aWalkAfterTheStandingSpellCountsInFull(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let walk = Scenario(
            name: "walk", start: FixFactory.base, steps: Scenario.walk(lengthM: 800, rng: &rng).steps)
        let standing = Self.standing(seed: seed)
        let trace = Simulator.run(walk, seed: seed, startTime: FixFactory.t0 + Double(standing.count))
        let truth = try GeodSolveTruth.lengths([trace.truth])[0]
        var session = TrackingSession(config: TrackerConfig())
        for f in standing + trace.fixes { _ = session.ingest(f) }
        session.settle()
        let traveled = session.tracker.trip.traveledM
        #expect(abs(traveled - truth) <= 0.02 * truth, "traveled \(traveled) m, true \(truth) m")
    }
}
