#if canImport(Glibc)
import Glibc
#endif
import GPSTrackCore

/// The actor that owns the tracking state: every gpsd report, outage and reload passes through
/// it, in order, and it logs what happens. The core does the deciding; this does the telling.
public actor TrackerService {
    private var session: TrackingSession
    private var assembler = EpochAssembler()
    private let journal: Journal
    private let configuration: Configuration
    private var fixLost = true
    private var lastStatusTime = -Double.infinity
    private var malformed = 0
    private var malformedUnlogged = 0
    private var lastMalformedLog = -Double.infinity
    private var gpsdConnected = false
    private var device: String?
    private var lastFixReceived: Double?
    private let startedAt = MonotonicClock.now()
    /// Where `watch` events go (the control server's broadcast), if anywhere.
    private var watchSink: (@Sendable (String) -> Void)?

    private let store: Store?
    private var pendingPoints: [Store.PointRow] = []
    private var lastPrune = -Double.infinity
    /// While retention has work to do: the fix time before which track points go.
    private var pruneCutoff: Double?

    /// Seconds of fix time that track points may wait in memory before they are committed.
    static let pointBatchSeconds = 5.0

    private let mqtt: MQTTPublisher?
    private var lastLocation: (time: Double, at: Coordinate)?
    private var fencesLoadedAt = Int(time(nil))
    /// The pedometer's figures; nil with `pedometer = off`.
    private var steps: StepFigures?

    public init(configuration: Configuration, fences: FenceIndex?, journal: Journal, store: Store? = nil, mqtt: MQTTPublisher? = nil) {
        self.configuration = configuration
        self.journal = journal
        self.store = store
        self.mqtt = mqtt
        session = TrackingSession(config: configuration.tracker, fences: fences)
        if configuration.pedometer == .auto { steps = StepFigures(strideM: configuration.strideM, databasePath: store?.path) }
        if let store {
            let restored = store.restore()
            session.restore(trip: restored.trip, counters: restored.counters, seq: restored.seq, fences: restored.fences,
                            trips: configuration.tracker.tripMode == .auto ? restored.motion : nil)
            if let trip = restored.trip {
                journal.log(LogEntry(event: "restored", priority: .info,
                                     message: "Carrying on: trip of \(Self.metres(trip.traveledM)), events from #\(restored.seq + 1), "
                                        + "\(restored.fences.count) fences remembered, \(restored.counters?.total ?? 0) fixes counted",
                                     fields: [("GPSTRACK_TRAVELED_M", Self.number(trip.traveledM)), ("GPSTRACK_SEQ", String(restored.seq)),
                                              ("GPSTRACK_FIXES_TOTAL", String(restored.counters?.total ?? 0)),
                                              ("GPSTRACK_FIXES_ACCEPTED", String(restored.counters?.accepted ?? 0))]))
            }
        }
    }

    /// Publishes the circular fences as OwnTracks waypoints (at start and after a reload);
    /// polygons and corridors have no OwnTracks form.
    public func publishWaypoints() {
        guard let mqtt, let monitor = session.geofences else { return }
        let items = monitor.index.fences.compactMap { f -> String? in
            guard case .circle(let c, let r) = f.shape else { return nil }
            var w = JSONObject()
            w.add("_type", "waypoint")
            w.add("desc", f.name ?? f.id)
            w.add("lat", c.latitude)
            w.add("lon", c.longitude)
            w.add("rad", Int(r.rounded()))
            w.add("rid", f.id)
            w.add("tst", fencesLoadedAt)
            return w.encoded
        }
        var o = JSONObject()
        o.add("_type", "waypoints")
        o.add("waypoints", raw: "[" + items.joined(separator: ",") + "]")
        mqtt.setWaypoints(o.encoded)
    }

    /// OwnTracks `location` for an accepted fix, at most every `mqtt_min_interval_s` and only
    /// after moving `mqtt_min_distance_m` (or after the heartbeat interval).
    private func publishLocation(_ fix: Fix) {
        guard let mqtt, let t = fix.time else { return }
        if let last = lastLocation {
            let dt = t - last.time
            guard dt >= mqtt.config.minIntervalS else { return }
            guard dt >= mqtt.config.heartbeatS || Geodesic.distance(last.at, fix.coordinate) >= mqtt.config.minDistanceM else { return }
        }
        lastLocation = (t, fix.coordinate)
        var o = JSONObject()
        o.add("_type", "location")
        o.add("tid", mqtt.trackerID)
        o.add("lat", fix.latitude)
        o.add("lon", fix.longitude)
        o.add("tst", Int(t))
        o.add("acc", Self.accuracy(fix.horizontalError, assumed: configuration.tracker.assumedErrorM))
        if fix.altitude.isFinite { o.add("alt", Int(fix.altitude.rounded())) }
        if fix.speed.isFinite { o.add("vel", Int((fix.speed * 3.6).rounded())) }
        if fix.track.isFinite { o.add("cog", Int(fix.track.rounded()) % 360) }
        o.add("t", "t")
        if let monitor = session.geofences {
            let inside = monitor.index.fences.indices.filter { monitor.statuses[$0].state == .inside }
                .map { JSONObject.quote(monitor.index.fences[$0].name ?? monitor.index.fences[$0].id) }
            o.add("inregions", raw: "[" + inside.joined(separator: ",") + "]")
        }
        mqtt.enqueue(kind: "location", topic: mqtt.baseTopic, payload: o.encoded, qos: 0)
    }

    /// OwnTracks `acc`: whole metres, at least 1 (Home Assistant drops a location whose `acc`
    /// is missing or 0); the assumed error when the receiver gives none.
    static func accuracy(_ error: Double?, assumed: Double) -> Int {
        let e = error.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? assumed
        return max(1, Int(min(e, 1e6).rounded()))
    }

    /// OwnTracks `transition` for an enter or exit (crossings too), QoS 1, to `<base>/event`.
    private func publishTransition(_ e: FenceEvent) {
        guard let mqtt, let monitor = session.geofences, e.kind == .enter || e.kind == .exit else { return }
        let f = monitor.index.fences[e.fence]
        var o = JSONObject()
        o.add("_type", "transition")
        o.add("tid", mqtt.trackerID)
        o.add("event", e.kind == .enter ? "enter" : "leave")
        o.add("desc", f.name ?? f.id)
        o.add("rid", f.id)
        o.add("wtst", fencesLoadedAt)
        o.add("tst", Int(e.time))
        o.add("lat", e.coordinate?.latitude)
        o.add("lon", e.coordinate?.longitude)
        o.add("acc", Self.accuracy(session.tracker.lastAccepted?.horizontalError, assumed: configuration.tracker.assumedErrorM))
        o.add("t", "c")
        mqtt.enqueue(kind: "transition", topic: mqtt.baseTopic + "/event", payload: o.encoded, qos: 1)
    }

    /// OwnTracks `transition` for a guard breach (`event: leave`, `desc: parked`), so that Home
    /// Assistant shows it.
    private func publishBreach(time: Double, at: Coordinate, parkedAt: Coordinate) {
        guard let mqtt else { return }
        var o = JSONObject()
        o.add("_type", "transition")
        o.add("tid", mqtt.trackerID)
        o.add("event", "leave")
        o.add("desc", "parked")
        o.add("rid", "parked")
        o.add("wtst", Int(session.tracker.parkedGuard.armedSince ?? time))
        o.add("tst", Int(time))
        o.add("lat", at.latitude)
        o.add("lon", at.longitude)
        o.add("acc", Self.accuracy(session.tracker.lastAccepted?.horizontalError, assumed: configuration.tracker.assumedErrorM))
        o.add("t", "c")
        mqtt.enqueue(kind: "transition", topic: mqtt.baseTopic + "/event", payload: o.encoded, qos: 1)
    }

    /// Commits events, then reports them (journal, watchers, MQTT): each event is encoded once
    /// and nobody hears of it before it is stored.
    private func deliver(_ events: [TrackingSession.Sequenced], force: Bool = false) {
        let lines = events.map { EventJSON.encode($0, fences: session.geofences?.index) }
        persist(events, lines: lines, force: force)
        for (e, line) in zip(events, lines) {
            emit(entry(for: e), json: line)
            if case .fence(let f) = e.event { publishTransition(f) }
            if case .tracker(let t) = e.event {
                if case .tripStart(_, let time, _) = t { steps?.startTrip(since: time) }
                // One steps report per trip: at its trip_end (automatic trips), else at trip_stop.
                if case .tripEnd(let f) = t {
                    stepsTripEnded(from: f.start, to: f.end)
                } else if t.name == "trip_stop" && !events.contains(where: { Self.name(of: $0) == "trip_end" }) {
                    stepsTripEnded(from: session.tracker.trip.startedAt, to: session.tracker.lastAccepted?.time)
                }
            }
            if case .tracker(.guardBreach(let t, let at, let parked, _)) = e.event { publishBreach(time: t, at: at, parkedAt: parked) }
        }
    }

    /// Commits events (as encoded in `lines`), fence memories, the trip and waiting track
    /// points. Points alone wait until they span `pointBatchSeconds`.
    private func persist(_ events: [TrackingSession.Sequenced] = [], lines: [String] = [], force: Bool = false) {
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
                if let monitor = session.geofences {
                    fenceID = monitor.index.fences[f.fence].id
                    memories[fenceID!] = monitor.memory(of: f.fence)
                }
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

    private func fenceNames(at p: Coordinate) -> [String] {
        guard let index = session.geofences?.index else { return [] }
        return TrackingSession.fenceNames(at: p, in: index)
    }

    private static func name(of e: TrackingSession.Sequenced) -> String {
        switch e.event {
        case .fence(let f): f.kind.name
        case .fencesDetermined: "fences_determined"
        case .tracker(let t): t.name
        }
    }

    /// Sends every event, as a JSON line, to `sink` from now on.
    public func setWatchSink(_ sink: @escaping @Sendable (String) -> Void) {
        watchSink = sink
    }

    /// Logs an entry and streams it to watchers (session events in replay's format).
    private func emit(_ entry: LogEntry, json: String? = nil) {
        journal.log(entry)
        guard let watchSink else { return }
        if let json { watchSink(json); return }
        var o = JSONObject()
        o.add("event", entry.event)
        o.add("message", entry.message)
        for (k, v) in entry.fields where k.hasPrefix("GPSTRACK_") { o.add(k.dropFirst(9).lowercased(), v) }
        watchSink(o.encoded)
    }

    /// Handles one report or state change of the gpsd source.
    public func handle(_ event: GPSDSource.Event) {
        switch event {
        case .record(.tpv(let fix)):
            Liveness.shared.stallIfAsked(.tracker)
            for epoch in assembler.add(fix) { process(epoch) }
        case .record(.device(let path, let activated)):
            guard !activated else { device = path ?? device; return }
            device = nil
            emit(LogEntry(event: "device_removed", priority: .warning,
                                 message: "GPS receiver \(path ?? "") removed", fields: [("GPSTRACK_DEVICE", path ?? "")]))
            loseFix(reason: "receiver removed")
        case .record(.malformed(let reason)):
            noteMalformed(reason)
        case .record(.other), .record(.blank):
            break
        case .lost(let reason):
            gpsdConnected = false
            emit(LogEntry(event: "gpsd_lost", priority: .warning, message: "Lost gpsd: \(reason); retrying",
                                 fields: [("GPSTRACK_GPSD", "\(configuration.gpsdHost):\(configuration.gpsdPort)")]))
            loseFix(reason: "gpsd lost")
        case .restored(let after):
            gpsdConnected = true
            var message = "Receiving from gpsd at \(configuration.gpsdHost):\(configuration.gpsdPort)"
            if let after { message += " again after \(Int(after.rounded())) s" }
            emit(LogEntry(event: "gpsd_connected", priority: .info, message: message,
                                 fields: [("GPSTRACK_GPSD", "\(configuration.gpsdHost):\(configuration.gpsdPort)")]))
        }
    }

    /// Handles one report of the pedometer's source.
    public func handleSteps(_ event: IIOSource.Event) {
        if let entry = steps?.handle(event) { emit(entry) }
    }

    /// A trip ended: its steps go to the journal and, with MQTT, as OwnTracks `steps`.
    private func stepsTripEnded(from: Double?, to: Double?) {
        guard let steps, steps.source != nil else { return }
        self.steps?.save(force: true)
        emit(steps.tripEntry())
        guard let mqtt else { return }
        let payload = steps.tripMessage(from: from, to: to)
        mqtt.enqueue(kind: "steps", topic: mqtt.baseTopic, payload: payload, qos: 1)
    }

    /// An OwnTracks command from `<base>/cmd`: `reportSteps` is answered with a `steps`
    /// message (by default from local midnight until now); anything else is ignored.
    public func mqttCommand(_ payload: [UInt8]) {
        guard let mqtt, steps?.source != nil, let json = try? JSONValue.parse(payload), json["_type"]?.string == "cmd",
              json["action"]?.string == "reportSteps" else { return }
        let now = Double(time(nil))
        var midnight = now
        var t = time_t(now)
        var local = tm()
        if localtime_r(&t, &local) != nil { local.tm_hour = 0; local.tm_min = 0; local.tm_sec = 0; midnight = Double(mktime(&local)) }
        let number = { (v: JSONValue?) -> Double? in v?.number.flatMap { $0.isFinite && $0 >= 0 && $0 < 1e11 ? $0 : nil } }
        let from = number(json["from"]) ?? midnight
        let to = number(json["to"]) ?? now
        guard let payload = steps?.reportMessage(from: from, to: max(from, to)) else { return }
        mqtt.enqueue(kind: "steps", topic: mqtt.baseTopic, payload: payload, qos: 1)
    }

    /// Reloads the fences file; a bad file leaves the fences in force and says why. Returns
    /// the error message, or nil on success.
    @discardableResult
    public func reloadFences() -> String? {
        guard let path = configuration.fencesPath else {
            let message = "no fences file is configured"
            emit(LogEntry(event: "fences_reload_failed", priority: .err, message: "Reload asked, but \(message)"))
            return message
        }
        do {
            let index = try FenceLoader.load(path)
            session.replaceFences(index)
            fencesLoadedAt = Int(time(nil))
            publishWaypoints()
            emit(LogEntry(event: "fences_reloaded", priority: .info, message: "Reloaded \(index.fences.count) fences from \(path)",
                          fields: [("GPSTRACK_FENCES", String(index.fences.count))]))
            return nil
        } catch {
            emit(LogEntry(event: "fences_reload_failed", priority: .err,
                          message: "Fences not reloaded, the previous ones stay in force: \(error)"))
            return "fences not reloaded, the previous ones stay in force: \(error)"
        }
    }

    /// Ends the run: the pending epoch is processed and the trip's figures logged.
    public func finish() {
        for epoch in assembler.flush() { process(epoch) }
        steps?.save(force: true)
        persist(force: true)
        let trip = session.tracker.trip, counters = session.tracker.counters
        journal.log(LogEntry(
            event: "summary", priority: .info,
            message: "Trip: \(Self.metres(trip.traveledM)) traveled, \(Self.metres(trip.straightLineM)) in a straight line; "
                + "\(counters.accepted) of \(counters.total) fixes accepted",
            fields: [("GPSTRACK_TRAVELED_M", Self.number(trip.traveledM)), ("GPSTRACK_STRAIGHT_LINE_M", Self.number(trip.straightLineM)),
                     ("GPSTRACK_FIXES_TOTAL", String(counters.total)), ("GPSTRACK_FIXES_ACCEPTED", String(counters.accepted)),
                     ("GPSTRACK_SEQ", String(session.seq))]))
    }

    /// Answers a control request: the response line, and whether the client now watches.
    public func control(_ request: ControlRequest) -> (String, Bool) {
        var o = JSONObject()
        o.add("ok", true)
        switch request {
        case .status:
            return (statusJSON(), false)
        case .fences:
            o.add("fences", raw: fencesJSON(detailed: true))
        case .state(let id):
            guard let monitor = session.geofences, let i = monitor.index.fences.firstIndex(where: { $0.id == id }) else {
                return (ControlError("unknown fence \"\(id.prefix(128))\"").line, false)
            }
            o.add("fence", id)
            o.add("state", monitor.statuses[i].state.rawValue)
            o.add("since", monitor.statuses[i].since.map(Timestamp.iso8601))
        case .start:
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
            o.add("trip", raw: tripJSON())
        case .stop:
            deliver(session.stopTrip(), force: true)
            o.add("trip", raw: tripJSON())
        case .reset:
            deliver(session.resetTrip(), force: true)
            steps?.startTrip()
            emit(LogEntry(event: "trip_reset", priority: .info, message: "Trip figures reset"))
            o.add("trip", raw: tripJSON())
        case .reload:
            if let error = reloadFences() { return (ControlError(error).line, false) }
            o.add("fences", session.geofences?.index.fences.count ?? 0)
        case .guard(let on):
            guard configuration.tracker.tripMode == .auto else {
                return (ControlError("the parked guard needs trip_mode = auto (it arms at stops)").line, false)
            }
            session.setGuard(on: on)
            persist(force: true)
            emit(LogEntry(event: "guard_set", priority: .info, message: "Parked guard \(on ? "on" : "off")",
                          fields: [("GPSTRACK_GUARD", on ? "on" : "off")]))
            o.add("guard", guardJSON())
        case .watch:
            o.add("watching", true)
            return (o.encoded, true)
        case .trips where configuration.tracker.tripMode == .auto:
            persist(force: true)
            guard let store, store.degradedReason == nil else { return (ControlError("storage unavailable: \(store?.degradedReason ?? "no state directory")").line, false) }
            var items = store.autoTrips().map { Self.tripObject($0, state: "ended").encoded }
            if let open = openTripObject() { items.append(open.encoded) }
            o.add("trips", raw: "[" + items.joined(separator: ",") + "]")
        case .stops:
            persist(force: true)
            guard let store, store.degradedReason == nil else { return (ControlError("storage unavailable: \(store?.degradedReason ?? "no state directory")").line, false) }
            let items = store.stops().map { stop, names -> String in
                var j = JSONObject()
                j.add("arrival", Timestamp.iso8601(stop.arrival))
                j.add("departure", stop.departure.map(Timestamp.iso8601))
                j.add("duration_s", (stop.departure ?? session.tracker.lastAccepted?.time).map { $0 - stop.arrival }, decimals: 1)
                j.add("at", EventJSON.place(stop.at, fences: names))
                if let trip = stop.afterTrip { j.add("after_trip", trip) }
                return j.encoded
            }
            o.add("stops", raw: "[" + items.joined(separator: ",") + "]")
        case .trips:
            persist(force: true)
            guard let store, store.degradedReason == nil else { return (ControlError("storage unavailable: \(store?.degradedReason ?? "no state directory")").line, false) }
            let items = store.trips().map { t -> String in
                var j = JSONObject()
                j.add("id", Int(t.id))
                j.add("state", t.state)
                j.add("started_at", t.startedAt.map(Timestamp.iso8601))
                j.add("ended_at", t.endedAt.map(Timestamp.iso8601))
                j.add("traveled_m", t.traveledM, decimals: 2)
                j.add("straight_line_m", t.straightLineM, decimals: 2)
                j.add("duration_s", t.startedAt.flatMap { s in t.endedAt.map { $0 - s } }, decimals: 1)
                return j.encoded
            }
            o.add("trips", raw: "[" + items.joined(separator: ",") + "]")
        case .events(let since, let fence):
            guard let store, store.degradedReason == nil else { return (ControlError("storage unavailable: \(store?.degradedReason ?? "no state directory")").line, false) }
            o.add("events", raw: "[" + store.events(since: since, fence: fence).joined(separator: ",") + "]")
        case .steps(let since):
            guard steps?.source != nil else { return (ControlError("no pedometer (pedometer = off, or no IIO step counter or accelerometer)").line, false) }
            return (steps!.query(since: since), false)
        case .export(let trip, let since, let until):
            persist(force: true)
            guard let store, store.degradedReason == nil else { return (ControlError("storage unavailable: \(store?.degradedReason ?? "no state directory")").line, false) }
            var points: [(Int64, [Store.PointRow])]
            if configuration.tracker.tripMode == .auto, let n = trip {
                // An automatic trip is a span of time: its points, whatever odometer run holds them.
                let open = session.tracker.trips.openTrip
                guard let span = store.autoTrips().first(where: { $0.id == n }).map({ ($0.start, $0.end) })
                        ?? open.flatMap({ $0.id == Int(n) ? ($0.start, session.tracker.lastAccepted?.time ?? $0.start) : nil }) else {
                    return (ControlError("no trip \(n)").line, false)
                }
                let all = store.points(trip: nil, since: span.0, until: span.1).flatMap(\.1)
                points = all.isEmpty ? [] : [(n, all)]
            } else {
                points = store.points(trip: trip, since: since, until: until)
            }
            o.add("points", points.reduce(0) { $0 + $1.1.count })
            o.add("gpx", GPXWriter.document(points))
        }
        return (o.encoded, false)
    }

    /// The `status` response.
    func statusJSON() -> String {
        var o = JSONObject()
        o.add("ok", true)
        var gpsd = JSONObject()
        gpsd.add("connected", gpsdConnected)
        gpsd.add("device", device)
        gpsd.add("address", "\(configuration.gpsdHost):\(configuration.gpsdPort)")
        o.add("gpsd", gpsd)
        if let fix = session.tracker.lastAccepted, !fixLost {
            var f = JSONObject()
            f.add("mode", fix.mode)
            f.add("time", fix.time.map(Timestamp.iso8601))
            f.add("lat", fix.latitude)
            f.add("lon", fix.longitude)
            f.add("eph", fix.horizontalError, decimals: 2)
            f.add("speed", fix.speed, decimals: 3)
            f.add("track", fix.track, decimals: 1)
            f.add("course_text", CourseText(track: fix.track, speed: fix.speed, minimumSpeed: configuration.tracker.minCourseSpeedMps).text)
            f.add("age_s", lastFixReceived.map { MonotonicClock.now() - $0 }, decimals: 1)
            o.add("fix", f)
        } else {
            o.add("fix", raw: "null")
        }
        o.add("trip", raw: tripJSON())
        if configuration.tracker.tripMode == .auto {
            let (motion, since) = session.tracker.trips.motion
            var m = JSONObject()
            m.add("state", motion.rawValue)
            m.add("since", since.map(Timestamp.iso8601))
            o.add("motion", m)
            if let open = openTripObject() { o.add("current_trip", open) } else { o.add("current_trip", raw: "null") }
            o.add("guard", guardJSON())
        }
        o.add("fences", raw: fencesJSON(detailed: false))
        let c = session.tracker.counters
        var counters = JSONObject()
        counters.add("fixes_total", c.total)
        counters.add("fixes_accepted", c.accepted)
        counters.add("fixes_delivered", c.delivered)
        var rejected = JSONObject()
        for (reason, n) in c.rejected.sorted(by: { $0.key < $1.key }) { rejected.add(reason.rawValue, n) }
        counters.add("fixes_rejected", rejected)
        o.add("counters", counters)
        var storage = JSONObject()
        storage.add("state", store == nil ? "off" : store?.degradedReason == nil ? "ok" : "degraded")
        storage.add("reason", store?.degradedReason)
        storage.add("path", store?.path)
        o.add("storage", storage)
        o.add("steps", raw: steps?.statusJSON() ?? "null")
        if let mqtt {
            let st = mqtt.state
            var m = JSONObject()
            m.add("connected", st.connected)
            m.add("outbox", st.outbox)
            m.add("broker", "\(mqtt.config.host ?? ""):\(mqtt.config.port)")
            m.add("topic", mqtt.baseTopic)
            o.add("mqtt", m)
        } else {
            o.add("mqtt", raw: "null")
        }
        o.add("seq", Int(session.seq))
        o.add("version", Daemon.version)
        o.add("uptime_s", MonotonicClock.now() - startedAt, decimals: 1)
        return o.encoded
    }

    /// The parked guard's state for `status` and `guard`.
    private func guardJSON() -> JSONObject {
        let g = session.tracker.parkedGuard
        var j = JSONObject()
        j.add("state", g.state)
        if let at = g.armedAt {
            var p = JSONObject()
            p.add("lat", at.latitude)
            p.add("lon", at.longitude)
            j.add("armed_at", p)
            j.add("since", g.armedSince.map(Timestamp.iso8601))
            j.add("radius_m", configuration.tracker.guardRadiusM, decimals: 1)
        }
        return j
    }

    /// One automatic trip for `trips` and `status`.
    static func tripObject(_ f: TripFigures, state: String) -> JSONObject {
        var j = JSONObject()
        j.add("id", f.id)
        j.add("state", state)
        j.add("started_at", Timestamp.iso8601(f.start))
        j.add("ended_at", Timestamp.iso8601(f.end))
        j.add("from", EventJSON.place(f.from, fences: f.fromFences))
        j.add("to", EventJSON.place(f.to, fences: f.toFences))
        j.add("traveled_m", f.traveledM, decimals: 2)
        j.add("straight_line_m", f.straightLineM, decimals: 2)
        j.add("duration_s", f.durationS, decimals: 1)
        j.add("moving_s", f.movingS, decimals: 1)
        j.add("max_speed_mps", f.maxSpeedMps, decimals: 2)
        j.add("avg_speed_mps", f.avgSpeedMps, decimals: 2)
        return j
    }

    /// The open automatic trip so far, if one is open.
    private func openTripObject() -> JSONObject? {
        guard let open = session.tracker.trips.openTrip else { return nil }
        var j = JSONObject()
        j.add("id", open.id)
        j.add("state", "open")
        j.add("started_at", Timestamp.iso8601(open.start))
        j.add("from", EventJSON.place(open.from, fences: fenceNames(at: open.from)))
        j.add("traveled_m", open.traveledM, decimals: 2)
        if let now = session.tracker.lastAccepted?.time { j.add("duration_s", now - open.start, decimals: 1) }
        return j
    }

    private func tripJSON() -> String {
        let trip = session.tracker.trip
        var t = JSONObject()
        t.add("state", trip.state.rawValue)
        t.add("started_at", trip.startedAt.map(Timestamp.iso8601))
        t.add("start", raw: trip.start.map { c in
            var p = JSONObject(); p.add("lat", c.latitude); p.add("lon", c.longitude); return p.encoded
        } ?? "null")
        t.add("traveled_m", trip.traveledM, decimals: 2)
        t.add("straight_line_m", trip.straightLineM, decimals: 2)
        return t.encoded
    }

    private func fencesJSON(detailed: Bool) -> String {
        guard let monitor = session.geofences else { return "[]" }
        let items = monitor.index.fences.enumerated().map { i, f -> String in
            let st = monitor.statuses[i]
            var o = JSONObject()
            o.add("id", f.id)
            o.add("name", f.name)
            if detailed { o.add("kind", f.shape.kind) }
            o.add("state", st.state.rawValue)
            o.add("since", st.since.map(Timestamp.iso8601))
            if detailed {
                o.add("last_event", st.lastEvent.map { k in
                    if case .state(let s) = k { return "state:\(s.rawValue)" }
                    return k.name
                })
            }
            return o.encoded
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// Seconds between two journal entries about malformed lines: a stream of garbage is
    /// counted, not logged line by line.
    static let malformedLogInterval = 60.0

    /// Counts a malformed line from gpsd and logs it, at most once per interval (with how many
    /// were skipped since the last entry).
    private func noteMalformed(_ reason: String) {
        malformed += 1
        malformedUnlogged += 1
        let now = MonotonicClock.now()
        guard now - lastMalformedLog >= Self.malformedLogInterval else { return }
        let more = malformedUnlogged > 1 ? " (\(malformedUnlogged) malformed lines since the last entry, \(malformed) in all)" : ""
        journal.log(LogEntry(event: "malformed", priority: .warning, message: "Malformed line from gpsd skipped: \(reason)\(more)",
                             fields: [("GPSTRACK_REASON", reason), ("GPSTRACK_SKIPPED", String(malformedUnlogged)),
                                      ("GPSTRACK_MALFORMED_TOTAL", String(malformed))]))
        lastMalformedLog = now
        malformedUnlogged = 0
    }

    /// Tells the watchdog that the actor is responsive.
    public func ping() { Liveness.shared.pingAnswered() }

    /// The trip's traveled distance so far, metres.
    public var traveledM: Double { session.tracker.trip.traveledM }

    private func loseFix(reason: String) {
        for epoch in assembler.flush() { process(epoch) }
        let events = session.fixLost()
        deliver(events, force: true)
        if !fixLost {
            fixLost = true
            emit(LogEntry(event: "fix_lost", priority: .warning, message: "GPS fix lost (\(reason))"))
        }
    }

    private func process(_ fix: Fix) {
        let events = session.ingest(fix)
        if case .accepted = session.tracker.lastOutcome {
            lastFixReceived = MonotonicClock.now()
            if fixLost {
                fixLost = false
                emit(LogEntry(event: "fix_acquired", priority: .info, message: "GPS fix acquired", fields: position(fix)))
            }
        } else if !fixLost, let t = fix.time, let last = session.tracker.lastAccepted?.time,
                  t - last > configuration.tracker.staleAfterS {
            fixLost = true
            emit(LogEntry(event: "fix_lost", priority: .warning, message: "GPS fix lost (no usable fix for \(Int(t - last)) s)"))
        }
        if case .accepted(true, _) = session.tracker.lastOutcome, let t = fix.time {
            pendingPoints.append(Store.PointRow(time: t, latitude: fix.latitude, longitude: fix.longitude,
                                                altitude: fix.altitude, eph: fix.horizontalError ?? .nan, mode: fix.mode))
        }
        if let store, let t = fix.time {
            store.retryIfDegraded(trip: session.tracker.trip)
            // Retention: once a day of fix time (and at the first fix), then one small step
            // per fix until done.
            if t - lastPrune >= 86_400 { lastPrune = t; pruneCutoff = t - configuration.retentionDays * 86_400 }
            if let cutoff = pruneCutoff, !store.pruneStep(before: cutoff) { pruneCutoff = nil }
        }
        deliver(events)
        if case .accepted = session.tracker.lastOutcome {
            publishLocation(fix)
            if let t = fix.time { steps?.observe(traveledM: session.tracker.trip.traveledM, at: t) }
        }
        if let t = fix.time, t - lastStatusTime >= 5 || !events.isEmpty {
            lastStatusTime = t
            Notifier.status(statusLine())
        }
    }

    /// `STATUS=` for systemd: fix, distance, fences inside.
    func statusLine() -> String {
        let fix = session.tracker.lastAccepted
        var s = fixLost || fix == nil ? "no fix" : "fix \(Self.coordinate(fix!.coordinate))"
        s += ", \(Self.metres(session.tracker.trip.traveledM)) traveled"
        if let monitor = session.geofences {
            let inside = monitor.index.fences.indices.filter { monitor.statuses[$0].state == .inside }
                .map { monitor.index.fences[$0].id }
            s += ", inside: " + (inside.isEmpty ? "none" : inside.prefix(5).joined(separator: ", ") + (inside.count > 5 ? ", …" : ""))
        }
        return s
    }

    private func entry(for e: TrackingSession.Sequenced) -> LogEntry {
        var fields: [(String, String)] = [("GPSTRACK_SEQ", String(e.seq)),
                                          ("GPSTRACK_TRAVELED_M", Self.number(session.tracker.trip.traveledM))]
        switch e.event {
        case .fence(let f):
            let fence = session.geofences?.index.fences[f.fence]
            let label = fence.map { $0.name.map { "\($0) (\(fence!.id))" } ?? $0.id } ?? "?"
            fields += [("GPSTRACK_FENCE", fence?.id ?? ""), ("GPSTRACK_FENCE_NAME", fence?.name ?? ""),
                       ("GPSTRACK_TIME", Timestamp.iso8601(f.time))]
            if let c = f.coordinate { fields += position(c) }
            if f.crossed { fields.append(("GPSTRACK_CROSSED", "1")) }
            switch f.kind {
            case .enter:
                let how = f.crossed ? " (passed through between two fixes)" : ""
                return LogEntry(event: "enter", priority: .notice, message: "Entered \(label)\(how)", fields: fields)
            case .exit:
                let how = f.crossed ? " (passed through between two fixes)" : ""
                return LogEntry(event: "exit", priority: .notice, message: "Left \(label)\(how)", fields: fields)
            case .dwell:
                let secs = Int(fence?.dwellS ?? 0)
                return LogEntry(event: "dwell", priority: .notice, message: "In \(label) for \(secs) s", fields: fields)
            case .state(let state):
                fields.append(("GPSTRACK_STATE", state.rawValue))
                return LogEntry(event: "state", priority: .info, message: "\(label) is \(state.rawValue)", fields: fields)
            }
        case .fencesDetermined(let c):
            fields += [("GPSTRACK_INSIDE", String(c.inside)), ("GPSTRACK_OUTSIDE", String(c.outside)),
                       ("GPSTRACK_UNKNOWN", String(c.unknown)), ("GPSTRACK_TIME", Timestamp.iso8601(c.time))]
            return LogEntry(event: "fences_determined", priority: .info,
                            message: "Fences determined: \(c.inside) inside, \(c.outside) outside, \(c.unknown) unknown", fields: fields)
        case .tracker(let t):
            switch t {
            case .tripStart(let trip, let time, let at):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time))] + position(at)
                if let trip { fields.append(("GPSTRACK_TRIP", String(trip))) }
                let label = trip.map { "Trip \($0)" } ?? "Trip"
                return LogEntry(event: "trip_start", priority: .info, message: "\(label) started at \(Self.coordinate(at))", fields: fields)
            case .tripEnd(let f):
                fields += [("GPSTRACK_TRIP", String(f.id)), ("GPSTRACK_START", Timestamp.iso8601(f.start)),
                           ("GPSTRACK_END", Timestamp.iso8601(f.end)), ("GPSTRACK_TIME", Timestamp.iso8601(f.end)),
                           ("GPSTRACK_FROM_LAT", "\(f.from.latitude)"), ("GPSTRACK_FROM_LON", "\(f.from.longitude)"),
                           ("GPSTRACK_FROM_FENCES", f.fromFences.joined(separator: ",")),
                           ("GPSTRACK_TO_LAT", "\(f.to.latitude)"), ("GPSTRACK_TO_LON", "\(f.to.longitude)"),
                           ("GPSTRACK_TO_FENCES", f.toFences.joined(separator: ",")),
                           ("GPSTRACK_TRIP_TRAVELED_M", Self.number(f.traveledM)),
                           ("GPSTRACK_STRAIGHT_LINE_M", Self.number(f.straightLineM)),
                           ("GPSTRACK_DURATION_S", Self.number(f.durationS)), ("GPSTRACK_MOVING_S", Self.number(f.movingS)),
                           ("GPSTRACK_MAX_SPEED_MPS", Self.number(f.maxSpeedMps)),
                           ("GPSTRACK_AVG_SPEED_MPS", Self.number(f.avgSpeedMps))] + position(f.to)
                let from = f.fromFences.first ?? Self.coordinate(f.from), to = f.toFences.first ?? Self.coordinate(f.to)
                return LogEntry(event: "trip_end", priority: .info,
                                message: "Trip \(f.id) ended: \(from) → \(to), \(Self.metres(f.traveledM)) in \(Int(f.durationS.rounded())) s",
                                fields: fields)
            case .tripStop(_, let traveled):
                return LogEntry(event: "trip_stop", priority: .info, message: "Trip stopped after \(Self.metres(traveled))", fields: fields)
            case .guardArmed(let time, let at, let radius):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time)), ("GPSTRACK_RADIUS_M", Self.number(radius))] + position(at)
                return LogEntry(event: "guard_armed", priority: .notice,
                                message: "Parked guard armed: \(Self.metres(radius)) around \(Self.coordinate(at))", fields: fields)
            case .guardBreach(let time, let at, let parked, let distance):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time)), ("GPSTRACK_DISTANCE_M", Self.number(distance)),
                           ("GPSTRACK_PARKED_LAT", "\(parked.latitude)"), ("GPSTRACK_PARKED_LON", "\(parked.longitude)")] + position(at)
                return LogEntry(event: "guard_breach", priority: .warning,
                                message: "Parked guard breached: \(Self.metres(distance)) from where it was parked", fields: fields)
            case .overspeedStart(let time, let at, let limit, let speed):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time)), ("GPSTRACK_LIMIT_KMH", Self.number(limit)),
                           ("GPSTRACK_SPEED_MPS", Self.number(speed))] + position(at)
                return LogEntry(event: "overspeed_start", priority: .notice,
                                message: "Over the \(Int(limit.rounded())) km/h limit", fields: fields)
            case .overspeedEnd(let time, let at, let limit, let maxSpeed, let duration, let distance):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time)), ("GPSTRACK_LIMIT_KMH", Self.number(limit)),
                           ("GPSTRACK_MAX_SPEED_MPS", Self.number(maxSpeed)), ("GPSTRACK_DURATION_S", Self.number(duration)),
                           ("GPSTRACK_DISTANCE_M", Self.number(distance))] + position(at)
                return LogEntry(event: "overspeed_end", priority: .notice,
                                message: "Back under the \(Int(limit.rounded())) km/h limit after \(Int(duration.rounded())) s, "
                                    + "\(Self.metres(distance)) over it, at most \(Int((maxSpeed * 3.6).rounded())) km/h", fields: fields)
            case .discontinuity(let time, let at, let counted):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time)), ("GPSTRACK_COUNTED", counted ? "1" : "0")] + position(at)
                return LogEntry(event: "discontinuity", priority: .info,
                                message: "Position or clock jumped; \(counted ? "hop counted" : "jump not counted")", fields: fields)
            }
        }
    }

    private func position(_ fix: Fix) -> [(String, String)] { position(fix.coordinate) }

    private func position(_ c: Coordinate) -> [(String, String)] {
        [("GPSTRACK_LAT", "\(c.latitude)"), ("GPSTRACK_LON", "\(c.longitude)")]
    }

    static func number(_ v: Double) -> String { JSONObject.number(v, decimals: 2) }
    static func metres(_ v: Double) -> String { "\(Int(v.rounded())) m" }
    static func coordinate(_ c: Coordinate) -> String {
        "\(JSONObject.number(c.latitude, decimals: 6)),\(JSONObject.number(c.longitude, decimals: 6))"
    }
}
