import GPSTrackCore

/// The control commands, one handler each (in the manner of chrony's cmdmon.c): `control`
/// dispatches, each handler adds its fields to the `{"ok":true,…}` reply or fails with the
/// client's error message.
extension TrackerService {
    /// What a handler gives back: the reply's fields, or a whole line of its own.
    enum Reply {
        case fields(JSONObject)
        case line(String)
    }

    /// Answers a control request: the response line, and whether the client now watches.
    public func control(_ request: ControlRequest) -> (String, Bool) {
        var o = JSONObject()
        o.add("ok", true)
        let result: Result<Reply, ControlError>
        switch request {
        case .status: result = .success(.line(statusJSON()))
        case .fences: result = handleFences(o)
        case .state(let id): result = handleState(o, fence: id)
        case .start: result = handleStart(o)
        case .stop: result = handleStop(o)
        case .reset: result = handleReset(o)
        case .reload: result = handleReload(o)
        case .guard(let on): result = handleGuard(o, on: on)
        case .watch:
            o.add("watching", true)
            return (o.encoded, true)
        case .trips where configuration.tracker.tripMode == .auto: result = handleAutoTrips(o)
        case .trips: result = handleTrips(o)
        case .stops: result = handleStops(o)
        case .events(let since, let fence): result = handleEvents(o, since: since, fence: fence)
        case .steps(let since): result = handleSteps(since: since)
        case .export(let trip, let since, let until): result = handleExport(o, trip: trip, since: since, until: until)
        }
        switch result {
        case .success(.fields(let fields)): return (fields.encoded, false)
        case .success(.line(let line)): return (line, false)
        case .failure(let error): return (error.line, false)
        }
    }

    private func handleFences(_ o: JSONObject) -> Result<Reply, ControlError> {
        var o = o
        o.add("fences", raw: fencesJSON(detailed: true))
        return .success(.fields(o))
    }

    private func handleState(_ o: JSONObject, fence id: String) -> Result<Reply, ControlError> {
        guard let monitor = session.geofences, let i = monitor.index.fences.firstIndex(where: { $0.id == id }) else {
            return .failure(ControlError("unknown fence \"\(id.prefix(128))\""))
        }
        var o = o
        o.add("fence", id)
        o.add("state", monitor.statuses[i].state.rawValue)
        o.add("since", monitor.statuses[i].since.map(Timestamp.iso8601))
        return .success(.fields(o))
    }

    private func handleStart(_ o: JSONObject) -> Result<Reply, ControlError> {
        let trip = session.tracker.trip, last = session.tracker.lastAccepted?.time
        persist(force: true)
        store?.endTrip(at: session.tracker.lastAccepted?.time)
        let events = session.startTrip()
        // A running trip ends here; an automatic one reports its steps at its own trip_end.
        if trip.state == .running, trip.startedAt != nil, !events.contains(where: { Self.name(of: $0) == "trip_end" }) {
            stepsTripEnded(from: trip.startedAt, to: last)
        }
        deliver(events, force: true)
        steps?.startTrip()
        emit(LogEntry(event: "trip_reset", priority: .info, message: "Counting anew from the next fix (start)"))
        var o = o
        o.add("trip", raw: tripJSON())
        return .success(.fields(o))
    }

    private func handleStop(_ o: JSONObject) -> Result<Reply, ControlError> {
        deliver(session.stopTrip(), force: true)
        var o = o
        o.add("trip", raw: tripJSON())
        return .success(.fields(o))
    }

    private func handleReset(_ o: JSONObject) -> Result<Reply, ControlError> {
        deliver(session.resetTrip(), force: true)
        steps?.startTrip()
        emit(LogEntry(event: "trip_reset", priority: .info, message: "Trip figures reset"))
        var o = o
        o.add("trip", raw: tripJSON())
        return .success(.fields(o))
    }

    private func handleReload(_ o: JSONObject) -> Result<Reply, ControlError> {
        if let error = reloadFences() { return .failure(ControlError(error)) }
        var o = o
        o.add("fences", session.geofences?.index.fences.count ?? 0)
        return .success(.fields(o))
    }

    private func handleGuard(_ o: JSONObject, on: Bool) -> Result<Reply, ControlError> {
        guard configuration.tracker.tripMode == .auto else {
            return .failure(ControlError("the parked guard needs trip_mode = auto (it arms at stops)"))
        }
        session.setGuard(on: on)
        persist(force: true)
        emit(LogEntry(event: "guard_set", priority: .info, message: "Parked guard \(on ? "on" : "off")",
                      fields: [("GPSTRACK_GUARD", on ? "on" : "off")]))
        var o = o
        o.add("guard", guardJSON())
        return .success(.fields(o))
    }

    private func handleSteps(since: Double?) -> Result<Reply, ControlError> {
        guard steps?.source != nil, let line = steps?.query(since: since) else {
            return .failure(ControlError("no pedometer (pedometer = off, or no IIO step counter or accelerometer)"))
        }
        return .success(.line(line))
    }
}
