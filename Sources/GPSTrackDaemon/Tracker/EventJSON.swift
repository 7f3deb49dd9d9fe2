import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The core's events as their wire type, `EventLine`: one line shared by the store, `watch`,
/// `events` and replay, encoded once per event. Figures are rounded here (a tracker event's in
/// `TrackerEvent.lineBody`), as the line has always had them; the encoder writes what it is given.
public enum EventJSON {
    /// One sequenced event as a JSON line, e.g.
    /// `{"event":"enter","fence":"home","name":"Home","time":"…","lat":…,"lon":…,"seq":3}`.
    public static func encode(_ e: TrackingSession.Sequenced) -> String {
        ReplyEncoder.encode(line(e))
    }

    /// One sequenced event as the type gpstrackctl reads.
    public static func line(_ e: TrackingSession.Sequenced) -> EventLine {
        let body: EventLine.Body
        switch e.event {
        case .tracker(let t): body = t.lineBody
        case .fence(let f): body = f.lineBody
        case .fencesDetermined(let c):
            body = .fencesDetermined(
                .init(inside: c.inside, outside: c.outside, unknown: c.unknown, time: Timestamp.iso8601(c.time)))
        }
        return EventLine(body, seq: Int(e.seq))
    }

    /// One end of a trip: `{"lat":…,"lon":…,"fences":[…]}`.
    static func place(_ c: Coordinate, fences: [String]) -> Place {
        Place(lat: c.latitude, lon: c.longitude, fences: fences)
    }

    /// A position and its time, `{"lat":…,"lon":…,"time":"…"}` (time null when unknown).
    public struct TimedPoint: Encodable, Sendable {
        public var lat: Double
        public var lon: Double
        public var time: String?
    }

    /// The point at `c`, or nil (written `null`) without a position.
    public static func point(_ c: Coordinate?, time: Double?) -> TimedPoint? {
        c.map { TimedPoint(lat: $0.latitude, lon: $0.longitude, time: time.map(Timestamp.iso8601)) }
    }
}
