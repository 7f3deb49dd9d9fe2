/// The anchor watch's tunables (configuration keys `anchor_*`).
public struct AnchorConfig: Sendable, Equatable {
    /// A warning once the boat is beyond this share of the radius (`anchor_warning_share`).
    public var warningShare = 0.8
    /// The vote needs at least this many fixes in its window (`anchor_grace_fixes`)...
    public var graceFixes = 5
    /// ...of the last this many seconds (`anchor_grace_s`): see `DragVote`.
    public var graceS = 10.0
    /// No accepted fix for this long while anchored raises `anchor_no_position`
    /// (`anchor_no_position_s`).
    public var noPositionS = 60.0
    /// A latched alarm is said again this often until acknowledged (`anchor_repeat_s`).
    public var repeatS = 120.0
    /// After an acknowledgement the alarm is raised again when the boat has gone on this much
    /// farther (`anchor_redrag_m`).
    public var redragM = 20.0
    /// The bow's height above the water, for a radius from rode and depth (`anchor_bow_height_m`).
    public var bowHeightM = 1.0
    /// Added to the horizontal scope for a derived radius (`anchor_margin_m`).
    public var marginM = 15.0
    /// The error assumed for a fix without an estimate, metres.
    public var assumedErrorM = 15.0

    public init() {}

    /// The radius for a rode of `rodeM` in `depthM` of water: the horizontal scope (the rode's
    /// run from the bow's height to the bottom) plus the margin; nil when the rode is too short
    /// to reach the bottom.
    public func radius(rodeM: Double, depthM: Double) -> Double? {
        let drop = depthM + bowHeightM
        guard rodeM.isFinite, depthM.isFinite, depthM >= 0, rodeM > drop else { return nil }
        return (rodeM * rodeM - drop * drop).squareRoot() + marginM
    }
}

/// What the anchor watch decided: each event carries the fix time it was decided at.
public enum AnchorEvent: Sendable, Equatable {
    case dropped(time: Double, anchor: Coordinate, radiusM: Double)
    /// The boat beyond the warning share of the radius (not latched: said once an excursion).
    case warning(time: Double, at: Coordinate, distanceM: Double)
    /// Dragging: three quarters of the last `graceS` of fixes beyond the radius. `repeat` 0 is
    /// the raise, then 1, 2... every `repeatS` until acknowledged.
    case alarm(time: Double, at: Coordinate, distanceM: Double, repeat: Int)
    /// No accepted fix for `silentS` while anchored; repeated like the alarm.
    case noPosition(time: Double, silentS: Double, repeat: Int)
    case acknowledged(time: Double)
    case raised(time: Double, maxDistanceM: Double)
}

/// The anchor watch, a pure state machine: dropped at a point with a radius, fed accepted
/// fixes (and the time while none come), it warns, raises a latched drag alarm or a
/// no-position alarm, and repeats them until acknowledged. Distances are geodesics.
public struct AnchorWatch: Sendable, Equatable {
    /// The watch's state, all of it: what a restart must find again.
    public struct State: Sendable, Equatable {
        public var anchor: Coordinate
        public var radiusM: Double
        public var droppedAt: Double
        public var maxDistanceM = 0.0
        public var maxAt: Double?
        /// The latched alarms, each until acknowledged.
        public var drag: Alarm?
        public var noPosition: Alarm?
        /// The distance at the last acknowledgement of a drag alarm: the alarm is raised again
        /// past it plus `redragM`.
        public var ackedDistanceM: Double?
        public var warned = false
        public var lastFixTime: Double?
        public var lastDistanceM: Double?
        public var lastBearing: Double?

        public init(anchor: Coordinate, radiusM: Double, droppedAt: Double) {
            self.anchor = anchor
            self.radiusM = radiusM
            self.droppedAt = droppedAt
        }

        /// `ok`, `warning`, `alarm` (an unacknowledged one), `acknowledged`.
        public var alarmState: String {
            let alarms = [drag, noPosition].compactMap { $0 }
            if alarms.contains(where: { !$0.acknowledged }) { return "alarm" }
            if !alarms.isEmpty { return "acknowledged" }
            return warned ? "warning" : "ok"
        }
    }

    /// The drag and no-position alarms follow the one rule of latched alarms.
    public typealias Alarm = LatchedAlarm

    public var config: AnchorConfig
    /// Nil while the anchor is up.
    public private(set) var state: State?
    /// The last `graceS` of fixes' distances (not stored: a restart refills it in seconds).
    private var vote = DragVote()

    public init(config: AnchorConfig = AnchorConfig(), state: State? = nil) {
        self.config = config
        self.state = state
    }

    public static func == (a: AnchorWatch, b: AnchorWatch) -> Bool { a.config == b.config && a.state == b.state }

