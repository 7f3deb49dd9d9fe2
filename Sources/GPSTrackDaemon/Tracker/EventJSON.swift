import GPSTrackCore

/// JSON encodings of tracker events and positions, shared by replay and (later) the socket.
public enum EventJSON {
    /// One sequenced event as a JSON line, e.g.
    /// `{"event":"enter","fence":"home","name":"Home","time":"…","lat":…,"lon":…,"seq":3}`.
    public static func encode(_ e: TrackingSession.Sequenced, fences: FenceIndex?) -> String {
        var o: JSONObject
        switch e.event {
        case .tracker(let t): o = object(t)
        case .fence(let f): o = object(f, fences: fences)
        case .fencesDetermined(let c): o = object(c)
        }
        o.add("seq", Int(e.seq))
        return o.encoded
    }

    /// A fence event's fields.
    public static func object(_ e: FenceEvent, fences: FenceIndex?) -> JSONObject {
        var o = JSONObject()
        o.add("event", e.kind.name)
        o.add("fence", e.fenceID)
        o.add("name", e.fenceName)
        if case .state(let s) = e.kind { o.add("state", s.rawValue) }
        o.add("time", Timestamp.iso8601(e.time))
        o.add("lat", e.coordinate?.latitude)
        o.add("lon", e.coordinate?.longitude)
        if e.crossed { o.add("crossed", true) }
        return o
    }

    /// `{"event":"fences_determined","inside":N,"outside":N,"unknown":N,"time":…}`.
    public static func object(_ c: FenceCounts) -> JSONObject {
        var o = JSONObject()
        o.add("event", "fences_determined")
        o.add("inside", c.inside)
        o.add("outside", c.outside)
        o.add("unknown", c.unknown)
        o.add("time", Timestamp.iso8601(c.time))
        return o
    }

    /// A tracker event's fields.
    public static func object(_ event: TrackerEvent) -> JSONObject {
        var o = JSONObject()
        o.add("event", event.name)
        switch event {
        case .tripStart(let trip, let time, let at):
            if let trip { o.add("trip", trip) }
            o.add("time", Timestamp.iso8601(time))
            o.add("lat", at.latitude)
            o.add("lon", at.longitude)
        case .guardArmed(let time, let at, let radius):
            o.add("time", Timestamp.iso8601(time))
            o.add("lat", at.latitude)
            o.add("lon", at.longitude)
            o.add("radius_m", radius, decimals: 1)
        case .guardBreach(let time, let at, let parked, let distance):
            o.add("time", Timestamp.iso8601(time))
            o.add("lat", at.latitude)
            o.add("lon", at.longitude)
            o.add("distance_m", distance, decimals: 1)
            o.add("parked", place(parked, fences: []))
        case .overspeedStart(let time, let at, let limit, let speed):
            o.add("time", Timestamp.iso8601(time))
            o.add("lat", at.latitude)
            o.add("lon", at.longitude)
            o.add("limit_kmh", limit, decimals: 1)
            o.add("speed_mps", speed, decimals: 2)
        case .overspeedEnd(let time, let at, let limit, let maxSpeed, let duration, let distance):
            o.add("time", Timestamp.iso8601(time))
            o.add("lat", at.latitude)
            o.add("lon", at.longitude)
            o.add("limit_kmh", limit, decimals: 1)
            o.add("max_speed_mps", maxSpeed, decimals: 2)
            o.add("duration_s", duration, decimals: 1)
            o.add("distance_m", distance, decimals: 1)
        case .tripEnd(let f):
            o.add("trip", f.id)
            o.add("start", Timestamp.iso8601(f.start))
            o.add("end", Timestamp.iso8601(f.end))
            o.add("from", place(f.from, fences: f.fromFences))
            o.add("to", place(f.to, fences: f.toFences))
            o.add("traveled_m", f.traveledM, decimals: 2)
            o.add("straight_line_m", f.straightLineM, decimals: 2)
            o.add("duration_s", f.durationS, decimals: 1)
            o.add("moving_s", f.movingS, decimals: 1)
            o.add("max_speed_mps", f.maxSpeedMps, decimals: 2)
            o.add("avg_speed_mps", f.avgSpeedMps, decimals: 2)
        case .discontinuity(let time, let at, let counted):
            o.add("time", Timestamp.iso8601(time))
            o.add("lat", at.latitude)
            o.add("lon", at.longitude)
            o.add("counted", counted)
        case .tripStop(let time, let traveled):
            o.add("time", time.map(Timestamp.iso8601))
            o.add("traveled_m", traveled, decimals: 2)
        }
        return o
    }

    /// `{"lat":…,"lon":…,"fences":[…]}`: one end of a trip.
    public static func place(_ c: Coordinate, fences: [String]) -> JSONObject {
        var o = JSONObject()
        o.add("lat", c.latitude)
        o.add("lon", c.longitude)
        o.add("fences", raw: "[" + fences.map(JSONObject.quote).joined(separator: ",") + "]")
        return o
    }

    /// `{"lat":…,"lon":…,"time":"…"}`, or `null` without a position.
    public static func point(_ c: Coordinate?, time: Double?) -> String {
        guard let c else { return "null" }
        var o = JSONObject()
        o.add("lat", c.latitude)
        o.add("lon", c.longitude)
        o.add("time", time.map(Timestamp.iso8601))
        return o.encoded
    }
}
