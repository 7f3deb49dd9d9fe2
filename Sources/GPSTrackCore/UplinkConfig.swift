import GPSTrackVocabulary

/// The Traccar uplink's settings (`traccar_*` keys): positions over HTTP in Traccar's OsmAnd
/// protocol; none when `url` is nil.
public struct TraccarConfig: Sendable, Equatable {
    /// OsmAnd's two forms: the query string (every Traccar version) or JSON (Traccar 6.7+).
    public enum Format: String, Sendable { case query, json }
    public var url: String?
    /// The device's identifier as registered on the server.
    public var deviceID: String?
    public var format = Format.query
    /// A location is sent at most this often (fix time)...
    public var minIntervalS = 30.0
    /// ...and only after moving this far, or after `heartbeatS` regardless (the keep-alive
    /// while parked).
    public var minDistanceM = 50.0
    public var heartbeatS = 900.0
    /// The outbox holds at most this many messages; the oldest locations go first.
    public var outboxMax = 10_000
    /// Backlog locations whose fix is older than this behind the newest fix queued are dropped
    /// (never trip ends or alarms); nil keeps them all.
    public var maxAgeS: Double?
    /// The CA certificates that verify an https server (else the system's).
    public var caFile: String?
    /// A client certificate and its private key (PEM) for a server that asks for one; both
    /// or neither.
    public var clientCertFile: String?
    public var clientKeyFile: String?
    /// A request (connection, upload and reply) ends after this long. Seconds.
    public var timeoutS = 30.0

    public init() {}
}

/// The webhook uplink's settings (`webhook_*` keys): chosen events POSTed to a URL; none when
/// `url` is nil.
public struct WebhookConfig: Sendable, Equatable {
    /// The event's JSON line as it is, or ntfy's form (a text body, `Title`, `Priority`, `Tags`).
    public enum Format: String, Sendable { case json, ntfy }
    public var url: String?
    /// The event kinds sent (`EventName.webhookKinds` lists those it may name).
    public var events = EventName.webhookKinds.filter(\.isAlarm)
    public var format = Format.json
    /// A file whose first line is a bearer token (never the token itself).
    public var tokenFile: String?
    /// As `TraccarConfig.caFile`.
    public var caFile: String?

    public init() {}
}

/// OwnTracks over HTTP (`owntracks_http_*` keys): the MQTT payloads POSTed to a URL (the
/// Recorder's `/pub`, Home Assistant's webhook); none when `url` is nil.
public struct OwnTracksHTTPConfig: Sendable, Equatable {
    public var url: String?
    /// `X-Limit-U` and `X-Limit-D`: the user and device the Recorder files the messages under.
    public var user: String?
    public var device: String?
    /// A file whose first line is the password for HTTP basic authentication (with `user`).
    public var passwordFile: String?
    public var minIntervalS = 30.0
    public var minDistanceM = 50.0
    public var heartbeatS = 900.0
    public var outboxMax = 10_000
    /// As `TraccarConfig.maxAgeS` (never transitions).
    public var maxAgeS: Double?
    /// As `TraccarConfig.caFile`.
    public var caFile: String?
    public init() {}
}

