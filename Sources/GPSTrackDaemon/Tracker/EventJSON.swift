import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The core's events as their wire type, `EventLine`: one line shared by the store, `watch`,
/// `events` and replay, encoded once per event. Figures are rounded here, as the line has always
/// had them; the encoder writes what it is given.
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
        case .tracker(let t): body = Self.body(t)
        case .fence(let f): body = Self.body(f)
        case .fencesDetermined(let c):
            body = .fencesDetermined(
                .init(inside: c.inside, outside: c.outside, unknown: c.unknown, time: Timestamp.iso8601(c.time)))
        }
        return EventLine(body, seq: Int(e.seq))
    }

    /// A fence event: the fence by its id.
    static func body(_ e: FenceEvent) -> EventLine.Body {
        var f = EventLine.FenceChange(
            fence: e.fenceID, name: e.fenceName, time: Timestamp.iso8601(e.time),
            lat: e.coordinate?.latitude, lon: e.coordinate?.longitude, crossed: e.crossed ? true : nil)
        switch e.kind {
        case .enter: return .enter(f)
        case .exit: return .exit(f)
        case .dwell: return .dwell(f)
        case .state(let s):
            f.state = s.rawValue
            return .state(f)
        }
    }

    /// A tracker event.
    static func body(_ event: TrackerEvent) -> EventLine.Body {
        switch event {
        case .tripStart(let trip, let time, let at):
            return .tripStart(.init(trip: trip, time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude))
        case .guardArmed(let time, let at, let radius):
            return .guardArmed(
                .init(
                    time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude,
                    radiusM: radius.rounded(decimals: 1)))
        case .guardBreach(let time, let at, let parked, let distance):
            return .guardBreach(
                .init(
                    time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude,
                    distanceM: distance.rounded(decimals: 1), parked: place(parked, fences: [])))
        case .overspeedStart(let time, let at, let limit, let speed):
            return .overspeedStart(
                .init(
                    time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude,
                    limitKmh: limit.rounded(decimals: 1), speedMps: speed.rounded(decimals: 2)))
        case .overspeedEnd(let time, let at, let limit, let maxSpeed, let duration, let distance):
            return .overspeedEnd(
                .init(
                    time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude,
                    limitKmh: limit.rounded(decimals: 1), maxSpeedMps: maxSpeed.rounded(decimals: 2),
                    durationS: duration.rounded(decimals: 1), distanceM: distance.rounded(decimals: 1)))
        case .tripEnd(let f):
            return .tripEnd(
                .init(
                    trip: f.id, start: Timestamp.iso8601(f.start), end: Timestamp.iso8601(f.end),
                    from: place(f.from, fences: f.fromFences), to: place(f.to, fences: f.toFences),
                    traveledM: f.traveledM.rounded(decimals: 2), straightLineM: f.straightLineM.rounded(decimals: 2),
                    durationS: f.durationS.rounded(decimals: 1), movingS: f.movingS.rounded(decimals: 1),
                    maxSpeedMps: f.maxSpeedMps.rounded(decimals: 2), avgSpeedMps: f.avgSpeedMps.rounded(decimals: 2)))
        case .discontinuity(let time, let at, let counted):
            return .discontinuity(
                .init(time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude, counted: counted))
        case .tripStop(let time, let traveled):
            return .tripStop(.init(time: time.map(Timestamp.iso8601), traveledM: traveled.rounded(decimals: 2)))
        case .fixAcquired(let time, let at, let device):
            return .fixAcquired(
                .init(time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude, device: device))
        case .fixLost(let time, let reason, let device):
            return .fixLost(.init(time: time.map(Timestamp.iso8601), reason: reason.code, device: device))
        case .anchor(let a): return body(a)
        case .guardRepeat(let time, let at, let parked, let distance, let n):
            return .guardBreach(
                .init(
                    time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude,
                    distanceM: distance.rounded(decimals: 1), parked: place(parked, fences: []), repeat: n))
        case .guardAck(let time): return .guardAck(.init(time: Timestamp.iso8601(time)))
        case .guardNoPosition(let time, let silent, let n):
            return .guardNoPosition(
                .init(time: Timestamp.iso8601(time), silentS: silent.rounded(decimals: 1), repeat: n))
        }
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
