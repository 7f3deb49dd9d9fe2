/// The odometer's side of the trip detector: short moves, and the held fixes resolved at the
/// feed's end.
extension TripDetector {
    /// A movement that did not make a trip ended at `at`: its distance still counts.
    mutating func endShortMove(traveledM: Double, at: Coordinate) {
        shortMoves += 1
        movedM += traveledM
        line.reach(at)
    }

    /// Resolves the fixes held since the odometer's last delivery into the open movement (a
    /// trip or a short move) the way a trip's end does: through the held fixes to the last
    /// one. Nothing at a stop, nor for a receiver that has not moved since its first fix.
    /// Returns the position counted to, for the odometer to go on from; nil when nothing was.
    /// Unless `counting` (`MotionFilter.heldWayDisowned`: the receiver's own speed says the held
    /// fixes are no movement), nothing is counted: a standing receiver's wander, at a fix lost.
    public mutating func settle(counting: Bool = true) -> Coordinate? {
        if let s = stay { line.move(to: s.figures.at) }
        guard counting, stay == nil, var l = leg, let last = lastSample, l.fromStop || l.id != nil || l.traveledM > 0,
            last.time > l.lastDeliveryTime || anchorPending
        else { return nil }
        l.traveledM += way(from: l.last, after: l.lastDeliveryTime, before: recent.count, to: last.at)
        l.last = last.at
        l.lastDeliveryTime = last.time
        anchorPending = false
        leg = l
        line.reach(last.at)
        return last.at
    }

    /// Ends the open trip or short move at the last fix (a gap, or `forceEnd`).
    mutating func end(at last: Sample) -> [TrackerEvent] {
        guard let l = leg, let id = l.id else {
            if stay != nil {
                stay!.figures.departure = last.time
                lastEndedStop = stay!.figures
            } else if let l = leg, l.fromStop || l.traveledM > 0 {
                endShortMove(
                    traveledM: l.traveledM
                        + way(from: l.last, after: l.lastDeliveryTime, before: recent.count, to: last.at),
                    at: last.at)
            }
            return []
        }
        // Also right after a departure (the anchor pending): the way from the stop counts.
        let traveled = l.traveledM + way(from: l.last, after: l.lastDeliveryTime, before: recent.count, to: last.at)
        line.reach(last.at)
        let f = TripFigures(
            id: id, start: l.departure, end: last.time, from: l.origin, to: last.at, traveledM: traveled,
            straightLineM: Geodesic.distance(l.origin, last.at),
            movingS: min(l.movingS, last.time - l.departure), maxSpeedMps: l.maxSpeed)
        tripsEnded += 1
        endedTraveledM += traveled
        leg = nil
        return [.tripEnd(f)]
    }
}
