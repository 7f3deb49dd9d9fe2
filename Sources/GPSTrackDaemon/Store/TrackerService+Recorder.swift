import GPSTrackCore

/// The store reporter: events, fence memories, the trip and track points, committed in batches.
extension TrackerService {
    /// Seconds of fix time that track points may wait in memory before they are committed.
    static let pointBatchSeconds = 5.0

    /// Commits events (as encoded in `lines`), fence memories, the trip and waiting track
    /// points. Points alone wait until they span `pointBatchSeconds`.
    func persist(_ events: [TrackingSession.Sequenced] = [], lines: [String] = [], force: Bool = false) {
        guard let store else { return }
        let span = (pendingPoints.last?.time ?? 0) - (pendingPoints.first?.time ?? 0)
        guard force || !events.isEmpty || span >= Self.pointBatchSeconds || pendingPoints.count >= 50 else { return }
        var rows: [Store.EventRow] = []
        var memories: [String: FenceMemory] = [:]
        for (e, line) in zip(events, lines) {
            var fenceID: String?
            var time: Double?
            switch e.event {
            case .fence(let f):
                time = f.time
                fenceID = f.fenceID
                if let memory = session.geofences?.memory(for: f) { memories[f.fenceID] = memory }
            case .fencesDetermined(let c):
                time = c.time
            case .tracker(let t):
                switch t {
                case .tripStart(_, let at, _), .discontinuity(let at, _, _): time = at
                case .tripEnd(let f): time = f.end
                case .tripStop(let at, _): time = at
                case .guardArmed(let at, _, _), .guardBreach(let at, _, _, _), .overspeedStart(let at, _, _, _),
                     .overspeedEnd(let at, _, _, _, _, _): time = at
                }
            }
            rows.append(Store.EventRow(seq: e.seq, time: time, event: Self.name(of: e), fence: fenceID, json: line))
        }
        store.commit(events: rows, trip: session.tracker.trip, counters: session.tracker.counters, fences: memories,
                     points: pendingPoints, force: force, motion: motionRows(events))
        pendingPoints = []
    }

    /// Automatic trips ended in `events`, the stops begun or left, and the detector's state.
    private func motionRows(_ events: [TrackingSession.Sequenced]) -> Store.MotionRows? {
        guard configuration.tracker.tripMode == .auto else { return nil }
        let detector = session.tracker.trips
        let ended = events.compactMap { e -> TripFigures? in
            if case .tracker(.tripEnd(let f)) = e.event { return f }
            return nil
        }
        let stops = [detector.lastEndedStop, detector.currentStop].compactMap { $0 }.map { ($0, fenceNames(at: $0.at)) }
        return Store.MotionRows(state: session.tracker.motionState, trips: ended, stops: stops)
    }

    func fenceNames(at p: Coordinate) -> [String] {
        guard let index = session.geofences?.index else { return [] }
        return TrackingSession.fenceNames(at: p, in: index)
    }

    /// Retention and recovery, once per fix with a time: a degraded store is retried; once a
    /// day of fix time (and at the first fix) pruning begins, then one small step per fix.
    func maintainStore(at t: Double) {
        guard let store else { return }
        store.retryIfDegraded(trip: session.tracker.trip)
        if t - lastPrune >= 86_400 { lastPrune = t; pruneCutoff = t - configuration.retentionDays * 86_400 }
        if let cutoff = pruneCutoff, !store.pruneStep(before: cutoff) { pruneCutoff = nil }
    }

    /// The stop's last word on storage, after MQTT stopped: what could not be written, named
    /// (see `Store.stopEntry`); nothing when all was written.
    public func reportStorageAtStop() {
        if let entry = store?.stopEntry(unsavedMessages: mqtt?.unsavedKinds ?? [:]) { journal.log(entry) }
    }

    /// The store, when it can answer a history query.
    func availableStore() -> Result<Store, ControlError> {
        // On a full disk the file still reads.
        guard let store, store.degradedReason == nil || store.spellFull else {
            return .failure(ControlError("storage unavailable: \(store?.degradedReason ?? "no state directory")"))
        }
        return .success(store)
    }
}
