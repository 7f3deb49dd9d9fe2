#if canImport(Glibc)
import Glibc
#endif

/// The anchor watch in the session: accepted fixes feed it while anchored (and its dense
/// track), the control commands drop, raise and acknowledge it, and its events are sequenced
/// like every other tracker event. At anchor the tracker counts no traveled distance and
/// starts no trip (`Tracker.setAnchored`).
extension TrackingSession {
    /// Accepted fixes the boat's position at a drop is averaged from (about half a minute).
    public static let averagedFixes = 30

    /// Where the boat is: the mean of the last accepted fixes (nil before any).
    public var averagedPosition: Coordinate? {
        Self.mean(Array(recentPositions[recentStart...] + recentPositions[..<recentStart]))
    }

    /// The anchor watch's part of one ingested fix: an accepted one is judged (and kept in the
    /// track); one that is not tells only that time passes.
    mutating func anchorStep(_ fix: Fix) -> [AnchorEvent] {
        guard case .accepted = tracker.lastOutcome, let t = fix.time else {
            // A report without a usable position still carries the receiver's time.
            guard let t = fix.time, let last = anchor.state?.lastFixTime ?? anchor.state?.droppedAt, t > last
            else { return [] }
            return anchor.tick(now: t)
        }
        if recentPositions.count < Self.averagedFixes {
            recentPositions.append(fix.coordinate)
        } else {
            recentPositions[recentStart] = fix.coordinate
            recentStart = (recentStart + 1) % Self.averagedFixes
        }
        guard anchor.state != nil else { return [] }
        anchorTrack.append(
            AnchorTrack.Point(time: t, at: fix.coordinate, errorM: fix.horizontalError, mode: fix.mode))
        return anchor.ingest(at: fix.coordinate, errorM: fix.horizontalError, time: t)
    }

    /// Drops the anchor at `at` with `radiusM` at fix time `time`: an open automatic trip ends
    /// first (its `trip_end` comes before `anchor_dropped`).
    public mutating func dropAnchor(at: Coordinate, radiusM: Double, time: Double) -> [Sequenced] {
        let ended = tracker.setAnchored(true).map { next(.tracker($0)) }
        anchorTrack.clear()
        return ended + anchor.drop(at: at, radiusM: radiusM, time: time).map { next(.tracker(.anchor($0))) }
    }

    /// Raises the anchor: the watch ends and the odometer goes on from the next fix.
    public mutating func raiseAnchor(time: Double) -> [Sequenced] {
        let events = anchor.raise(time: time)
        _ = tracker.setAnchored(false)
        return events.map { next(.tracker(.anchor($0))) }
    }

    /// Acknowledges the latched alarms (none: no event).
    public mutating func acknowledgeAnchor(time: Double) -> [Sequenced] {
        anchor.acknowledge(time: time).map { next(.tracker(.anchor($0))) }
    }

    /// The time passing without fixes, `now` on the fixes' time scale (the last fix's time plus
    /// the time since it arrived): the no-position alarm and the repeats of latched alarms.
    public mutating func tickAnchor(now: Double) -> [Sequenced] {
        anchor.tick(now: now).map { next(.tracker(.anchor($0))) }
    }

    /// Acknowledges the parked guard's latched breach (none: no event).
    public mutating func acknowledgeGuard(time: Double) -> [Sequenced] {
        var events = tracker.acknowledgeGuard(time: time)
        // The power lost while armed is the guard's alarm too: one `guard_ack` for both.
        if inputs.acknowledgePowerAlarm(), events.isEmpty { events = [.guardAck(time: time)] }
        return events.map { next(.tracker($0)) }
    }

    /// The time passing without fixes for the guard's latched breach (see `tickAnchor`).
    public mutating func tickGuard(now: Double) -> [Sequenced] {
        tracker.tickGuard(now: now).map { next(.tracker($0)) }
    }

    /// Carries on with a stored anchor state: anchored again, alarms latched as they were.
    public mutating func restore(anchor state: AnchorWatch.State?) {
        guard let state else { return }
        anchor = AnchorWatch(config: anchor.config, state: state)
        tracker.restoreAnchored()
    }

    /// The mean of nearby points, through their unit vectors (right across the antimeridian).
    static func mean(_ points: [Coordinate]) -> Coordinate? {
        guard !points.isEmpty else { return nil }
        var (x, y, z) = (0.0, 0.0, 0.0)
        for p in points {
            let lat = p.latitude * .pi / 180
            let lon = p.longitude * .pi / 180
            x += cos(lat) * cos(lon)
            y += cos(lat) * sin(lon)
            z += sin(lat)
        }
        let lon = atan2(y, x) * 180 / .pi
        let lat = atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi
        return Coordinate(latitude: lat, longitude: lon)
    }
}
