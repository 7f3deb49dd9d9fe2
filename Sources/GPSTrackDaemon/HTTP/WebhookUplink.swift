import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The webhook uplink: a tracker sink that queues the events `webhook_events` names (their
/// JSON lines) on the uplink's durable outbox; its sender POSTs each as it is, or in ntfy's
/// form (a text body with `Title`, `Priority` and `Tags`: alarms urgent), with a bearer token
/// from `webhook_token_file`. Events are never dropped for the outbox's size.
public final class WebhookUplink: UplinkSink {
    let uplink = UplinkName.webhook
    public let name = UplinkName.webhook.rawValue
    let config: WebhookConfig
    let sender: UplinkSender
    let clock: UplinkClockCheck
    private let events: Set<EventName>

    /// `transport` nil: libcurl (`HTTPClient`), loaded here.
    init(
        configuration: Configuration, file: StateDatabase, journal: Journal, configFile: String,
        transport: (any HTTPTransport)? = nil
    ) throws(ConfigError) {
        config = configuration.webhook
        events = Set(config.events)
        func place(_ key: String) -> String { configuration.origins[key] ?? configFile }
        let client = try HTTPClient.transport(
            transport, caFile: config.caFile, tls: HTTPClient.TLSFiles(caKey: "webhook_ca_file"), timeoutS: 30,
            place: place("webhook_url"), key: "webhook_url")
        try HTTPClient.checkReadable(
            [("webhook_ca_file", config.caFile)], configuration: configuration, configFile: configFile)
        var token: String?
        if let file = config.tokenFile {
            let bytes: [UInt8]
            do { bytes = try FileIO.readAll(file, maxBytes: 4096, regularOnly: true) } catch {
                throw ConfigError(
                    file: place("webhook_token_file"), line: nil,
                    message: "webhook_token_file \(file): cannot read: \(error)")
            }
            switch MQTTPublisher.password(from: bytes) {
            case .success(let t): token = t
            case .failure(let problem):
                throw ConfigError(
                    file: place("webhook_token_file"), line: nil,
                    message: "webhook_token_file \(file): \(problem.message)")
            }
        }
        let outbox = Outbox(uplink: name, file: file, limit: Int.max)
        do { sender = try UplinkSender(name: name, outbox: outbox, journal: journal) } catch {
            throw ConfigError(file: configFile, line: nil, message: "webhook: \(error)")
        }
        clock = UplinkClockCheck(uplink: name, maxOffsetS: configuration.uplinkMaxClockOffsetS, journal: journal)
        let url = config.url ?? ""
        let ntfy = config.format == .ntfy
        let auth = token.map { ["Authorization: Bearer \($0)"] } ?? []
        let send = client
        sender.start { m in
            guard ntfy else {
                return send.send(
                    method: "POST", url: url, body: Array(m.payload.utf8),
                    headers: ["Content-Type: application/json"] + auth)
            }
            let n = Self.ntfy(m.payload)
            return send.send(method: "POST", url: url, body: Array(n.text.utf8), headers: n.headers + auth)
        }
    }

    public func take(_ step: TrackerStep) -> [LogEntry] {
        for (s, line) in step.lined {
            guard let name = Self.kind(s.event), events.contains(name), clock.plausible(s.time ?? 0) else {
                continue
            }
            sender.outbox.store(name.isAlarm ? .alarm : .event, payload: line)
            sender.poke()
        }
        return []
    }

    /// The event's `event` name, for the kinds a webhook may send.
    static func kind(_ e: TrackingSession.Event) -> EventName? {
        switch e {
        case .tracker(let t): t.name
        case .fence(let f):
            switch f.kind {
            case .enter, .exit, .dwell: f.kind.name
            case .state: nil
            }
        case .fencesDetermined: nil
        }
    }

    /// ntfy's form of an event line: a sentence, its title, priority and tags.
    static func ntfy(_ line: String) -> (text: String, headers: [String]) {
        let json = try? JSONValue.parse(Array(line.utf8))
        let event = json?["event"]?.string ?? "event"
        var text = event.split(separator: "_").joined(separator: " ")
        if let fence = json?["name"]?.string ?? json?["fence"]?.string { text += " " + fence }
        if let time = json?["time"]?.string { text += " at " + time }
        if let lat = json?["lat"]?.number, let lon = json?["lon"]?.number { text += " (\(lat), \(lon))" }
        let alarm = EventName(rawValue: event)?.isAlarm == true
        return (
            text,
            [
                "Content-Type: text/plain; charset=utf-8",
                "Title: gpstrackd: \(event.split(separator: "_").joined(separator: " "))",
                "Priority: \(alarm ? "urgent" : "default")",
                "Tags: \(alarm ? "rotating_light" : "round_pushpin"),\(event)",
            ]
        )
    }
}
