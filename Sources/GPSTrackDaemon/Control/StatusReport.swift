import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// What `status`, `fences` and the trip commands report of the tracker's state.
extension TrackerService {

    /// The `status` reply.
    func statusReply() -> StatusReply {
        var r = StatusReply()
        r.gpsd.connected = gpsdConnected
        r.gpsd.device = device
        r.gpsd.address = "\(configuration.gpsdHost):\(configuration.gpsdPort)"
        r.receivers = receiverStatuses()
        if let dropped = gpsdDropped?() {
            r.gpsd.droppedFixes = dropped.fixes
            r.gpsd.droppedMalformed = dropped.malformed
        }
        if let fix = session.tracker.lastAccepted, !fixLost {
            var f = StatusReply.FixStatus()
            f.mode = fix.mode
            f.time = fix.time.map(Timestamp.iso8601)
            f.lat = fix.latitude
            f.lon = fix.longitude
            f.eph = fix.horizontalError?.rounded(decimals: 2)
            f.speed = fix.speed.rounded(decimals: 3)
            f.track = fix.track.rounded(decimals: 1)
            f.courseText =
                CourseText(track: fix.track, speed: fix.speed, minimumSpeed: configuration.tracker.minCourseSpeedMps)
                .text
            f.ageS = lastFixReceived.map { (MonotonicClock.now() - $0).rounded(decimals: 1) }
            r.fix = f
        }
        r.trip = manualTrip()
        if configuration.tracker.tripMode == .auto {
            let (motion, since) = session.tracker.trips.motion
            r.motion = StatusReply.MotionStatus(state: motion.rawValue, since: since.map(Timestamp.iso8601))
            r.motion?.shortMoves = session.tracker.trips.shortMoves
            r.motion?.movedM = session.tracker.trips.movedM.rounded(decimals: 2)
            r.currentTrip = .some(openTrip())
            r.guard = guardStatus()
        }
        r.fences = fenceStatuses(detailed: false)
        r.anchor = anchorStatus()  // the anchor watch (AnchorCommands.swift)
        let c = session.tracker.counters
        r.counters.fixesTotal = c.total
        r.counters.fixesAccepted = c.accepted
        r.counters.fixesDelivered = c.delivered
        r.counters.fixesRejected = NamedCounts(
            Dictionary(uniqueKeysWithValues: c.rejected.map { ($0.key.rawValue, $0.value) }))
        r.storage.state = store == nil ? "off" : store?.degradedReason == nil ? "ok" : "degraded"
        r.storage.reason = store?.degradedReason
        r.storage.path = store?.path
        if let store {
            r.storage.droppedEvents = store.droppedEvents
            r.storage.droppedPoints = store.droppedPoints
            r.storage.thinnedPoints = store.thinnedPoints
            r.storage.thinnedLocations = store.thinnedLocations
            r.storage.waitingEvents = store.waitingEvents
            r.storage.waitingPoints = store.waitingPoints
        }
        r.steps = stepsSink?.figures.status()
        if let mqtt {
            let st = mqtt.state
            var m = StatusReply.MQTTStatus()
            m.connected = st.connected
            m.outbox = st.outbox
            m.outboxState = st.outboxFailure == nil ? "ok" : "degraded"
            m.outboxReason = st.outboxFailure
            m.broker = "\(mqtt.config.host ?? ""):\(mqtt.config.port)"
            m.topic = mqtt.baseTopic
            let now = Double(time(nil))
            m.oldestAgeS = st.outbox > 0 ? st.oldest.map { max(0, now - $0).rounded(decimals: 1) } : nil
            m.lastSuccess = st.lastSuccess.map(Timestamp.iso8601)
            r.mqtt = m
        }
        r.uplinks = uplinksStatus()
        r.seq = Int(session.seq)
        r.version = Daemon.version
        r.uptimeS = (MonotonicClock.now() - startedAt).rounded(decimals: 1)
        r.gpsd.reconnects = gpsdReconnects
        r.eventsTotal = NamedCounts(journalSink.counts)
        if configuration.tracker.tripMode == .auto { r.tripsTotal = session.tracker.trips.tripsEnded }
        if let sky, selector.followed == nil || selector.followed == "" || sky.device == selector.followed {
            var k = StatusReply.SkyStatus()
            k.device = sky.device
            k.satellitesUsed = sky.used
            k.satellitesSeen = sky.seen
            (k.hdop, k.vdop, k.pdop) = (sky.hdop, sky.vdop, sky.pdop)
            r.sky = k
        }
        r.clockOffsetS = clockOffsetS?.rounded(decimals: 3)
        r.today = sinks.lazy.compactMap { $0 as? DayDistance }.first?.status(session: session)
        return r
    }

