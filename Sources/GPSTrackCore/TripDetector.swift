/// `trip_mode = auto`: splits the accepted fixes into stops and trips, by fix time alone.
///
/// - A *stop* begins when the fixes stay within `stopRadiusM` of their running mean for
///   `min_stop_s`. Its arrival is backdated to the first fix at which the receiver was still
///   (the fixes of the next `stillWindowS` kept within `stillRadiusM` of it; positions, not the
///   reported speed, which gpsd derives from jittering positions for receivers that report
///   none), and its place is where it *settled*: the median of its fixes from the arrival on.
/// - The stop ends when `departRun` consecutive fixes lie beyond `stopRadiusM` of the settled
///   place; the departure is backdated the same way, to the last fix at which it was still.
/// - The movement in between is measured from the settled place of one stop to the settled
///   place of the next with the drift-free odometer's deliveries, and becomes a trip (and is
///   becomes a trip once it reaches `min_trip_distance_m` and `min_trip_s`. A movement too short
///   to be a trip is still traveled distance (a *short move*, counted the same way); the
///   wander at a stop is not, nor that of a receiver that stood still from its first fix.
/// - A gap of more than `max_gap_s` without an accepted fix ends a trip at its last fix.
public struct TripDetector: Sendable {
    public enum Motion: String, Sendable { case unknown, moving, stopped }

    /// Fixes must stay within this of their mean to make a stop, and leave it to end one.
    public static let stopRadiusM = 50.0
    /// Consecutive fixes beyond the radius that end a stop (one outlier does not).
    public static let departRun = 3
    /// Without a speed, "still" means the fixes of this window kept within this radius.
    static let stillWindowS = 20.0
    static let stillRadiusM = 12.0

    struct Sample: Sendable {
        var time: Double
        var at: Coordinate
        var speed: Double
    }

    /// The movement since the last stop; a trip once `id` is set.
    struct Leg: Sendable {
        var departure: Double
        var origin: Coordinate
        var last: Coordinate
        var traveledM = 0.0
        var movingS = 0.0
        var maxSpeed = 0.0
        var lastDeliveryTime: Double
        var id: Int?
        var fromStop: Bool
        /// Index (absolute) of the leg's first fix.
        var startIndex = 0
    }

    public let config: TrackerConfig
    /// The next trip's id.
    public internal(set) var nextTripID: Int
    /// Trips ended, and their traveled distance in all.
    public internal(set) var tripsEnded = 0
    public internal(set) var endedTraveledM = 0.0
    /// Short moves ended (movements that did not make a trip), and their distance in all.
    public internal(set) var shortMoves = 0
    public internal(set) var movedM = 0.0
    /// The straight line of the way counted (from where the receiver first stood or moved).
    public internal(set) var line = StraightLine()
    var leg: Leg?
    var cluster: Cluster?
    var stay: Stay?
    var anchorPending = false
    var recent: [Sample] = []
    var recentBase = 0
    /// How many of `recent`'s first samples the last trim found older than `expiredBefore`:
    /// the next trim goes on from there, not from the first (emptied with `recent`).
    var expiredCount = 0
    var expiredBefore = -Double.infinity
    var lastSample: Sample?
    public var tripsAllowed = true  // `trip_source`: whether the ignition lets a movement be a trip
    /// The last stop the receiver left (or that a gap or `stop` ended).
    public internal(set) var lastEndedStop: StopFigures?

    public init(config: TrackerConfig, nextTripID: Int = 1) {
        self.config = config
        self.nextTripID = nextTripID
    }

    /// Whether the receiver moves, stands, or is not known to do either; and since when.
    public var motion: (Motion, since: Double?) {
        if let stay { return (.stopped, stay.figures.arrival) }
        if let leg, leg.fromStop || leg.id != nil { return (.moving, leg.departure) }
        return (.unknown, nil)
    }

    /// The open trip: id, departure, origin and distance so far.
    public var openTrip: (id: Int, start: Double, from: Coordinate, traveledM: Double)? {
        guard let leg, let id = leg.id else { return nil }
        return (id, leg.departure, leg.origin, leg.traveledM)
    }

    /// The stop the receiver is at, if it is at one.
    public var currentStop: StopFigures? { stay?.figures }

    /// The odometer: every trip's and short move's distance, the open one's included.
    public var traveledM: Double { endedTraveledM + movedM + (leg?.traveledM ?? 0) }

