/// The tracker and the geofences together: every fix goes through both, and every event gets
/// a sequence number that only grows. This is what replay and the daemon drive.
public struct TrackingSession: Sendable {
    /// Any event either part reports.
    public enum Event: Sendable {
        case tracker(TrackerEvent)
        case fence(FenceEvent)
        /// One determination of every fence, summarised (`fences_determined`).
        case fencesDetermined(FenceCounts)
    }

    /// An event and its sequence number.
    public struct Sequenced: Sendable {
        public var seq: UInt64
        public var event: Event
    }

    public internal(set) var tracker: Tracker
    /// Speed against the limits in force.
    public private(set) var overspeedMonitor = OverspeedMonitor()
    public private(set) var geofences: GeofenceMonitor?
    /// The last sequence number given out.
    public private(set) var seq: UInt64
    /// Whether a fix is held: false from the start and after `fix_lost`, true from
    /// `fix_acquired`.
    public private(set) var hasFix = false
    /// The device of the last accepted fix, for `fix_lost`.
    private var lastDevice: String?
    /// Fence events so far by name (`enter`, `exit`, `dwell`, `state`).
    public private(set) var fenceEventCounts: [String: Int] = [:]
    /// Drops the speeds gpsd derives from positions for receivers that report none.
    private var derivedSpeed = DerivedSpeed()
    /// The fences with a speed limit of their own, by index.
    private var speedLimited: [Int] = []
    /// The anchor watch (up until `dropAnchor`), its dense track, and the last accepted fixes
    /// the boat's position is averaged from (see TrackingSession+Anchor.swift).
    public internal(set) var anchor: AnchorWatch
    public internal(set) var anchorTrack = AnchorTrack()
    /// The last accepted positions, a ring: the oldest at `recentStart` once it is full (30
    /// fixes shifted down for every fix were a tenth of a replay's copying).
    var recentPositions: [Coordinate] = []
    var recentStart = 0
    /// The box's own inputs: ignition, external power and battery, the panic button.
    public internal(set) var inputs: InputMonitor

    /// A session; `firstSeq` carries the sequence on from a stored state.
    public init(config: TrackerConfig, fences: FenceIndex? = nil, firstSeq: UInt64 = 0) {
        tracker = Tracker(config: config)
        var anchorConfig = config.anchor
        anchorConfig.assumedErrorM = config.assumedErrorM
        anchor = AnchorWatch(config: anchorConfig)
        var inputConfig = config.inputs
        inputConfig.repeatS = config.guardRepeatS
        inputs = InputMonitor(config: inputConfig)
        geofences = fences.map { GeofenceMonitor(index: $0, config: config) }
        speedLimited = Self.speedLimited(fences)
        seq = firstSeq
    }

    /// Ingests one fix (one epoch).
    public mutating func ingest(_ reported: Fix) -> [Sequenced] {
        let fix = derivedSpeed.screen(reported)
        var out: [Sequenced] = []
        // Named in place: `.map(named)` made a closure of self, a copy of the whole session
        // (4 KiB) a fix.
        var trackerEvents = tracker.ingest(fix)
        for i in trackerEvents.indices { trackerEvents[i] = named(trackerEvents[i]) }
        if let e = fixChange(fix) { out.append(next(.tracker(e))) }
        if geofences != nil, let time = fix.time {
            // The monitor changes in place (through `!`): taking it out and putting it back
            // copied the whole struct twice a fix.
            var fenceEvents: [FenceEvent]
            var determination: FenceCounts?
            if case .accepted = tracker.lastOutcome {
                let jumped = trackerEvents.contains {
                    if case .discontinuity(_, _, false) = $0 { return true }
                    return false
                }
                fenceEvents = geofences!.update(with: fix, continuous: !jumped)
                determination = geofences!.determination
            } else {
                fenceEvents = geofences!.observe(time: time)
            }
            for e in trackerEvents { out.append(next(.tracker(e))) }
            for e in fenceEvents {
                fenceEventCounts[e.kind.name.rawValue, default: 0] += 1
                out.append(next(.fence(e)))
            }
            if let determination { out.append(next(.fencesDetermined(determination))) }
            for e in overspeed(fix) { out.append(next(.tracker(e))) }
            for e in anchorStep(fix) { out.append(next(.tracker(.anchor(e)))) }
            if let t = fix.time { out += tickInputs(now: t) }
            return out
        }
        for e in trackerEvents { out.append(next(.tracker(e))) }
        for e in overspeed(fix) { out.append(next(.tracker(e))) }
        for e in anchorStep(fix) { out.append(next(.tracker(.anchor(e)))) }
        if let t = fix.time { out += tickInputs(now: t) }
        return out
    }

    /// `fix_acquired` at an accepted fix after none; `fix_lost` when none was accepted for
    /// `stale_after_s` of fix time (the held fixes are then resolved into the figures).
    private mutating func fixChange(_ fix: Fix) -> TrackerEvent? {
        if case .accepted = tracker.lastOutcome {
            lastDevice = fix.device
            guard !hasFix else { return nil }
            hasFix = true
            return .fixAcquired(time: fix.time ?? 0, at: fix.coordinate, device: fix.device)
        }
        guard hasFix, let t = fix.time, let last = tracker.lastAccepted?.time, t - last > tracker.config.staleAfterS
        else { return nil }
        hasFix = false
        tracker.settle()
        return .fixLost(time: last, reason: .stale(seconds: t - last), device: lastDevice)
    }

