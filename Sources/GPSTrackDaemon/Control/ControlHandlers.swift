import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The control commands, one handler each (in the manner of chrony's cmdmon.c): the read-only
/// ones build their replies from the tracker's `TrackerSnapshot` and each part's stats, or query
/// the history through `TrackerService.history`; the mutating ones are the tracker's own
/// `command`. Called by the control socket's task, and by tests directly.
public struct ControlHandlers: Sendable {
    public typealias Reply = TrackerService.Reply
    let tracker: TrackerService
    let gpsd: GPSDSource?
    let mqtt: MQTTPublisher?
    let tripMode: TrackerConfig.TripMode

    public init(tracker: TrackerService, gpsd: GPSDSource?, mqtt: MQTTPublisher?, tripMode: TrackerConfig.TripMode) {
        self.tracker = tracker
        self.gpsd = gpsd
        self.mqtt = mqtt
        self.tripMode = tripMode
    }

    /// Answers a request: the reply, and whether the client now watches. The caller encodes it
    /// (`ReplyEncoder`): a 10,000-fence reply takes tens of ms to write; a `StreamedReply` (the
    /// legacy export) the caller writes a part at a time instead.
    public func handle(_ request: ControlRequest) async -> (reply: Reply, watch: Bool) {
        let result: Result<Reply, ControlError>
        switch request {
        case .status:
            result = .success(StatusReport.reply(await tracker.snapshot(), gpsd: gpsd?.stats, mqtt: mqtt))
        case .fences: result = .success(FencesReply(fences: await tracker.snapshot(detailedFences: true).fences))
        case .state(let id): result = Self.state(of: id, in: await tracker.snapshot().fences)
        case .watch: return (WatchReply(), true)
        case .trips where tripMode == .auto: result = await tracker.history(commit: true, HistoryHandlers.autoTrips)
        case .trips: result = await tracker.history(commit: true, HistoryHandlers.trips)
        case .stops: result = await tracker.history(commit: true, HistoryHandlers.stops)
        case .events(let since, let fence):
            result = await tracker.history(commit: false) { HistoryHandlers.events($0, since: since, fence: fence) }
        case .steps(let since): result = await tracker.stepsReply(since: since)
        case .export(let trip, let since, let until):
            // Streamed: written as the client reads it (`StreamedReply`).
            return (LegacyExport(tracker: tracker, scope: ExportScope(trip: trip, since: since, until: until)), false)
        case .exportPage(let scope, let after, let limit) where scope.anchor:
            // In the tracker's memory: nothing to commit.
            result = await tracker.history(commit: false) {
                AnchorExport.page($0.session, after: after, limit: limit)
            }
        case .exportPage(let scope, let after, let limit):
            // The first page is read with what waits committed; the next ones go on from it.
            result = await tracker.history(commit: after == nil) {
                ExportHandlers.page($0, scope, after: after, limit: limit)
            }
        case .anchor(.status): result = .success(AnchorReply(anchor: await tracker.snapshot().anchor))
        case .start, .stop, .reset, .reload, .guard, .guardAck, .sosAck, .anchor:
            result = await tracker.command(request) ?? .failure(ControlError("not a tracker command"))
        }
        switch result {
        case .success(let reply): return (reply, false)
        case .failure(let error): return (ErrorReply(error: error.message), false)
        }
    }

    /// `state`: one fence's state by its id.
    static func state(of id: String, in fences: [FenceReport]) -> Result<Reply, ControlError> {
        guard let f = fences.first(where: { $0.id == id }) else {
            return .failure(ControlError("unknown fence \"\(id.prefix(128))\""))
        }
        return .success(StateReply(fence: id, state: f.state, since: f.since))
    }
}
