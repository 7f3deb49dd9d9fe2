/// Where a trip's ends lie: when the receiver stood still (positions, not the reported speed)
/// and the way to a trip's end through the fixes the odometer had not delivered.
extension TripDetector {
    /// The way from the last delivery to a trip's end: through the fixes held since (taken
    /// after `time`, before the index `end` into `recent`), corners counted as the odometer's
    /// creep deliveries count them, not the chord alone.
    func way(from start: Coordinate, after time: Double, before end: Int, to target: Coordinate) -> Double {
        let chord = Geodesic.distance(start, target)
        var path = HeldPath()
        // The run of fixes after `time` that ends at `end`: a clock that stepped back must not
        // bring the way before the step in again.
        var first = min(end, recent.count)
        while first > 0, recent[first - 1].time > time { first -= 1 }
        for k in first..<min(end, recent.count) { path.hold(recent[k].at) }
        return path.length(from: start, to: target, chord: chord, tolerance: config.distanceFilterM)
    }

    /// The first fix from `first` on at which the receiver was still and stayed so.
    func arrival(from first: Int) -> Int {
        for k in first..<recent.count where isStill(k, forward: true) { return k }
        return first
    }

    /// The time of the last fix before `index` (absolute) at which the receiver was still: by
    /// its positions, or by its own Doppler speed below `stationary_speed_mps` (what reaches
    /// here is the receiver's, gpsd's derived speeds dropped before). Positions alone never
    /// find a standstill in a poor sky's wander, and the way from the stop then took the
    /// wander before the departure in as travel.
    func departureTime(before index: Int) -> Double? {
        let end = min(recent.count - 1, max(0, index - recentBase))
        guard end > 0 else { return nil }
        // By Doppler strictly before the fix at `index`: that one has left (a fix after a gap
        // may stand again at its new place).
        for k in stride(from: end, through: 0, by: -1)
        where (k < end && standsByDoppler(k)) || isStill(k, forward: false) {
            return recent[k].time
        }
        return nil
    }

    /// Whether the receiver's own speed at `k` says it stands.
    func standsByDoppler(_ k: Int) -> Bool {
        recent[k].speed.isFinite && recent[k].speed < config.stationarySpeedMps
    }

    /// Whether the fixes within `stillWindowS` after (or before) `k` kept within `stillRadiusM`.
    func isStill(_ k: Int, forward: Bool) -> Bool {
        let t = recent[k].time
        var i = forward ? k + 1 : k - 1
        var seen = false
        // Across a gap in the fixes, the next fix on that side alone decides.
        while i >= 0, i < recent.count, !seen || abs(recent[i].time - t) <= Self.stillWindowS {
            if Self.farther(recent[k].at, recent[i].at, than: Self.stillRadiusM) { return false }
            seen = true
            i += forward ? 1 : -1
        }
        // The fixes kept must cover the window: a walk's first seconds are no standstill.
        return seen && i >= 0 && i < recent.count
    }
}