extension ConfigParser {
    /// The HTTP uplinks' keys, after the others in the documented order.
    static let uplinkTable: [(String, Setter)] = [
        (
            "traccar_url",
            { c, v in
                if let problem = httpURLProblem(v) { return problem }
                c.traccar.url = v
                return nil
            }
        ),
        (
            "traccar_device_id",
            { c, v in
                // Sent percent-encoded: any text but control characters (the parser refuses those).
                guard v.utf8.count <= 128 else {
                    // Not echoed: the identifier is what lets a sender into the server.
                    return "expected the device's identifier (up to 128 bytes), got \(v.utf8.count) bytes"
                }
                c.traccar.deviceID = v
                return nil
            }
        ),
        (
            "traccar_format",
            { c, v in
                guard let f = TraccarConfig.Format(rawValue: v) else { return "expected query or json, got '\(v)'" }
                c.traccar.format = f
                return nil
            }
        ),
        ("traccar_min_interval_s", seconds(\.traccar.minIntervalS, atLeast: 0, "seconds")),
        ("traccar_min_distance_m", seconds(\.traccar.minDistanceM, atLeast: 0, "metres")),
        ("traccar_heartbeat_s", seconds(\.traccar.heartbeatS, atLeast: 1, "seconds")),
        (
            "traccar_outbox_max",
            { c, v in
                guard let n = Int(v), n >= 10 else { return "expected a whole number >= 10, got '\(v)'" }
                c.traccar.outboxMax = n
                return nil
            }
        ),
        (
            "traccar_ca_file",
            { c, v in
                c.traccar.caFile = v
                return nil
            }
        ),
        (
            "traccar_client_cert_file",
            { c, v in
                c.traccar.clientCertFile = v
                return nil
            }
        ),
        (
            "traccar_client_key_file",
            { c, v in
                c.traccar.clientKeyFile = v
                return nil
            }
        ),
        ("traccar_timeout_s", seconds(\.traccar.timeoutS, atLeast: 1, "seconds")),
        ("traccar_max_age_s", maxAge(\.traccar.maxAgeS)),
        (
            "webhook_url",
            { c, v in
                if let problem = httpURLProblem(v) { return problem }
                c.webhook.url = v
                return nil
            }
        ),
        (
            "webhook_events",
            { c, v in
                let names = v.split(separator: ",", omittingEmptySubsequences: false)
                    .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
                var kinds: [EventName] = []
                for name in names {
                    guard let kind = EventName(rawValue: name), EventName.webhookKinds.contains(kind) else {
                        let known = EventName.webhookKinds.map(\.rawValue).joined(separator: ", ")
                        return "unknown event kind '\(name)' (known: \(known))"
                    }
                    kinds.append(kind)
                }
                c.webhook.events = kinds
                return nil
            }
        ),
        (
            "webhook_format",
            { c, v in
                guard let f = WebhookConfig.Format(rawValue: v) else { return "expected json or ntfy, got '\(v)'" }
                c.webhook.format = f
                return nil
            }
        ),
        (
            "webhook_token_file",
            { c, v in
                c.webhook.tokenFile = v
                return nil
            }
        ),
        ("webhook_ca_file", path(\.webhook.caFile)),
        (
            "owntracks_http_url",
            { c, v in
                if let problem = httpURLProblem(v) { return problem }
                c.owntracksHTTP.url = v
                return nil
            }
        ),
        (
            "owntracks_http_user",
            { c, v in
                guard !v.utf8.contains(UInt8(ascii: ":")) else {
                    return "a user name has no ':' (basic authentication)"
                }
                c.owntracksHTTP.user = v
                return nil
            }
        ),
        (
            "owntracks_http_device",
            { c, v in
                c.owntracksHTTP.device = v
                return nil
            }
        ),
        (
            "owntracks_http_password_file",
            { c, v in
                c.owntracksHTTP.passwordFile = v
                return nil
            }
        ),
        ("owntracks_http_min_interval_s", seconds(\.owntracksHTTP.minIntervalS, atLeast: 0, "seconds")),
        ("owntracks_http_min_distance_m", seconds(\.owntracksHTTP.minDistanceM, atLeast: 0, "metres")),
        ("owntracks_http_max_age_s", maxAge(\.owntracksHTTP.maxAgeS)),
        ("owntracks_http_ca_file", path(\.owntracksHTTP.caFile)),
        ("uplink_max_clock_offset_s", seconds(\.uplinkMaxClockOffsetS, atLeast: 1, "seconds")),
    ]

    /// Why `text` is no http or https URL with a host, or nil.
    static func httpURLProblem(_ text: String) -> String? {
        // The URL is named without its userinfo and query (a password, a token).
        let shown = URLText.shown(text)
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("http://") {
            rest = Substring(text).dropFirst(7)
        } else if lower.hasPrefix("https://") {
            rest = Substring(text).dropFirst(8)
        } else {
            return "expected an http:// or https:// URL, got '\(shown)'"
        }
        guard !text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            return "a URL has no blanks, got '\(shown)'"
        }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, !host.hasPrefix(":") else { return "the URL names no host: '\(shown)'" }
        return nil
    }

    /// What a configured uplink lacks, as an error naming the place of its URL.
    static func checkUplinks(_ config: Configuration, seen: [String: Int], file: String) throws(ConfigError) {
        if config.traccar.url != nil, config.traccar.deviceID == nil {
            throw ConfigError(
                file: file, line: seen["traccar_url"],
                message: "traccar_url needs traccar_device_id (the device registered on the server)")
        }
        if (config.traccar.clientCertFile == nil) != (config.traccar.clientKeyFile == nil) {
            let given = config.traccar.clientCertFile == nil ? "traccar_client_key_file" : "traccar_client_cert_file"
            throw ConfigError(
                file: file, line: seen[given],
                message: "traccar_client_cert_file and traccar_client_key_file go together: \(given) alone")
        }
        try checkOwnTracksHTTP(config, seen: seen, file: file)
    }

    /// A password without a user to send it with.
    static func checkOwnTracksHTTP(_ config: Configuration, seen: [String: Int], file: String) throws(ConfigError) {
        if config.owntracksHTTP.passwordFile != nil, config.owntracksHTTP.user == nil {
            throw ConfigError(
                file: file, line: seen["owntracks_http_password_file"],
                message: "owntracks_http_password_file needs owntracks_http_user")
        }
    }

    /// A file's path, as it is (read, and its absence an error, when the uplink starts).
    private static func path(_ key: WritableKeyPath<Configuration, String?> & Sendable) -> Setter {
        return { config, text in
            config[keyPath: key] = text
            return nil
        }
    }

    /// A backlog age limit: seconds, at least 1.
    private static func maxAge(_ path: WritableKeyPath<Configuration, Double?> & Sendable) -> Setter {
        return { config, text in
            guard let v = Double(text), v.isFinite, v >= 1 else {
                return "expected a number of seconds >= 1, got '\(text)'"
            }
            config[keyPath: path] = v
            return nil
        }
    }

    /// A number of `unit`, at least `atLeast`.
    private static func seconds(
        _ path: WritableKeyPath<Configuration, Double> & Sendable, atLeast: Double, _ unit: String
    ) -> Setter {
        return { config, text in
            guard let v = Double(text), v.isFinite, v >= atLeast else {
                return "expected a number of \(unit) >= \(Int(clamping: atLeast)), got '\(text)'"
            }
            config[keyPath: path] = v
            return nil
        }
    }
}
