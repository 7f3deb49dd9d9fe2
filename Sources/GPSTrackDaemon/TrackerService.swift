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

    public init(configuration: Configuration, fences: FenceIndex?, journal: Journal) {
        self.configuration = configuration
        self.journal = journal
        session = TrackingSession(config: configuration.tracker, fences: fences)
    }

    /// Handles one report or state change of the gpsd source.
    public func handle(_ event: GPSDSource.Event) {
        switch event {
        case .record(.tpv(let fix)):
            for epoch in assembler.add(fix) { process(epoch) }
        case .record(.device(let path, let activated)):
            guard !activated else { return }
            journal.log(LogEntry(event: "device_removed", priority: .warning,
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
            journal.log(LogEntry(event: "gpsd_lost", priority: .warning, message: "Lost gpsd: \(reason); retrying",
                                 fields: [("GPSTRACK_GPSD", "\(configuration.gpsdHost):\(configuration.gpsdPort)")]))
            loseFix(reason: "gpsd lost")
        case .restored(let after):
            var message = "Receiving from gpsd at \(configuration.gpsdHost):\(configuration.gpsdPort)"
            if let after { message += " again after \(Int(after.rounded())) s" }
            journal.log(LogEntry(event: "gpsd_connected", priority: .info, message: message,
                                 fields: [("GPSTRACK_GPSD", "\(configuration.gpsdHost):\(configuration.gpsdPort)")]))
        }
    }

    /// Reloads the fences file; a bad file leaves the fences in force and says why.
    public func reloadFences() {
        guard let path = configuration.fencesPath else {
            journal.log(LogEntry(event: "fences_reload_failed", priority: .warning, message: "Reload asked, but no fences file is configured"))
            return
        }
        do {
            let index = try FenceLoader.load(path)
            session.replaceFences(index)
            journal.log(LogEntry(event: "fences_reloaded", priority: .info, message: "Reloaded \(index.fences.count) fences from \(path)",
                                 fields: [("GPSTRACK_FENCES", String(index.fences.count))]))
        } catch {
            journal.log(LogEntry(event: "fences_reload_failed", priority: .warning,
                                 message: "Fences not reloaded, the previous ones stay in force: \(error)"))
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

    /// Answers when the actor is responsive (for the watchdog).
    public func ping() -> Bool { true }

    /// The trip's traveled distance so far, metres.
    public var traveledM: Double { session.tracker.trip.traveledM }

    private func loseFix(reason: String) {
        for epoch in assembler.flush() { process(epoch) }
        report(session.fixLost())
        if !fixLost {
            fixLost = true
            journal.log(LogEntry(event: "fix_lost", priority: .warning, message: "GPS fix lost (\(reason))"))
        }
    }

    private func process(_ fix: Fix) {
        let events = session.ingest(fix)
        if case .accepted = session.tracker.lastOutcome {
            if fixLost {
                fixLost = false
                journal.log(LogEntry(event: "fix_acquired", priority: .info, message: "GPS fix acquired", fields: position(fix)))
            }
        } else if !fixLost, let t = fix.time, let last = session.tracker.lastAccepted?.time,
                  t - last > configuration.tracker.staleAfterS {
            fixLost = true
            journal.log(LogEntry(event: "fix_lost", priority: .warning, message: "GPS fix lost (no usable fix for \(Int(t - last)) s)"))
        }
        report(events)
        if let t = fix.time, t - lastStatusTime >= 5 || !events.isEmpty {
            lastStatusTime = t
            Notifier.status(statusLine())
        }
    }

    private func report(_ events: [TrackingSession.Sequenced]) {
        for e in events { journal.log(entry(for: e)) }
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
