import GPSTrackCore
import GPSTrackProtocol

/// The control commands, one handler each (in the manner of chrony's cmdmon.c): `control`
/// dispatches, each handler answers with its reply type from GPSTrackProtocol (the type
/// gpstrackctl decodes) or fails with the client's error message.
extension TrackerService {
    /// What a handler gives back: its reply, encoded by `ReplyEncoder`.
    public typealias Reply = any Encodable & Sendable

    /// Answers a control request: the reply, and whether the client now watches. The caller
    /// encodes it (`ReplyEncoder`), off the actor: a 10,000-fence reply takes tens of ms to write.
    public func control(_ request: ControlRequest) -> (reply: Reply, watch: Bool) {
        let result: Result<Reply, ControlError>
        switch request {
        case .status: result = .success(statusReply())
        case .fences: result = .success(FencesReply(fences: fenceStatuses(detailed: true)))
        case .state(let id): result = handleState(fence: id)
        case .start: result = handleStart()
        case .stop: result = handleStop()
        case .reset: result = handleReset()
        case .reload: result = handleReload()
        case .guard(let on): result = handleGuard(on: on)
        case .watch: return (WatchReply(), true)
        case .trips where configuration.tracker.tripMode == .auto: result = handleAutoTrips()
        case .trips: result = handleTrips()
        case .stops: result = handleStops()
        case .events(let since, let fence): result = handleEvents(since: since, fence: fence)
        case .steps(let since): result = handleSteps(since: since)
        case .export(let trip, let since, let until): result = handleExport(trip: trip, since: since, until: until)
        case .exportPage(let scope, let after, let limit): result = handleExportPage(scope, after: after, limit: limit)
        case .anchor(let command): result = handleAnchor(command)
        case .guardAck: result = handleGuardAck()
        }
        switch result {
        case .success(let reply): return (reply, false)
        case .failure(let error): return (ErrorReply(error: error.message), false)
        }
    }

    private func handleState(fence id: String) -> Result<Reply, ControlError> {
        guard let monitor = session.geofences, let i = monitor.index.fences.firstIndex(where: { $0.id == id }) else {
            return .failure(ControlError("unknown fence \"\(id.prefix(128))\""))
        }
        return .success(
            StateReply(
                fence: id, state: monitor.statuses[i].state.rawValue,
                since: monitor.statuses[i].since.map(Timestamp.iso8601)))
    }

    private func handleStart() -> Result<Reply, ControlError> {
        let trip = session.tracker.trip
        let last = session.tracker.lastAccepted?.time
        persist(force: true)
        store?.endTrip(at: session.tracker.lastAccepted?.time)
        let events = session.startTrip()
        // A running trip ends here; an automatic one reports its steps at its own trip_end.
        if trip.state == .running, trip.startedAt != nil, !events.contains(where: \.isTripEnd) {
            for entry in stepsSink?.tripEnded(from: trip.startedAt, to: last) ?? [] { emit(entry) }
        }
        deliver(events, force: true)
        stepsSink?.figures.startTrip()
        emit(LogEntry(event: .tripReset, priority: .info, message: "Counting anew from the next fix (start)"))
        return .success(TripReply(trip: manualTrip()))
    }

    private func handleStop() -> Result<Reply, ControlError> {
        deliver(session.stopTrip(), force: true)
        return .success(TripReply(trip: manualTrip()))
    }

    private func handleReset() -> Result<Reply, ControlError> {
        deliver(session.resetTrip(), force: true)
        stepsSink?.figures.startTrip()
        emit(LogEntry(event: .tripReset, priority: .info, message: "Trip figures reset"))
        return .success(TripReply(trip: manualTrip()))
    }

    private func handleReload() -> Result<Reply, ControlError> {
        if let error = reloadFences() { return .failure(ControlError(error)) }
        return .success(ReloadReply(fences: session.geofences?.index.fences.count ?? 0))
    }

    private func handleGuard(on: Bool) -> Result<Reply, ControlError> {
        guard configuration.tracker.tripMode == .auto else {
            return .failure(ControlError("the parked guard needs trip_mode = auto (it arms at stops)"))
        }
        session.setGuard(on: on)
        persist(force: true)
        emit(
            LogEntry(
                event: .guardSet, priority: .info, message: "Parked guard \(on ? "on" : "off")",
                fields: [(.guard, on ? "on" : "off")]))
        return .success(GuardReply(guard: guardStatus()))
    }

    private func handleSteps(since: Double?) -> Result<Reply, ControlError> {
        guard stepsSink?.figures.source != nil, let reply = stepsSink?.figures.query(since: since) else {
            return .failure(ControlError("no pedometer (pedometer = off, or no IIO step counter or accelerometer)"))
        }
        return .success(reply)
    }
}
