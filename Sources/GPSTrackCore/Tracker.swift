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
    /// Stops and trips (`trip_mode = auto`).
    public private(set) var trips: TripDetector
    /// The parked guard (`trip_mode = auto` only: it arms at stops).
    public private(set) var parkedGuard: ParkedGuard
    /// The next accepted fix comes from another receiver (`switchReceiver()`).
    private var switched = false
    /// At anchor (`setAnchored`): accepted fixes are counted, never traveled distance or trips.
    public private(set) var anchored = false
    /// The anchor was raised: the next delivered fix begins a new stretch of the straight line.
    private var rejoin = false

    public init(config: TrackerConfig = TrackerConfig()) {
        self.config = config
        screen = FixScreen(config: config)
        motion = MotionFilter(config: config)
        trips = TripDetector(config: config)
        parkedGuard = ParkedGuard(enabled: config.guardOn)
    }

    /// Ingests one fix (one epoch: merge gpsd's per-sentence TPVs with `EpochAssembler` first).
    public mutating func ingest(_ fix: Fix) -> [TrackerEvent] {
        defer { counters.account(trip) }
        return screened(fix)
    }

    private mutating func screened(_ fix: Fix) -> [TrackerEvent] {
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
        guard trip.state == .running, !anchored else {
            lastOutcome = .accepted(delivered: false, hop: 0)
            return events
        }
        if trip.startedAt == nil {
            trip.startedAt = time
            trip.line.begin(at: fix.coordinate)
            if config.tripMode == .manual { events.append(.tripStart(trip: nil, time: time, at: fix.coordinate)) }
        }
        var jumped = false
        if rejoin {
            // The swing at anchor was no travel: the way goes on from where the boat is now.
            rejoin = false
            trip.line.jump(to: fix.coordinate)
        }
        if switched {
            // Another receiver: its offset from the last one is no travel (see switchReceiver).
            switched = false
            if reach == nil, motion.lastDelivered != nil {
                motion.reset()
                jumped = true
                trip.line.jump(to: fix.coordinate)
                events.append(.discontinuity(time: time, at: fix.coordinate, counted: false))
            }
        }
        if let reach {
            // The clock stepped or the old reference was wrong. A hop the receiver could have
            // made over the run counts as usual; a longer one is not counted as travel.
            let counted = motion.lastDelivered.map { Geodesic.distance($0, fix.coordinate) <= reach } ?? true
            if !counted {
                motion.reset()
                jumped = true
                trip.line.jump(to: fix.coordinate)
            }
            events.append(.discontinuity(time: time, at: fix.coordinate, counted: counted))
        }
        trip.lastFix = fix
        let offered = motion.offer(fix)
        if config.tripMode == .auto {
            let tripEvents = trips.ingest(fix, hop: offered, jumped: jumped)
            events += tripEvents
            events += parkedGuard.observe(fix, stop: trips.currentStop, config: config)
            trip.traveledM = trips.traveledM
            trip.follow(trips.line)
        }
        guard let hop = offered else {
            lastOutcome = .accepted(delivered: false, hop: 0)
            return events
        }
        counters.delivered += 1
        trip.deliveredCount += 1
        if config.tripMode == .manual {
            trip.traveledM += hop
            trip.line.reach(fix.coordinate)
            trip.follow(trip.line)
        }
        trip.lastDelivered = fix.coordinate
        trip.lastDeliveredTime = time
        lastOutcome = .accepted(delivered: true, hop: hop)
        return events
    }

    /// The feed ended, the daemon stops or the fix was lost: the fixes held back since the
    /// odometer's last delivery are resolved into the figures (in `auto` mode the way an open
    /// trip's end is; see `TripDetector.settle()` and `MotionFilter.settle(moved:)`), so that
    /// the figures end where the receiver was. Returns the metres added.
    @discardableResult
    public mutating func settle() -> Double {
        defer { counters.account(trip) }
        guard trip.state == .running, let last = trip.lastFix else { return 0 }
        let before = trip.traveledM
        if config.tripMode == .auto {
            let settled = trips.settle(counting: !motion.heldWayDisowned)
            // At a stop the line ends at its settled place, whether or not anything was counted.
            trip.follow(trips.line)
            guard settled != nil else { return 0 }
            motion.deliverLast()
            trip.traveledM = trips.traveledM
            trip.follow(trips.line)
        } else {
            guard let way = motion.settle(moved: trip.traveledM > 0) else { return 0 }
            trip.traveledM += way
            trip.line.reach(last.coordinate)
            trip.follow(trip.line)
        }
        trip.deliveredCount += 1
        trip.lastDelivered = last.coordinate
        trip.lastDeliveredTime = last.time
        return trip.traveledM - before
    }

    /// The fixes come from another receiver from now on (a failover): what the odometer held
    /// is settled, and the next accepted fix starts it afresh where that receiver puts it
    /// (an uncounted `discontinuity`): the receivers' offset from each other is no travel, and
    /// the straight line ends a stretch there as at any uncounted jump.
    public mutating func switchReceiver() {
        settle()
        screen.clearReference()
        switched = true
    }

    /// Carries on with a stored trip: the odometer goes on from its last delivered position.
    public mutating func restore(trip stored: Trip) {
        trip = stored
        motion.restore(lastDelivered: stored.lastDelivered)
    }

    /// Carries on with stored counters: a restart does not count the fixes from zero again.
    public mutating func restore(counters stored: FixCounters) {
        counters = stored
        // The trip restored beside them is what the odometer had counted already.
        _ = counters.odometerGrowth.change(trip)
    }

    /// Carries on with stored trips and stops (`TripDetector.encodedState()`); false when the
    /// text is not usable (the detector then starts afresh, keeping nothing).
    @discardableResult
    public mutating func restore(trips state: String) -> Bool {
        guard var detector = TripDetector(config: config, state: state) else { return false }
        // A state from before the straight line was kept: carry on the stored trip's.
        // (A line test, not String.contains: that one is _StringProcessing's.)
        if !state.split(separator: "\n").dropFirst().contains(where: { $0.hasPrefix("line=") }) {
            detector.line = trip.line
        }
        trips = detector
        if config.tripMode == .auto { trip.follow(trips.line) }
        if let g = ParkedGuard(state: state) { parkedGuard = g }
        return true
    }

    /// At anchor or not. Dropping it settles what the odometer held and, in `auto` mode, ends
    /// an open trip at its last fix (the voyage is over); while anchored no fix is traveled
    /// distance and no trip starts; raising it starts the odometer afresh at the next fix.
    public mutating func setAnchored(_ on: Bool) -> [TrackerEvent] {
        guard on != anchored else { return [] }
        var events: [TrackerEvent] = []
        if on {
            settle()
            if config.tripMode == .auto { events = trips.forceEnd() }
        } else {
            rejoin = true
        }
        motion.reset()
        anchored = on
        return events
    }

    /// The ignition's part in the trips (`trip_source`): whether a movement may become a trip
    /// now, and, at ignition off, the open trip ended at its last fix.
    mutating func ignition(_ on: Bool, endingTrip: Bool, at time: Double) -> [TrackerEvent] {
        guard config.tripMode == .auto else { return [] }
        var ended: [TrackerEvent] = []
        switch config.tripSource {
        case .gps: break
        case .ignition, .both:
            // Read now: `both` lets GPS start a trip only while the line is unread.
            trips.tripsAllowed = on
            if endingTrip, !on, trips.openTrip != nil {
                settle()
                ended = trips.forceEnd()
            }
        }
        // Then the guard, armed where the ignition went off, whatever makes the trips.
        return ended + parkedGuard.ignition(on: on, time: time, at: lastAccepted?.coordinate, config: config)
    }

    /// Carries on at anchor after a restart: the stored figures already ended the voyage.
    public mutating func restoreAnchored() {
        anchored = true
        motion.reset()
    }

    /// Acknowledges the guard's latched breach (none: no event).
    public mutating func acknowledgeGuard(time: Double) -> [TrackerEvent] { parkedGuard.acknowledge(time: time) }

    /// The time passing without fixes: the latched breach said again when due, and the
    /// armed guard's no-position alarm.
    public mutating func tickGuard(now: Double) -> [TrackerEvent] {
        parkedGuard.repeats(now: now, config: config)
            + parkedGuard.noPosition(now: now, lastFix: lastAccepted?.time, config: config)
    }

    /// Turns the parked guard on or off.
    public mutating func setGuard(on: Bool) { parkedGuard.set(enabled: on) }

    /// The trip detector's and the guard's state, to store.
    public var motionState: String { trips.encodedState() + "\n" + parkedGuard.encodedState }

    /// Starts counting: resets the trip, which begins at the next accepted fix. In `auto`
    /// mode an open trip ends here (a forced boundary).
    public mutating func startTrip() -> [TrackerEvent] {
        let events = trips.forceEnd()
        trip = Trip()
        motion.reset()
        trips = TripDetector(config: config, nextTripID: trips.nextTripID)
        return events
    }

    /// Stops counting: the trip's figures are frozen until the next start. In `auto` mode an
    /// open trip ends at the last fix.
    public mutating func stopTrip() -> [TrackerEvent] {
        guard trip.state == .running else { return [] }
        let events = trips.forceEnd()
        trip.state = .stopped
        return events + [.tripStop(time: lastAccepted?.time, traveledM: trip.traveledM)]
    }

    /// Zeroes the trip's figures, keeping its state; a running trip begins again at the next
    /// accepted fix. In `auto` mode an open trip ends first.
    public mutating func resetTrip() -> [TrackerEvent] {
        let events = trips.forceEnd()
        let state = trip.state
        trip = Trip()
        trip.state = state
        motion.reset()
        trips = TripDetector(config: config, nextTripID: trips.nextTripID)
        return events
    }
}
