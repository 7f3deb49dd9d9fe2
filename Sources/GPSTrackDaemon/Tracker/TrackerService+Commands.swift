import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The control commands that change the tracker (chrony's cmdmon.c keeps its mutating commands
/// apart as well): each runs on the actor and answers with its reply type from GPSTrackProtocol,
/// or fails with the client's error message. The read-only ones are `ControlHandlers`'.
extension TrackerService {
    /// What a handler gives back: its reply, encoded by `ReplyEncoder`.
    public typealias Reply = any Encodable & Sendable

    /// Runs a mutating command (`start`, `stop`, `reset`, `reload`, `guard`, `guard ack`, `anchor
    /// drop|raise|ack`); nil for any other.
    public func command(_ request: ControlRequest) -> Result<Reply, ControlError>? {
        switch request {
        case .start: handleStart()
        case .stop: handleStop()
        case .reset: handleReset()
        case .reload: handleReload()
        case .guard(let on): handleGuard(on: on)
        case .guardAck: handleGuardAck()
        case .sosAck: acknowledgeSOS()
        case .anchor(.status): nil
        case .anchor(let command): handleAnchor(command)
        case .status, .fences, .state, .watch, .trips, .stops, .events, .export, .steps, .exportPage: nil
        }
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
        return .success(TripReply(trip: Reports.manualTrip(session.tracker.trip)))
    }

    private func handleStop() -> Result<Reply, ControlError> {
        deliver(session.stopTrip(), force: true)
        return .success(TripReply(trip: Reports.manualTrip(session.tracker.trip)))
    }

    private func handleReset() -> Result<Reply, ControlError> {
        deliver(session.resetTrip(), force: true)
        stepsSink?.figures.startTrip()
        emit(LogEntry(event: .tripReset, priority: .info, message: "Trip figures reset"))
        return .success(TripReply(trip: Reports.manualTrip(session.tracker.trip)))
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
        return .success(
            GuardReply(
                guard: Reports.guardStatus(session.tracker.parkedGuard, radiusM: configuration.tracker.guardRadiusM)))
    }

    /// `guard ack`: the parked guard's latched breach acknowledged.
    private func handleGuardAck() -> Result<Reply, ControlError> {
        guard configuration.tracker.tripMode == .auto else {
            return .failure(ControlError("the parked guard needs trip_mode = auto (it arms at stops)"))
        }
        // The guard's breach, or the power lost while it was armed (latched alike).
        guard session.tracker.parkedGuard.latch != nil || session.inputs.powerAlarm != nil, let time = anchorNow()
        else {
            return .failure(ControlError("no guard breach to acknowledge"))
        }
        deliver(session.acknowledgeGuard(time: time), force: true)
        return .success(
            GuardReply(
                guard: Reports.guardStatus(session.tracker.parkedGuard, radiusM: configuration.tracker.guardRadiusM)))
    }

    /// `steps`: the pedometer's figures are its sink's own state, so the query runs here.
    public func stepsReply(since: Double?) -> Result<Reply, ControlError> {
        guard stepsSink?.figures.source != nil, let reply = stepsSink?.figures.query(since: since) else {
            return .failure(ControlError("no pedometer (pedometer = off, or no IIO step counter or accelerometer)"))
        }
        return .success(reply)
    }
}
