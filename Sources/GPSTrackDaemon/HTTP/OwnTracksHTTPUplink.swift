import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// OwnTracks over HTTP: the MQTT publisher's `location`, `transition` and `waypoints` payloads
/// (OwnTracks.swift) POSTed to a URL, the Recorder's `/pub` or Home Assistant's webhook, with
/// `X-Limit-U`/`X-Limit-D` and optional basic authentication, on the uplink's durable outbox.
/// The JSON array the server answers with is read: its `cmd` objects run as the broker's do
/// (`OwnTracksHTTPCommands`). With `mqtt_secret_file` every body is encrypted as on MQTT.
public final class OwnTracksHTTPUplink: UplinkSink, LocationReporter {
    public let name = "owntracks_http"
    let config: OwnTracksHTTPConfig
    let sender: UplinkSender
    let clock: UplinkClockCheck
    /// The commands in the server's replies, and where their answers go.
    let commands: OwnTracksHTTPCommands
    let tid: String
    private let assumedErrorM: Double
    private var throttle: LocationThrottle
    private var fencesLoadedAt = Int(time(nil))
    /// The waypoints go with the first step (the sinks hear no start) and after each reload.
    private var waypointsSent = false

    init(configuration: Configuration, file: StateDatabase, journal: Journal, configFile: String)
        throws(ConfigError)
    {
        config = configuration.owntracksHTTP
        func place(_ key: String) -> String { configuration.origins[key] ?? configFile }
        let client = try HTTPClient(
            caFile: config.caFile, tls: HTTPClient.TLSFiles(caKey: "owntracks_http_ca_file"), timeoutS: 30,
            place: place("owntracks_http_url"), key: "owntracks_http_url")
        try HTTPClient.checkReadable(
            [("owntracks_http_ca_file", config.caFile)], configuration: configuration, configFile: configFile)
        var userpwd: String?
        if let file = config.passwordFile, let user = config.user {
            let bytes: [UInt8]
            do { bytes = try FileIO.readAll(file, maxBytes: 4096, regularOnly: true) } catch {
                throw ConfigError(
                    file: place("owntracks_http_password_file"), line: nil,
                    message: "owntracks_http_password_file \(file): cannot read: \(error)")
            }
            switch MQTTPublisher.password(from: bytes) {
            case .success(let p): userpwd = user + ":" + p
            case .failure(let problem):
                throw ConfigError(
                    file: place("owntracks_http_password_file"), line: nil,
                    message: "owntracks_http_password_file \(file): \(problem.message)")
            }
        }
        let device = config.device ?? OwnTracks.hostDevice()
        tid = OwnTracks.trackerID(device: device)
        assumedErrorM = configuration.tracker.assumedErrorM
        throttle = LocationThrottle(
            minIntervalS: config.minIntervalS, minDistanceM: config.minDistanceM, heartbeatS: config.heartbeatS)
        let outbox = Outbox(
            uplink: name, file: file, limit: config.outboxMax, maxAgeS: config.maxAgeS)
        do { sender = try UplinkSender(name: name, outbox: outbox, journal: journal) } catch {
            throw ConfigError(file: configFile, line: nil, message: "owntracks_http: \(error)")
        }
        clock = UplinkClockCheck(uplink: name, maxOffsetS: configuration.uplinkMaxClockOffsetS, journal: journal)
        let crypto = try MQTTPublisher.crypto(
            configuration.mqtt.secretFile, place: place("mqtt_secret_file"),
            warn: configuration.mqtt.host == nil ? journal : nil)  // said once: by MQTT when both
        commands = OwnTracksHTTPCommands(config: configuration.mqtt, sender: sender, journal: journal, crypto: crypto)
        let channel = commands
        let url = config.url ?? ""
        let login = userpwd
        let headers = [
            "Content-Type: application/json", "X-Limit-U: \(config.user ?? "gpstrackd")", "X-Limit-D: \(device)",
        ]
        let send = client
        sender.start { m in
            let body = Array((crypto?.seal(Array(m.payload.utf8)) ?? m.payload).utf8)
            let r = send.send(method: "POST", url: url, body: body, headers: headers, userpwd: login)
            if r.succeeded { channel.read(r.body) }
            return r
        }
    }

    /// `reportLocation`: the fix as a `location` with `t: "r"`, now, whatever the intervals.
    func reportLocation(_ fix: Fix, time t: Double, session: TrackingSession) {
        let inside = session.geofences == nil ? nil : session.insideFenceNames
        queue(
            .location, time: t,
            OwnTracks.location(fix, time: t, tid: tid, assumedErrorM: assumedErrorM, inRegions: inside, trigger: "r"))
    }

    public func take(_ step: TrackerStep, session: TrackingSession) -> [LogEntry] {
        if !waypointsSent { fencesReplaced(session: session) }
        let acc = OwnTracks.accuracy(session.tracker.lastAccepted?.horizontalError, assumed: assumedErrorM)
        for s in step.events {
            // The same transitions as on the broker (the anchor's too), by the one rule.
            guard
                let m = OwnTracks.message(
                    for: s.event, tid: tid, fencesLoadedAt: fencesLoadedAt, acc: acc, session: session)
            else { continue }
            queue(m.isAlarm ? .alarm : .transition, time: m.time, m.payload)
        }
        guard step.accepted, let fix = step.fix, let t = fix.time, throttle.due(time: t, at: fix.coordinate) else {
            return []
        }
        let inside = session.geofences.map { monitor in
            monitor.index.fences.indices.filter { monitor.statuses[$0].state == .inside }
                .map { monitor.index.fences[$0].name ?? monitor.index.fences[$0].id }
        }
        if queue(
            .location, time: t,
            OwnTracks.location(fix, time: t, tid: tid, assumedErrorM: assumedErrorM, inRegions: inside))
        {
            throttle.sent(time: t, at: fix.coordinate)
        }
        return []
    }

    public func fencesReplaced(session: TrackingSession) {
        waypointsSent = true
        guard let monitor = session.geofences else { return }
        fencesLoadedAt = Int(time(nil))
        sender.outbox.store(
            .waypoints, payload: OwnTracks.waypoints(monitor.index.fences, loadedAt: fencesLoadedAt))
        sender.poke()
    }

    @discardableResult
    private func queue(_ kind: OutboxKind, time t: Double, _ payload: String) -> Bool {
        guard clock.plausible(t) else { return false }
        sender.outbox.store(kind, payload: payload, fixTime: t)
        sender.poke()
        return true
    }
}
