import GPSTrackCore
import GPSTrackProtocol

/// A reporter of the tracker's steps, in the manner of swift-log's `LogHandler`: the tracking
/// actor holds its sinks in order (the store first, so that an event is committed before anyone
/// hears of it; then the journal and watchers; then the outlets) and calls each on its own
/// thread. Each sink owns its state; it hears values (the step, the fences), never the session,
/// and gives back what it wants journaled. A new outlet is a new sink: nothing else changes.
public protocol TrackerSink: AnyObject {
    /// The sink's name, for the stop's log and status.
    var name: String { get }
    /// Hears one step; returns the entries to journal (and stream to watchers) after it.
    func take(_ step: TrackerStep) -> [LogEntry]
    /// The first step is coming: the fences in force, nil for none.
    func start(_ fences: [Fence]?)
    /// The fences were replaced (start, reload, pushed waypoints): the fences now in force, nil
    /// for none.
    func fencesReplaced(_ fences: [Fence]?)
    /// The feed ended or the daemon stops: write out what waits. `last` is a step without
    /// events that carries the state at the end.
    func finish(_ last: TrackerStep)
}

extension TrackerSink {
    public func start(_ fences: [Fence]?) {}
    public func fencesReplaced(_ fences: [Fence]?) {}
    public func finish(_ last: TrackerStep) {}
}
