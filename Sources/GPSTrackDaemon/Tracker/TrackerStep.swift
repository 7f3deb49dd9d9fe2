import GPSTrackCore
import GPSTrackProtocol

/// One step of the tracker as its sinks hear it: what came in, what the core made of it, what
/// happened, and the state it left, all as values (never the session, never read back from
/// the core's leftover state).
public struct TrackerStep: Sendable {
    /// The fix this step ingested, if it ingested one.
    public var fix: Fix?
    /// What the tracker made of `fix` (`.none` for steps without a fix).
    public var outcome: Tracker.Outcome
    /// The step's events in order, each with its JSON line (the store's, `watch`'s, replay's).
    public var events: [TrackingSession.Sequenced]
    public var lines: [String]
    /// Commit now, whatever the batch: control commands, a lost fix, the feed's end.
    public var force: Bool
    /// The tracker after the step: the trip's figures, the counters, the last accepted fix, the
    /// automatic trips' motion and stops, the parked guard.
    public var tracker: Tracker
    /// The anchor watch after the step; nil while the anchor is up.
    public var anchor: AnchorWatch.State?
    /// The fences after the step.
    public var fences: FenceFacts
    /// The box's inputs after the step (ignition, power and battery, the panic button).
    public var inputs: InputMonitor
    /// Whether an overspeed is under way after the step.
    public var overspeeding: Bool
    /// Whether the session has a fix after the step (false before the first and after `fix_lost`).
    public var hasFix: Bool

    public init(
        fix: Fix? = nil, outcome: Tracker.Outcome = .none, events: [TrackingSession.Sequenced] = [],
        lines: [String]? = nil, force: Bool = false, tracker: Tracker = Tracker(), anchor: AnchorWatch.State? = nil,
        fences: FenceFacts = FenceFacts(), inputs: InputMonitor = InputMonitor(), overspeeding: Bool = false,
        hasFix: Bool = false
    ) {
        self.fix = fix
        self.outcome = outcome
        self.events = events
        self.lines = lines ?? events.map(EventJSON.encode)
        self.force = force
        self.tracker = tracker
        self.anchor = anchor
        self.fences = fences
        self.inputs = inputs
        self.overspeeding = overspeeding
        self.hasFix = hasFix
    }

    /// Whether the fix was accepted.
    public var accepted: Bool {
        if case .accepted = outcome { return true }
        return false
    }

    /// The step's events with their lines.
    public var lined: Zip2Sequence<[TrackingSession.Sequenced], [String]> { zip(events, lines) }
}

/// The fences as a step leaves them, as values.
public struct FenceFacts: Sendable {
    /// Names (else ids) of the fences holding the position, in file order; nil without fences.
    public var inside: [String]?
    /// What each fence of the step's fence events must remember across a restart, by id.
    public var memories: [String: FenceMemory]
    /// The automatic trips' last ended and current stop, each with the fences at its place.
    public var stops: [(StopFigures, [String])]

    public init(inside: [String]? = nil, memories: [String: FenceMemory] = [:], stops: [(StopFigures, [String])] = []) {
        self.inside = inside
        self.memories = memories
        self.stops = stops
    }
}
