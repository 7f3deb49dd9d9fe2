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
    private var gpsdConnected = false
    private var device: String?
    private var lastFixReceived: Double?
    private let startedAt = TrackerService.monotonic()
    /// Where `watch` events go (the control server's broadcast), if anywhere.
    private var watchSink: (@Sendable (String) -> Void)?

    public init(configuration: Configuration, fences: FenceIndex?, journal: Journal) {
        self.configuration = configuration
        self.journal = journal
        session = TrackingSession(config: configuration.tracker, fences: fences)
    }

    /// Sends every event, as a JSON line, to `sink` from now on.
    public func setWatchSink(_ sink: @escaping @Sendable (String) -> Void) {
        watchSink = sink
    }

    static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
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
            for epoch in assembler.add(fix) { process(epoch) }
        case .record(.device(let path, let activated)):
            guard !activated else { device = path ?? device; return }
            device = nil
            emit(LogEntry(event: "device_removed", priority: .warning,
                                 message: "GPS receiver \(path ?? "") removed", fields: [("GPSTRACK_DEVICE", path ?? "")]))
            loseFix(reason: "receiver removed")
        case .record(.malformed(let reason)):
            malformed += 1
            if malformed <= 10 {
                journal.log(LogEntry(event: "malformed", priority: .warning, message: "Malformed report from gpsd skipped: \(reason)"))
            }
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

    /// Reloads the fences file; a bad file leaves the fences in force and says why. Returns
    /// the error message, or nil on success.
    @discardableResult
    public func reloadFences() -> String? {
        guard let path = configuration.fencesPath else {
            let message = "no fences file is configured"
            emit(LogEntry(event: "fences_reload_failed", priority: .warning, message: "Reload asked, but \(message)"))
            return message
        }
        do {
            let index = try FenceLoader.load(path)
            session.replaceFences(index)
            emit(LogEntry(event: "fences_reloaded", priority: .info, message: "Reloaded \(index.fences.count) fences from \(path)",
                          fields: [("GPSTRACK_FENCES", String(index.fences.count))]))
            return nil
        } catch {
            emit(LogEntry(event: "fences_reload_failed", priority: .warning,
                          message: "Fences not reloaded, the previous ones stay in force: \(error)"))
            return "fences not reloaded, the previous ones stay in force: \(error)"
        }
    }

    /// Ends the run: the pending epoch is processed and the trip's figures logged.
    public func finish() {
        for epoch in assembler.flush() { process(epoch) }
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
            report(session.startTrip())
            emit(LogEntry(event: "trip_reset", priority: .info, message: "Counting anew from the next fix (start)"))
            o.add("trip", raw: tripJSON())
        case .stop:
            report(session.stopTrip())
            o.add("trip", raw: tripJSON())
        case .reset:
            session.resetTrip()
            emit(LogEntry(event: "trip_reset", priority: .info, message: "Trip figures reset"))
            o.add("trip", raw: tripJSON())
        case .reload:
            if let error = reloadFences() { return (ControlError(error).line, false) }
            o.add("fences", session.geofences?.index.fences.count ?? 0)
        case .watch:
            o.add("watching", true)
            return (o.encoded, true)
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
            f.add("age_s", lastFixReceived.map { Self.monotonic() - $0 }, decimals: 1)
            o.add("fix", f)
        } else {
            o.add("fix", raw: "null")
        }
        o.add("trip", raw: tripJSON())
        o.add("fences", raw: fencesJSON(detailed: false))
        let c = session.tracker.counters
        var counters = JSONObject()
        counters.add("fixes_total", c.total)
        counters.add("fixes_accepted", c.accepted)
        var rejected = JSONObject()
        for (reason, n) in c.rejected.sorted(by: { $0.key < $1.key }) { rejected.add(reason.rawValue, n) }
        counters.add("fixes_rejected", rejected)
        o.add("counters", counters)
        o.add("seq", Int(session.seq))
        o.add("version", Daemon.version)
        o.add("uptime_s", Self.monotonic() - startedAt, decimals: 1)
        return o.encoded
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

    /// Answers when the actor is responsive (for the watchdog).
    public func ping() -> Bool { true }

    /// The trip's traveled distance so far, metres.
    public var traveledM: Double { session.tracker.trip.traveledM }

    private func loseFix(reason: String) {
        for epoch in assembler.flush() { process(epoch) }
        report(session.fixLost())
        if !fixLost {
            fixLost = true
            emit(LogEntry(event: "fix_lost", priority: .warning, message: "GPS fix lost (\(reason))"))
        }
    }

    private func process(_ fix: Fix) {
        let events = session.ingest(fix)
        if case .accepted = session.tracker.lastOutcome {
            lastFixReceived = Self.monotonic()
            if fixLost {
                fixLost = false
                emit(LogEntry(event: "fix_acquired", priority: .info, message: "GPS fix acquired", fields: position(fix)))
            }
        } else if !fixLost, let t = fix.time, let last = session.tracker.lastAccepted?.time,
                  t - last > configuration.tracker.staleAfterS {
            fixLost = true
            emit(LogEntry(event: "fix_lost", priority: .warning, message: "GPS fix lost (no usable fix for \(Int(t - last)) s)"))
        }
        report(events)
        if let t = fix.time, t - lastStatusTime >= 5 || !events.isEmpty {
            lastStatusTime = t
            Notifier.status(statusLine())
        }
    }

    private func report(_ events: [TrackingSession.Sequenced]) {
        for e in events { emit(entry(for: e), json: EventJSON.encode(e, fences: session.geofences?.index)) }
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
            switch f.kind {
            case .enter: return LogEntry(event: "enter", priority: .notice, message: "Entered \(label)", fields: fields)
            case .exit: return LogEntry(event: "exit", priority: .notice, message: "Left \(label)", fields: fields)
            case .dwell:
                let secs = Int(fence?.dwellS ?? 0)
                return LogEntry(event: "dwell", priority: .notice, message: "In \(label) for \(secs) s", fields: fields)
            case .state(let state):
                fields.append(("GPSTRACK_STATE", state.rawValue))
                return LogEntry(event: "state", priority: .info, message: "\(label) is \(state.rawValue)", fields: fields)
            }
        case .tracker(let t):
            switch t {
            case .tripStart(let time, let at):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time))] + position(at)
                return LogEntry(event: "trip_start", priority: .info, message: "Trip started at \(Self.coordinate(at))", fields: fields)
            case .tripStop(_, let traveled):
                return LogEntry(event: "trip_stop", priority: .info, message: "Trip stopped after \(Self.metres(traveled))", fields: fields)
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
