import GPSTrackCore
import GPSTrackProtocol

/// OwnTracks over HTTP: the MQTT publisher's `location`, `transition` and `waypoints` payloads
/// (OwnTracks.swift) POSTed to a URL, the Recorder's `/pub` or Home Assistant's webhook, with
/// `X-Limit-U`/`X-Limit-D` and optional basic authentication, on the uplink's durable outbox.
/// The JSON array the server answers with is read: its `cmd` objects run as the broker's do
/// (`OwnTracksHTTPCommands`). With `mqtt_secret_file` every body is encrypted as on MQTT.
public final class OwnTracksHTTPUplink: UplinkSink, LocationReporter {
    let uplink = UplinkName.owntracksHTTP
    public let name = UplinkName.owntracksHTTP.rawValue
    let config: OwnTracksHTTPConfig
    let sender: UplinkSender
    let clock: UplinkClockCheck
    /// The commands in the server's replies, and where their answers go.
    let commands: OwnTracksHTTPCommands
    private var reporter: OwnTracksReporter
    var tid: String { reporter.tid }
    /// Whether the first step sent the waypoints yet.
    private var waypointsSent = false

    /// `transport` nil: libcurl (`HTTPClient`), loaded here.
    init(
        configuration: Configuration, file: StateDatabase, journal: Journal, configFile: String,
        transport: (any HTTPTransport)? = nil
    ) throws(ConfigError) {
        config = configuration.owntracksHTTP
        func place(_ key: String) -> String { configuration.origins[key] ?? configFile }
        let client = try HTTPClient.transport(
            transport, caFile: config.caFile, tls: HTTPClient.TLSFiles(caKey: "owntracks_http_ca_file"), timeoutS: 30,
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
        reporter = OwnTracksReporter(
            tid: OwnTracks.trackerID(device: device), assumedErrorM: configuration.tracker.assumedErrorM,
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
    func reportLocation(_ fix: Fix, time t: Double, inside: [String]?) {
        guard clock.plausible(t) else { return }
        queue(.location, time: t, reporter.location(fix, time: t, inside: inside, trigger: "r"))
    }

    /// The waypoints go before the first step, unless a reload sent them already.
    public func start(_ fences: [Fence]?) { if !waypointsSent { sendWaypoints(fences) } }

    public func take(_ step: TrackerStep) -> [LogEntry] {
        let check = clock
        for m in reporter.messages(for: step, plausible: { check.plausible($0) }) {
            queue(m.kind, time: m.time, m.payload)
        }
        return []
    }

    public func fencesReplaced(_ fences: [Fence]?) {
        reporter.fencesReplaced()
        sendWaypoints(fences)
    }

    /// The waypoints, before the first step and after each reload.
    private func sendWaypoints(_ fences: [Fence]?) {
        waypointsSent = true
        guard let payload = reporter.waypoints(fences) else { return }
        sender.outbox.store(.waypoints, payload: payload)
        sender.poke()
    }

    private func queue(_ kind: OutboxKind, time t: Double, _ payload: String) {
        sender.outbox.store(kind, payload: payload, fixTime: t)
        sender.poke()
    }
}