    /// Overspeed against the lowest limit in force: the global one and those of the fences
    /// the receiver is inside.
    private mutating func overspeed(_ fix: Fix) -> [TrackerEvent] {
        guard case .accepted(let delivered, let hop) = tracker.lastOutcome else { return [] }
        var limit = tracker.config.speedLimitKmh
        // Only the fences with a limit (few, usually none): not all 10,000 on every fix; read
        // in place, as `if let` copied the monitor twice a fix.
        for i in speedLimited where geofences?.statuses[i].state == .inside {
            limit = min(limit ?? .infinity, geofences?.index.fences[i].speedLimitKmh ?? .infinity)
        }
        // One figure of the configuration, not the whole of it copied a fix.
        return overspeedMonitor.observe(
            fix, hop: delivered ? hop : nil, limitKmh: limit, minS: tracker.config.overspeedMinS)
    }

    /// Carries on from stored state: the trip, the fix counters, the sequence numbers and the
    /// fences' memberships.
    public mutating func restore(
        trip: Trip?, counters: FixCounters? = nil, seq stored: UInt64, fences: [String: FenceMemory],
        trips: String? = nil
    ) {
        if let trip { tracker.restore(trip: trip) }
        if let counters { tracker.restore(counters: counters) }
        if let trips { tracker.restore(trips: trips) }
        seq = max(seq, stored)
        if var monitor = geofences {
            geofences = nil
            monitor.restore(fences)
            geofences = monitor
        }
    }

    private static func speedLimited(_ index: FenceIndex?) -> [Int] {
        index?.fences.indices.filter { index!.fences[$0].speedLimitKmh != nil } ?? []
    }

    /// The fixes come from another receiver from now on (see `Tracker.switchReceiver()`).
    public mutating func switchReceiver() { tracker.switchReceiver() }

    /// The feed ended or the daemon stops: the held fixes are resolved into the figures.
    /// Returns the metres this added.
    @discardableResult
    public mutating func settle() -> Double { tracker.settle() }

    /// The fix is gone (gpsd lost, receiver removed): the held fixes are resolved into the
    /// figures and fences become `unknown`, then `fix_lost` if a fix was held. The time is the
    /// last fix time known.
    public mutating func fixLost(_ reason: FixLoss) -> [Sequenced] {
        tracker.settle()
        var out: [Sequenced] = []
        if var monitor = geofences, let time = tracker.lastAccepted?.time {
            geofences = nil
            let events = monitor.loseFix(at: time)
            geofences = monitor
            for e in events {
                fenceEventCounts[e.kind.name.rawValue, default: 0] += 1
                out.append(next(.fence(e)))
            }
        }
        if hasFix {
            hasFix = false
            out.append(next(.tracker(.fixLost(time: tracker.lastAccepted?.time, reason: reason, device: lastDevice))))
        }
        return out
    }

    /// Puts a reloaded set of fences in force; fences with unchanged ids keep what they knew.
    public mutating func replaceFences(_ index: FenceIndex?) {
        speedLimited = Self.speedLimited(index)
        guard let index else {
            geofences = nil
            return
        }
        geofences = GeofenceMonitor(index: index, config: tracker.config, carryingOver: geofences)
    }

    /// Starts counting anew: a new trip from the next accepted fix.
    public mutating func startTrip() -> [Sequenced] { tracker.startTrip().map { next(.tracker(named($0))) } }

    /// Freezes the trip's figures.
    public mutating func stopTrip() -> [Sequenced] { tracker.stopTrip().map { next(.tracker(named($0))) } }

    /// Turns the parked guard on or off.
    public mutating func setGuard(on: Bool) { tracker.setGuard(on: on) }

    /// Zeroes the trip's figures.
    public mutating func resetTrip() -> [Sequenced] { tracker.resetTrip().map { next(.tracker(named($0))) } }

    /// A trip's end gets the names of the fences its two ends lie in ("Home → Depot").
    func named(_ e: TrackerEvent) -> TrackerEvent {
        guard case .tripEnd(var f) = e else { return e }
        // The trip's engine seconds, with an ignition read.
        f.engineS = inputs.engineSeconds(from: f.start, to: f.end)
        guard let index = geofences?.index else { return .tripEnd(f) }
        f.fromFences = Self.fenceNames(at: f.from, in: index)
        f.toFences = Self.fenceNames(at: f.to, in: index)
        return .tripEnd(f)
    }

    /// Names (else ids) of the fences containing `p`, in file order.
    public static func fenceNames(at p: Coordinate, in index: FenceIndex) -> [String] {
        index.candidates(near: p, marginM: 1).sorted()
            .filter { index.signedDistance(fence: $0, point: p) >= 0 }
            .map { index.fences[$0].name ?? index.fences[$0].id }
    }

    mutating func next(_ event: Event) -> Sequenced {
        seq += 1
        return Sequenced(seq: seq, event: event)
    }
}
