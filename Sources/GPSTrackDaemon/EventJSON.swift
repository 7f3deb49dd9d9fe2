import GPSTrackCore

/// JSON encodings of tracker events and positions, shared by replay and (later) the socket.
public enum EventJSON {
    /// One event as a JSON line: `{"event":"trip_start","time":"…","lat":…,"lon":…}`.
    public static func encode(_ event: TrackerEvent) -> String {
        var o = JSONObject()
        o.add("event", event.name)
        switch event {
        case .tripStart(let time, let at):
            o.add("time", Timestamp.iso8601(time))
            o.add("lat", at.latitude)
            o.add("lon", at.longitude)
        case .discontinuity(let time, let at, let counted):
            o.add("time", Timestamp.iso8601(time))
            o.add("lat", at.latitude)
            o.add("lon", at.longitude)
            o.add("counted", counted)
        case .tripStop(let time, let traveled):
            o.add("time", time.map(Timestamp.iso8601))
            o.add("traveled_m", traveled, decimals: 2)
        }
        return o.encoded
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
