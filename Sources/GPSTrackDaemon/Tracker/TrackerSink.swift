import GPSTrackCore
import GPSTrackProtocol

/// One step of the tracker as its sinks hear it: what came in, what the core made of it and
/// what happened, explicitly (never read back from the core's leftover state).
public struct TrackerStep {
    /// The fix this step ingested, if it ingested one.
    public var fix: Fix?
    /// What the tracker made of `fix` (`.none` for steps without a fix).
    public var outcome: Tracker.Outcome
    /// The step's events in order, each with its JSON line (the store's, `watch`'s, replay's).
    public var events: [TrackingSession.Sequenced]
    public var lines: [String]
    /// Commit now, whatever the batch: control commands, a lost fix, the feed's end.
    public var force: Bool

    public init(
        fix: Fix? = nil, outcome: Tracker.Outcome = .none, events: [TrackingSession.Sequenced] = [],
        lines: [String]? = nil, force: Bool = false
    ) {
        self.fix = fix
        self.outcome = outcome
        self.events = events
        self.lines = lines ?? events.map(EventJSON.encode)
        self.force = force
    }

    /// Whether the fix was accepted.
    public var accepted: Bool {
        if case .accepted = outcome { return true }
        return false
    }

    /// The step's events with their lines.
    public var lined: Zip2Sequence<[TrackingSession.Sequenced], [String]> { zip(events, lines) }
}

/// A reporter of the tracker's steps, in the manner of swift-log's `LogHandler`: the tracking
/// actor holds its sinks in order (the store first, so that an event is committed before anyone
/// hears of it; then the journal and watchers; then the outlets) and calls each on its own
/// thread. Each sink owns its state; it reads the session it is handed, never keeps it, and
/// gives back what it wants journaled. A new outlet is a new sink: nothing else changes.
public protocol TrackerSink: AnyObject {
    /// The sink's name, for the stop's log and status.
    var name: String { get }
    /// Hears one step; returns the entries to journal (and stream to watchers) after it.
    func take(_ step: TrackerStep, session: TrackingSession) -> [LogEntry]
    /// The fences were replaced (start, reload, pushed waypoints).
    func fencesReplaced(session: TrackingSession)
    /// The feed ended or the daemon stops: write out what waits.
    func finish(session: TrackingSession)
}

extension TrackerSink {
    public func fencesReplaced(session: TrackingSession) {}
    public func finish(session: TrackingSession) {}
}