    /// Trips ended plus the open one.
    public var tripCount: Int { tripsEnded + (leg?.id != nil ? 1 : 0) }

    /// Takes one accepted fix. `hop` is the odometer's hop when it delivered the fix; `jumped`
    /// tells that the odometer started afresh at it (an uncounted discontinuity).
    public mutating func ingest(_ fix: Fix, hop: Double?, jumped: Bool) -> [TrackerEvent] {
        guard let t = fix.time else { return [] }
        var events: [TrackerEvent] = []
        if let last = lastSample, t - last.time > config.maxGapS {
            events += end(at: last)
            leg = nil
            stay = nil
            cluster = nil
            recent = []
            expiredCount = 0
            // The way across the gap is not known: the straight line goes on in a new stretch.
            line.close()
        }
        let sample = Sample(time: t, at: fix.coordinate, speed: fix.speed)
        recent.append(sample)
        trimRecent(before: t - config.minStopS - 120)
        var hop = hop
        if stay != nil {
            step(stay: sample, fix: fix, hop: hop)
            // A departure at a delivered fix has counted the way to it from the settled place.
            if stay == nil { hop = nil }
        }
        if stay == nil {
            if leg == nil {
                leg = Leg(
                    departure: t, origin: sample.at, last: sample.at, lastDeliveryTime: t, fromStop: false,
                    startIndex: recentBase + recent.count - 1)
                cluster = nil
                anchorPending = false
                line.begin(at: sample.at)
            }
            events += step(leg: sample, fix: fix, hop: hop, jumped: jumped)
        }
        lastSample = sample
        return events
    }

    /// Ends the open trip now, at the last fix (`gpstrackctl stop`, or the end of a gap), and
    /// forgets the stop: what comes next starts afresh.
    public mutating func forceEnd() -> [TrackerEvent] {
        var events: [TrackerEvent] = []
        if let last = lastSample { events = end(at: last) }
        leg = nil
        stay = nil
        cluster = nil
        recent = []
        expiredCount = 0
        lastSample = nil
        line.close()
        return events
    }

    private mutating func step(stay sample: Sample, fix: Fix, hop: Double?) {
        guard var s = stay else { return }
        let away = Self.farther(s.figures.at, sample.at, than: Self.stopRadiusM)
        if away {
            if s.awayRun == 0 { s.firstAwayIndex = recentBase + recent.count - 1 }
            s.awayRun += 1
        } else {
            s.awayRun = 0
            s.lastIn = sample.time
            s.add(sample.at)
        }
        guard s.awayRun >= Self.departRun else {
            stay = s
            return
        }
        let departure = departureTime(before: s.firstAwayIndex) ?? s.lastIn
        s.figures.departure = departure
        lastEndedStop = s.figures
        stay = nil
        // The stop's place may have been re-estimated since the arrival was counted: that is
        // no travel, and the straight line does not count it either.
        line.move(to: s.figures.at)
        var l = Leg(
            departure: departure, origin: s.figures.at, last: s.figures.at, lastDeliveryTime: departure, fromStop: true,
            startIndex: recentBase + recent.count - 1)
        // Measured from the settled place: the odometer's own reference may be a wander fix.
        anchorPending = true
        if hop != nil {
            l.traveledM = way(from: l.origin, after: departure, before: recent.count - 1, to: sample.at)
            l.last = sample.at
            l.lastDeliveryTime = sample.time
            anchorPending = false
        }
        leg = l
        cluster = nil
        // The fixes since the departure count towards the new leg's moving time and top speed.
        for k in max(0, s.firstAwayIndex - recentBase)..<recent.count where recent[k].speed.isFinite {
            leg!.maxSpeed = max(leg!.maxSpeed, recent[k].speed)
        }
        leg!.movingS = sample.time - departure
    }

