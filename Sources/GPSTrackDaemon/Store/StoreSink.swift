import GPSTrackCore
import GPSTrackProtocol

/// The store's sink, first of the tracker's sinks: events, fence memories, the trip and track
/// points are committed here before anyone else hears of them. It owns the points waiting for
/// their batch and the retention's progress.
final class StoreSink: TrackerSink {
    let name = "store"
    let store: Store
    private let tripMode: TrackerConfig.TripMode
    private let retentionDays: Double
    private var pendingPoints: [Store.PointRow] = []
    private var lastPrune = -Double.infinity
    /// While retention has work to do: the fix time before which track points go.
    private var pruneCutoff: Double?

    /// Seconds of fix time that track points may wait in memory before they are committed.
    static let pointBatchSeconds = 5.0

    init(store: Store, tripMode: TrackerConfig.TripMode, retentionDays: Double) {
        self.store = store
        self.tripMode = tripMode
        self.retentionDays = retentionDays
    }

    func take(_ step: TrackerStep) -> [LogEntry] {
        if let fix = step.fix, let t = fix.time {
            if case .accepted(true, _) = step.outcome {
                pendingPoints.append(
                    Store.PointRow(
                        time: t, latitude: fix.latitude, longitude: fix.longitude,
                        altitude: fix.altitude, eph: fix.horizontalError ?? .nan, mode: fix.mode,
                        hdop: fix.hdop, satellites: fix.satellitesUsed, altitudeHAE: fix.altitudeHAE))
            }
            maintain(at: t, trip: step.tracker.trip)
        }
        persist(step)
        return []
    }

    func finish(_ last: TrackerStep) { persist(last) }

    /// Commits the step's events (as encoded in its lines), fence memories, the trip and waiting
    /// track points. Points alone wait until they span `pointBatchSeconds`.
    private func persist(_ step: TrackerStep) {
        let span = (pendingPoints.last?.time ?? 0) - (pendingPoints.first?.time ?? 0)
        guard step.force || !step.events.isEmpty || span >= Self.pointBatchSeconds || pendingPoints.count >= 50 else {
            return
        }
        var rows: [Store.EventRow] = []
        for (e, line) in step.lined {
            var fenceID: String?
            if case .fence(let f) = e.event { fenceID = f.fenceID }
            rows.append(Store.EventRow(seq: e.seq, time: e.time, event: e.name.rawValue, fence: fenceID, json: line))
        }
        store.commit(
            events: rows, trip: step.tracker.trip, counters: step.tracker.counters, fences: step.fences.memories,
            points: pendingPoints, force: step.force, motion: motionRows(step))
        pendingPoints = []
    }

    /// Automatic trips ended in `events`, the stops begun or left, and the detector's state.
    private func motionRows(_ step: TrackerStep) -> Store.MotionRows? {
        guard tripMode == .auto else { return nil }
        let ended = step.events.compactMap { e -> TripFigures? in
            if case .tracker(.tripEnd(let f)) = e.event { return f }
            return nil
        }
        return Store.MotionRows(state: step.tracker.motionState, trips: ended, stops: step.fences.stops)
    }

    /// Retention and recovery, once per fix with a time: a degraded store is retried; once a
    /// day of fix time (and at the first fix) pruning begins, then one small step per fix.
    private func maintain(at t: Double, trip: Trip) {
        store.retryIfDegraded(trip: trip)
        if t - lastPrune >= 86_400 {
            lastPrune = t
            pruneCutoff = t - retentionDays * 86_400
        }
        if let cutoff = pruneCutoff, !store.pruneStep(before: cutoff) { pruneCutoff = nil }
    }
}