    /// Drops the anchor at `anchor` with `radiusM`; a dropped one is replaced.
    public mutating func drop(at anchor: Coordinate, radiusM: Double, time: Double) -> [AnchorEvent] {
        state = State(anchor: anchor, radiusM: radiusM, droppedAt: time)
        vote = DragVote()
        return [.dropped(time: time, anchor: anchor, radiusM: radiusM)]
    }

    /// Raises the anchor: the watch ends, alarms with it.
    public mutating func raise(time: Double) -> [AnchorEvent] {
        guard let s = state else { return [] }
        state = nil
        vote = DragVote()
        return [.raised(time: time, maxDistanceM: s.maxDistanceM)]
    }

    /// Acknowledges the latched alarms: they stop repeating; the drag alarm is raised again if
    /// the boat goes on dragging. Nothing happens without an unacknowledged alarm.
    public mutating func acknowledge(time: Double) -> [AnchorEvent] {
        guard var s = state else { return [] }
        let drag = s.drag?.acknowledge() ?? false
        if drag { s.ackedDistanceM = s.lastDistanceM ?? s.maxDistanceM }
        let silence = s.noPosition?.acknowledge() ?? false
        state = s
        return drag || silence ? [.acknowledged(time: time)] : []
    }

    /// Takes an accepted fix at `at` with its error estimate `errorM` at fix time `time`.
    public mutating func ingest(at: Coordinate, errorM: Double?, time: Double) -> [AnchorEvent] {
        guard var s = state else { return [] }
        var events: [AnchorEvent] = []
        let inverse = Geodesic.inverse(s.anchor, at)
        let d = inverse.distance
        let error = errorM ?? config.assumedErrorM
        s.lastFixTime = time
        s.lastDistanceM = d
        s.lastBearing = inverse.azimuth1
        if d > s.maxDistanceM {
            s.maxDistanceM = d
            s.maxAt = time
        }

        // Dragging: three quarters of the last `graceS` of fixes beyond the radius (after an
        // acknowledgement, beyond the distance then plus the step); see `DragVote` for why.
        vote.add(time: time, distanceM: d, errorM: error, window: config.graceS)
        let limit = s.ackedDistanceM.map { max($0 + config.redragM, s.radiusM) } ?? s.radiusM
        let enough = vote.count >= config.graceFixes
        if s.drag?.acknowledged != false, enough, vote.share(beyond: limit) >= DragVote.quorum {
            s.drag = Alarm(raisedAt: time)
            s.ackedDistanceM = nil
            events.append(.alarm(time: time, at: at, distanceM: d, repeat: 0))
        }

        // The warning, at the warning share: every fix of the window beyond it (a stricter vote
        // than the alarm's, so that a poor receiver's wander in the swing does not warn); once
        // an excursion, which ends when three quarters of the window are back inside the share.
        let share = config.warningShare * s.radiusM
        if enough, vote.all(beyond: share) {
            if !s.warned, s.drag == nil {
                s.warned = true
                events.append(.warning(time: time, at: at, distanceM: d))
            }
        } else if enough, vote.share(beyond: share) <= 1 - DragVote.quorum {
            s.warned = false
        }
        state = s
        return events + repeats(now: time, at: at)
    }

    /// The time passing without fixes (`now` on the fixes' time scale: the last fix's time plus
    /// the time since it arrived): raises the no-position alarm once a silence, and repeats
    /// latched alarms.
    public mutating func tick(now: Double) -> [AnchorEvent] {
        guard var s = state else { return [] }
        let last = s.lastFixTime ?? s.droppedAt
        let silent = now - last
        let thisSilence = s.noPosition.map { $0.raisedAt >= last } ?? false
        if silent >= config.noPositionS, !thisSilence, s.noPosition?.acknowledged != false {
            s.noPosition = Alarm(raisedAt: now)
            state = s
            return [.noPosition(time: now, silentS: silent, repeat: 0)]
        }
        return repeats(now: now, at: nil)
    }

    /// Each latched, unacknowledged alarm said again every `repeatS`; the drag's from where the
    /// boat last was.
    private mutating func repeats(now: Double, at: Coordinate?) -> [AnchorEvent] {
        guard var s = state else { return [] }
        var events: [AnchorEvent] = []
        if let n = s.drag?.repeatDue(now: now, every: config.repeatS) {
            let last = at ?? s.lastPosition ?? s.anchor
            events.append(.alarm(time: now, at: last, distanceM: s.lastDistanceM ?? 0, repeat: n))
        }
        if let n = s.noPosition?.repeatDue(now: now, every: config.repeatS) {
            events.append(.noPosition(time: now, silentS: now - (s.lastFixTime ?? s.droppedAt), repeat: n))
        }
        state = s
        return events
    }
}