    /// The parked guard's state for `status` and `guard`.
    func guardStatus() -> GuardStatus {
        let g = session.tracker.parkedGuard
        var j = GuardStatus()
        j.state = g.state
        if let at = g.armedAt {
            j.armedAt = LatLon(lat: at.latitude, lon: at.longitude)
            j.since = .some(g.armedSince.map(Timestamp.iso8601))
            j.radiusM = configuration.tracker.guardRadiusM.rounded(decimals: 1)
        }
        j.alarm = g.alarmState  // the latched breach (GuardAck.swift)
        return j
    }

    /// One automatic trip for `trips` and `status`.
    static func autoTrip(_ f: TripFigures, state: String) -> AutoTrip {
        var j = AutoTrip(
            id: f.id, state: state, startedAt: Timestamp.iso8601(f.start),
            from: place(f.from, fences: f.fromFences), traveledM: f.traveledM.rounded(decimals: 2))
        j.endedAt = Timestamp.iso8601(f.end)
        j.to = place(f.to, fences: f.toFences)
        j.straightLineM = f.straightLineM.rounded(decimals: 2)
        j.durationS = f.durationS.rounded(decimals: 1)
        j.movingS = f.movingS.rounded(decimals: 1)
        j.maxSpeedMps = f.maxSpeedMps.rounded(decimals: 2)
        j.avgSpeedMps = f.avgSpeedMps.rounded(decimals: 2)
        return j
    }

    static func place(_ c: Coordinate, fences: [String]) -> Place {
        Place(lat: c.latitude, lon: c.longitude, fences: fences)
    }

    /// The open automatic trip so far, if one is open.
    func openTrip() -> AutoTrip? {
        guard let open = session.tracker.trips.openTrip else { return nil }
        var j = AutoTrip(
            id: open.id, state: "open", startedAt: Timestamp.iso8601(open.start),
            from: Self.place(open.from, fences: session.fenceNames(at: open.from)),
            traveledM: open.traveledM.rounded(decimals: 2))
        if let now = session.tracker.lastAccepted?.time { j.durationS = (now - open.start).rounded(decimals: 1) }
        return j
    }

    /// The manual trip counter for `status`, `start`, `stop` and `reset`.
    func manualTrip() -> ManualTrip {
        let trip = session.tracker.trip
        var t = ManualTrip()
        t.state = trip.state.rawValue
        t.startedAt = trip.startedAt.map(Timestamp.iso8601)
        t.start = trip.start.map { LatLon(lat: $0.latitude, lon: $0.longitude) }
        t.traveledM = trip.traveledM.rounded(decimals: 2)
        t.straightLineM = trip.straightLineM.rounded(decimals: 2)
        return t
    }

    func fenceStatuses(detailed: Bool) -> [FenceReport] {
        guard let monitor = session.geofences else { return [] }
        return monitor.index.fences.enumerated().map { i, f in
            let st = monitor.statuses[i]
            var o = FenceReport()
            o.id = f.id
            o.name = f.name
            if detailed { o.kind = f.shape.kind }
            o.state = st.state.rawValue
            o.since = st.since.map(Timestamp.iso8601)
            if detailed {
                o.lastEvent = .some(
                    st.lastEvent.map { k in
                        if case .state(let s) = k { return "state:\(s.rawValue)" }
                        return k.name
                    })
            }
            return o
        }
    }
}