    private mutating func step(leg sample: Sample, fix: Fix, hop: Double?, jumped: Bool) -> [TrackerEvent] {
        guard var l = leg else { return [] }
        var events: [TrackerEvent] = []
        let t = sample.time
        if fix.speed.isFinite {
            l.maxSpeed = max(l.maxSpeed, fix.speed)
            if fix.speed >= config.stationarySpeedMps, let last = lastSample, last.time >= l.departure {
                l.movingS += t - last.time
            }
        }
        if let c = cluster, !Self.farther(c.mean, sample.at, than: Self.stopRadiusM) {
            cluster!.add(sample.at)
        } else {
            let index = recentBase + recent.count - 1
            if let c = cluster, c.firstIndex == l.startIndex, !l.fromStop, l.id == nil, index > c.firstIndex + 1,
                let departure = departureTime(before: index), departure > l.departure
            {
                // The receiver stood still from the first fix (the log began at a short stop):
                // the leg leaves from where it stood, when it began to move.
                let first = max(0, c.firstIndex - recentBase)
                let lastStill = recent.count - 2
                let origin = Self.median(recent[first...lastStill].map(\.at))
                l = Leg(
                    departure: departure, origin: origin, last: origin, lastDeliveryTime: departure, fromStop: true,
                    startIndex: index)
                anchorPending = true
                // The stretch began with this leg: it begins where the receiver stood.
                line.restart(at: origin, dropping: true)
                if let speed = recent.last?.speed, speed.isFinite { l.maxSpeed = speed }
            }
            var c = Cluster(firstIndex: index, firstTime: t, origin: sample.at, legAtStart: l)
            c.add(sample.at)
            cluster = c
        }
        if let hop {
            if jumped {
                l.last = sample.at
                anchorPending = false
                line.jump(to: sample.at)
            } else {
                let add =
                    anchorPending
                    ? way(from: l.last, after: l.lastDeliveryTime, before: recent.count - 1, to: sample.at) : hop
                anchorPending = false
                l.traveledM += add
                if !fix.speed.isFinite, t > l.lastDeliveryTime {
                    let v = add / (t - l.lastDeliveryTime)
                    l.maxSpeed = max(l.maxSpeed, v)
                    if v >= config.stationarySpeedMps { l.movingS += t - l.lastDeliveryTime }
                }
                l.last = sample.at
                line.reach(sample.at)
            }
            l.lastDeliveryTime = t
        }
        if l.id == nil, tripsAllowed, l.traveledM >= config.minTripDistanceM, t - l.departure >= config.minTripS {
            l.id = nextTripID
            nextTripID += 1
            events.append(.tripStart(trip: l.id, time: l.departure, at: l.origin))
        }
        leg = l
        guard let c = cluster, t - c.firstTime >= config.minStopS else { return events }
        // A stop: the leg ends where the receiver settled.
        let first = max(0, c.firstIndex - recentBase)
        let arrivalIndex = arrival(from: first)
        let settled = Self.median(recent[arrivalIndex...].map(\.at))
        let arrivalTime = recent[arrivalIndex].time
        let before = c.legAtStart
        if let id = l.id {
            let traveled =
                before.traveledM
                + way(from: before.last, after: before.lastDeliveryTime, before: arrivalIndex, to: settled)
            let f = TripFigures(
                id: id, start: l.departure, end: arrivalTime, from: l.origin, to: settled, traveledM: traveled,
                straightLineM: Geodesic.distance(l.origin, settled),
                movingS: min(l.movingS, arrivalTime - l.departure), maxSpeedMps: l.maxSpeed)
            tripsEnded += 1
            endedTraveledM += traveled
            line.reach(settled)
            events.append(.tripEnd(f))
        } else if !l.fromStop, l.traveledM == 0, c.firstIndex <= l.startIndex {
            // It stood there from its first fix: nothing moved, the way begins here.
            line.restart(at: settled, dropping: false)
        } else {
            endShortMove(
                traveledM: before.traveledM
                    + way(from: before.last, after: before.lastDeliveryTime, before: arrivalIndex, to: settled),
                at: settled)
        }
        var s = Stay(
            figures: StopFigures(arrival: arrivalTime, departure: nil, at: settled, afterTrip: l.id),
            samples: [], lastIn: t)
        for k in arrivalIndex..<recent.count { s.add(recent[k].at) }
        s.figures.at = settled
        stay = s
        leg = nil
        cluster = nil
        return events
    }

    private mutating func trimRecent(before t: Double) {
        // Older than an earlier bound is older than a later one: only the rest is looked at.
        var expired = t >= expiredBefore ? min(expiredCount, max(0, recent.count - 1)) : 0
        while expired < recent.count - 1, recent[expired].time < t { expired += 1 }
        expiredCount = expired
        expiredBefore = t
        // Never drop what an unconfirmed cluster still needs.
        var drop = expired
        if let c = cluster { drop = min(drop, max(0, c.firstIndex - recentBase)) }
        guard drop >= 256 || (drop > 0 && drop * 2 >= recent.count) else { return }
        recent.removeFirst(drop)
        recentBase += drop
        expiredCount -= drop
    }
}
