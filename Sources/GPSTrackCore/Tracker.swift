/// The tracking state machine: fixes in, trip figures and events out. Pure: no I/O, no
/// clocks; all timing comes from the fixes.
public struct Tracker: Sendable {
    /// What happened to the last fix ingested.
    public enum Outcome: Sendable, Equatable {
        case none
        case rejected(RejectReason)
        /// Accepted; `hop` is the distance added when it was delivered to the odometer.
        case accepted(delivered: Bool, hop: Double)
    }

    public let config: TrackerConfig
    public private(set) var trip = Trip()
    public private(set) var counters = FixCounters()
    /// The last accepted fix, whether or not the trip runs.
    public private(set) var lastAccepted: Fix?
    public private(set) var lastOutcome: Outcome = .none
    private var screen: FixScreen
    private var motion: MotionFilter

    public init(config: TrackerConfig = TrackerConfig()) {
        self.config = config
        screen = FixScreen(config: config)
        motion = MotionFilter(config: config)
    }

    /// Ingests one fix (one epoch: merge gpsd's per-sentence TPVs with `EpochAssembler` first).
    public mutating func ingest(_ fix: Fix) -> [TrackerEvent] {
        counters.total += 1
        var reach: Double?
        switch screen.screen(fix) {
        case .rejected(let reason):
            counters.rejected[reason, default: 0] += 1
            lastOutcome = .rejected(reason)
            return []
        case .accepted:
            break
        case .discontinuity(let reachM):
            reach = reachM
        }
        counters.accepted += 1
        lastAccepted = fix
        let time = fix.time ?? 0
        var events: [TrackerEvent] = []
        guard trip.state == .running else {
            lastOutcome = .accepted(delivered: false, hop: 0)
            return events
        }
        if trip.start == nil {
            trip.start = fix.coordinate
            trip.startedAt = time
            events.append(.tripStart(time: time, at: fix.coordinate))
        }
        if let reach {
            // The clock stepped or the old reference was wrong. A hop the receiver could have
            // made over the run counts as usual; a longer one is not counted as travel.
            let counted = motion.lastDelivered.map { Geodesic.distance($0, fix.coordinate) <= reach } ?? true
            if !counted { motion.reset() }
            events.append(.discontinuity(time: time, at: fix.coordinate, counted: counted))
        }
        trip.lastFix = fix
        guard let hop = motion.offer(fix) else {
            lastOutcome = .accepted(delivered: false, hop: 0)
            return events
        }
        counters.delivered += 1
        trip.deliveredCount += 1
        trip.traveledM += hop
        trip.lastDelivered = fix.coordinate
        trip.lastDeliveredTime = time
        if let start = trip.start {
            trip.straightLineM = Geodesic.distance(start, fix.coordinate)
        }
        lastOutcome = .accepted(delivered: true, hop: hop)
        return events
    }

    /// Carries on with a stored trip: the odometer goes on from its last delivered position.
    public mutating func restore(trip stored: Trip) {
        trip = stored
        motion.restore(lastDelivered: stored.lastDelivered)
    }

    /// Starts counting: resets the trip, which begins at the next accepted fix.
    public mutating func startTrip() -> [TrackerEvent] {
        trip = Trip()
        motion.reset()
        return []
    }

    /// Stops counting: the trip's figures are frozen until the next start.
    public mutating func stopTrip() -> [TrackerEvent] {
        guard trip.state == .running else { return [] }
        trip.state = .stopped
        return [.tripStop(time: lastAccepted?.time, traveledM: trip.traveledM)]
    }

    /// Zeroes the trip's figures, keeping its state; a running trip begins again at the next
    /// accepted fix.
    public mutating func resetTrip() {
        let state = trip.state
        trip = Trip()
        trip.state = state
        motion.reset()
    }
}
