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
    let uplink = UplinkName.traccar
    public let name = UplinkName.traccar.rawValue
    let config: TraccarConfig
    let sender: UplinkSender
    let clock: UplinkClockCheck
    private let assumedErrorM: Double
    private let tripsAuto: Bool
    private var throttle: LocationThrottle
    private var odometerM = 0.0
    /// The inputs as the last step left them, for every position.
    private var inputs = InputMonitor()
    /// The last position queued: Traccar drops an alarm its device's last position had already
    /// (`AlarmEventHandler` with `event.ignoreDuplicateAlerts`, on by default), so an alarm
    /// after the same alarm (or after a start, not knowing) goes behind a position without it,
    /// and each repeat reaches a Traccar user as an event.
    private var lastSent = LastSent.unknown
    private enum LastSent: Equatable {
        case unknown
        case plain
        case alarm(String)
    }

    /// Loads libcurl and opens the outbox; a missing library is a configuration error.
    /// `transport` nil: libcurl (`HTTPClient`), loaded here.
    init(
        configuration: Configuration, file: StateDatabase, journal: Journal, configFile: String,
        transport: (any HTTPTransport)? = nil
    ) throws(ConfigError) {
        config = configuration.traccar
        let place = configuration.origins["traccar_url"] ?? configFile
        let tls = HTTPClient.TLSFiles(
            certFile: config.clientCertFile, keyFile: config.clientKeyFile, caKey: "traccar_ca_file")
        let client = try HTTPClient.transport(
            transport, caFile: config.caFile, tls: tls, timeoutS: config.timeoutS, place: place, key: "traccar_url")
        try HTTPClient.checkReadable(
            [
                ("traccar_ca_file", config.caFile), ("traccar_client_cert_file", config.clientCertFile),
                ("traccar_client_key_file", config.clientKeyFile),
            ], configuration: configuration, configFile: configFile)
        assumedErrorM = configuration.tracker.assumedErrorM
        tripsAuto = configuration.tracker.tripMode == .auto
        throttle = LocationThrottle(
            minIntervalS: config.minIntervalS, minDistanceM: config.minDistanceM, heartbeatS: config.heartbeatS)
        let outbox = Outbox(
            uplink: name, file: file, limit: config.outboxMax, maxAgeS: config.maxAgeS)
        do { sender = try UplinkSender(name: name, outbox: outbox, journal: journal) } catch {
            throw ConfigError(file: configFile, line: nil, message: "traccar: \(error)")
        }
        clock = UplinkClockCheck(uplink: name, maxOffsetS: configuration.uplinkMaxClockOffsetS, journal: journal)
        let url = config.url ?? ""
        let send = client
        let format = Self.form(config.format)
        sender.start { m in
            // A message keeps the form it was queued in (the outbox keeps it with the row), even
            // when `traccar_format` changed since; one without (damaged) goes in today's.
            switch m.form ?? format {
            case .json:
                return send.send(
                    method: "POST", url: url, body: Array(m.payload.utf8), headers: ["Content-Type: application/json"])
            case .query:
                let joined = url + (url.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + m.payload
                return send.send(method: "POST", url: joined, body: [], headers: [])
            }
        }
    }

    public func take(_ step: TrackerStep) -> [LogEntry] {
        if case .accepted(_, let hop) = step.outcome { odometerM += hop }
        let moving = tripsAuto ? step.tracker.trips.motion.0 == .moving : nil
        var forced: (kind: OutboxKind, alarm: String?, time: Double, at: Coordinate)?
        inputs = step.inputs
        var alarms: [(alarm: String, time: Double, at: Coordinate, speed: Double?)] = []
        for s in step.events {
            // Every kind named here (no catch-all): a new kind does not compile until Traccar's
            // part in it is decided.
            let e: TrackerEvent
            switch s.event {
            case .tracker(let t): e = t
            case .fence, .fencesDetermined: continue
            }
            switch e {
            case .tripStart(_, let t, let at): forced = forced ?? (.trip, nil, t, at)
            case .tripEnd(let f): forced = forced ?? (.trip, nil, f.end, f.to)
            // A latched breach said again is sent again, as the anchor's alarms are, from where
            // the vehicle is now and at its speed.
            case .guardBreach(let t, let at, _, _, let v), .guardRepeat(let t, let at, _, _, let v, _):
                alarms.append(("tow", t, at, v))
            case .overspeedStart(let t, let at, _, let v): alarms.append(("overspeed", t, at, v))
            // The anchor dragging is Traccar's `movement`; blind at anchor, its `general` (with
            // the repeats: latched until acknowledged, said again until then).
            case .anchor(.alarm(let t, let at, _, _)): alarms.append(("movement", t, at, nil))
            case .anchor(.noPosition(let t, _, _)):
                let at = step.tracker.lastAccepted?.coordinate ?? step.anchor?.anchor
                if let at { alarms.append(("general", t, at, nil)) }
            // The inputs: Traccar's own alarms, from where the vehicle last was; a position at
            // every ignition change, which carries `ignition`.
            case .input(.powerLost(let t, let at?, _, _, _)): alarms.append(("powerCut", t, at, nil))
            case .input(.powerRestored(let t, let at?, _, _)): alarms.append(("powerRestored", t, at, nil))
            case .input(.batteryLow(let t, let at?, _)): alarms.append(("lowBattery", t, at, nil))
            case .input(.sos(let t, let at?, _)): alarms.append(("sos", t, at, nil))
            case .input(.ignitionOn(let t, let at?)), .input(.ignitionOff(let t, let at?, _, _)):
                forced = forced ?? (.trip, nil, t, at)
            // Before any fix there is no position to send.
            case .input(.powerLost(_, nil, _, _, _)), .input(.powerRestored(_, nil, _, _)),
                .input(.batteryLow(_, nil, _)),
                .input(.sos(_, nil, _)), .input(.ignitionOn(_, nil)), .input(.ignitionOff(_, nil, _, _)),
                .input(.sosAck):
                break
            case .anchor(.dropped), .anchor(.warning), .anchor(.acknowledged), .anchor(.raised), .guardArmed,
                .guardArmRefused, .guardAck, .guardNoPosition, .overspeedEnd, .tripStop, .discontinuity, .fixAcquired,
                .fixLost:
                break
            }
        }
        let fix = step.accepted ? step.fix : nil
        // An alarm at its event's time and place (an overspeed's is where the excess began, a
        // fix or more before this one), with this fix's other values and the event's speed.
        for a in alarms {
            var values = fix ?? step.tracker.lastAccepted
            if let v = a.speed { values?.speed = v }
            if lastSent == .unknown || lastSent == .alarm(a.alarm) {
                queue(kind: .alarm, time: a.time, at: a.at, fix: values, alarm: nil, moving: moving)
            }
            queue(kind: .alarm, time: a.time, at: a.at, fix: values, alarm: a.alarm, moving: moving)
        }
        if !alarms.isEmpty, forced == nil { return [] }
        if let f = forced {
            // The step's fix where it is the event's, else the event's own time and place.
            let own = fix.flatMap { x in x.time.map { ($0, x.coordinate) } } ?? (f.time, f.at)
            queue(
                kind: f.kind, time: own.0, at: own.1, fix: fix ?? step.tracker.lastAccepted, alarm: f.alarm,
                moving: moving)
            return []
        }
        guard let fix, let t = fix.time, throttle.due(time: t, at: fix.coordinate) else { return [] }
        queue(kind: .location, time: t, at: fix.coordinate, fix: fix, alarm: nil, moving: moving)
        return []
    }

    /// `reportLocation`: the fix sent now, whatever the intervals.
    func reportLocation(_ fix: Fix, time t: Double, inside: [String]?) {
        queue(kind: .location, time: t, at: fix.coordinate, fix: fix, alarm: nil, moving: nil)
    }

    private func queue(kind: OutboxKind, time t: Double, at: Coordinate, fix: Fix?, alarm: String?, moving: Bool?) {
        guard clock.plausible(t) else { return }
        throttle.sent(time: t, at: at)
        lastSent = alarm.map { .alarm($0) } ?? .plain
        let x = OsmAnd.Extras(
            deviceID: config.deviceID ?? "", moving: moving, odometerM: odometerM, alarm: alarm,
            assumedErrorM: assumedErrorM, ignition: inputs.ignition, batteryPct: inputs.batteryPct,
            charge: inputs.power, powerV: inputs.volts)
        let payload =
            switch config.format {
            case .json: OsmAnd.json(time: t, at: at, fix: fix, x)
            case .query: OsmAnd.query(time: t, at: at, fix: fix, x)
            }
        sender.outbox.store(kind, payload: payload, fixTime: t, form: Self.form(config.format))
        sender.poke()
    }

    /// The outbox's form of a payload made in `format`.
    static func form(_ format: TraccarConfig.Format) -> Outbox.Form {
        switch format {
        case .json: .json
        case .query: .query
        }
    }

    /// Stops the sender after the request in flight; what waits stays queued for the next start.
    public func stop() async { await sender.stop() }
}
