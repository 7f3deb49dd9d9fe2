import GPSTrackCore

/// What `status`, `fences` and the trip commands report of the tracker's state.
extension TrackerService {
    /// The `status` response.
    func statusJSON() -> String {
        var o = JSONObject()
        o.add("ok", true)
        var gpsd = JSONObject()
        gpsd.add("connected", gpsdConnected)
        gpsd.add("device", device)
        gpsd.add("address", "\(configuration.gpsdHost):\(configuration.gpsdPort)")
        if let dropped = gpsdDropped?() {
            gpsd.add("dropped_fixes", dropped.fixes)
            gpsd.add("dropped_malformed", dropped.malformed)
        }
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
        if let store {
            storage.add("dropped_events", store.droppedEvents)
            storage.add("dropped_points", store.droppedPoints)
        }
        o.add("storage", storage)
        o.add("steps", raw: steps?.statusJSON() ?? "null")
        if let mqtt {
            let st = mqtt.state
            var m = JSONObject()
            m.add("connected", st.connected)
            m.add("outbox", st.outbox)
            m.add("outbox_state", st.outboxFailure == nil ? "ok" : "degraded")
            m.add("outbox_reason", st.outboxFailure)
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
    func guardJSON() -> JSONObject {
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
    func openTripObject() -> JSONObject? {
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

    func tripJSON() -> String {
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

    func fencesJSON(detailed: Bool) -> String {
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
}
