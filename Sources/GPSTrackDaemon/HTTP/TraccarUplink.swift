import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The Traccar uplink: a tracker sink that turns steps into OsmAnd positions on the uplink's
/// durable outbox, which its sender thread delivers. A location goes at most every
/// `traccar_min_interval_s` and after `traccar_min_distance_m` (or `traccar_heartbeat_s`,
/// the keep-alive while parked); every trip start and end goes, and every alarm Traccar knows
/// (`tow` for a guard breach, `overspeed`) goes with its `alarm`.
public final class TraccarUplink: UplinkSink, LocationReporter {
    public let name = "traccar"
    let config: TraccarConfig
    let sender: UplinkSender
    let clock: UplinkClockCheck
    private let assumedErrorM: Double
    private let tripsAuto: Bool
    private var last: (time: Double, at: Coordinate)?
    private var odometerM = 0.0

    /// Loads libcurl and opens the outbox; a missing library is a configuration error.
    public init(configuration: Configuration, databasePath: String, journal: Journal, configFile: String)
        throws(ConfigError)
    {
        config = configuration.traccar
        let place = configuration.origins["traccar_url"] ?? configFile
        let client = try HTTPClient(caFile: config.caFile, timeoutS: config.timeoutS, place: place, key: "traccar_url")
        if let ca = config.caFile {
            do { _ = try FileIO.readAll(ca, maxBytes: 1 << 20) } catch {
                throw ConfigError(
                    file: configuration.origins["traccar_ca_file"] ?? configFile, line: nil,
                    message: "traccar_ca_file \(ca): cannot read: \(error)")
            }
        }
        assumedErrorM = configuration.tracker.assumedErrorM
        tripsAuto = configuration.tracker.tripMode == .auto
        let outbox = UplinkOutbox(uplink: name, databasePath: databasePath, limit: config.outboxMax)
        do { sender = try UplinkSender(name: name, outbox: outbox, journal: journal) } catch {
            throw ConfigError(file: configFile, line: nil, message: "traccar: \(error)")
        }
        clock = UplinkClockCheck(uplink: name, maxOffsetS: configuration.uplinkMaxClockOffsetS, journal: journal)
        let url = config.url ?? ""
        let send = client
        sender.start { m in
            // A message keeps the form it was queued in (a JSON body, or a query string).
            if m.payload.hasPrefix("{") {
                return send.send(
                    method: "POST", url: url, body: Array(m.payload.utf8), headers: ["Content-Type: application/json"])
            }
            let joined = url + (url.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + m.payload
            return send.send(method: "POST", url: joined, body: [], headers: [])
        }
    }

    public func take(_ step: TrackerStep, session: TrackingSession) -> [LogEntry] {
        if case .accepted(_, let hop) = step.outcome { odometerM += hop }
        let moving = tripsAuto ? session.tracker.trips.motion.0 == .moving : nil
        var forced: (kind: String, alarm: String?, time: Double, at: Coordinate)?
        for s in step.events {
            guard case .tracker(let e) = s.event else { continue }
            switch e {
            case .tripStart(_, let t, let at): forced = forced ?? ("trip", nil, t, at)
            case .tripEnd(let f): forced = forced ?? ("trip", nil, f.end, f.to)
            case .guardBreach(let t, let at, _, _): forced = ("alarm", "tow", t, at)
            case .overspeedStart(let t, let at, _, _): forced = ("alarm", "overspeed", t, at)
            default: break
            }
        }
        let fix = step.accepted ? step.fix : nil
        if let f = forced {
            // The step's fix where it is the event's, else the event's own time and place.
            let own = fix.flatMap { x in x.time.map { ($0, x.coordinate) } } ?? (f.time, f.at)
            queue(
                kind: f.kind, time: own.0, at: own.1, fix: fix ?? session.tracker.lastAccepted, alarm: f.alarm,
                moving: moving)
            return []
        }
        guard let fix, let t = fix.time else { return [] }
        if let last {
            let dt = t - last.time
            guard dt >= config.minIntervalS else { return [] }
            guard dt >= config.heartbeatS || Geodesic.distance(last.at, fix.coordinate) >= config.minDistanceM else {
                return []
            }
        }
        queue(kind: "location", time: t, at: fix.coordinate, fix: fix, alarm: nil, moving: moving)
        return []
    }

    /// `reportLocation`: the fix sent now, whatever the intervals.
    func reportLocation(_ fix: Fix, time t: Double, session: TrackingSession) {
        queue(kind: "location", time: t, at: fix.coordinate, fix: fix, alarm: nil, moving: nil)
    }

    private func queue(kind: String, time t: Double, at: Coordinate, fix: Fix?, alarm: String?, moving: Bool?) {
        guard clock.plausible(t) else { return }
        last = (t, at)
        let x = OsmAnd.Extras(
            deviceID: config.deviceID ?? "", moving: moving, odometerM: odometerM, alarm: alarm,
            assumedErrorM: assumedErrorM)
        let payload =
            config.format == .json
            ? OsmAnd.json(time: t, at: at, fix: fix, x) : OsmAnd.query(time: t, at: at, fix: fix, x)
        sender.outbox.store(kind: kind, payload: payload)
        sender.poke()
    }

    /// Stops the sender after the request in flight; what waits stays queued for the next start.
    public func stop() async { await sender.stop() }
}
