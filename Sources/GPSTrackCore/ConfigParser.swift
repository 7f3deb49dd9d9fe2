import GPSTrackProtocol
/// Parses `key = value` configuration text (`#` starts a comment) into a `Configuration`.
/// Unknown keys, repeated keys and bad values are errors naming `file:line`.
public enum ConfigParser {
    typealias Setter = @Sendable (inout Configuration, String) -> String?

    /// Keys in the order they are documented.
    public static let keys: [String] = table.map(\.0)

    private static let table: [(String, Setter)] = [
        ("gpsd", { c, v in
            guard let (host, port) = parseHostPort(v) else { return "expected HOST:PORT, got '\(v)'" }
            c.gpsdHost = host
            c.gpsdPort = port
            return nil
        }),
        ("device", { c, v in c.device = v; return nil }),
        ("fences", { c, v in c.fencesPath = v; return nil }),
        ("socket", { c, v in c.socketPath = v; return nil }),
        ("state_dir", { c, v in c.stateDirectory = v; return nil }),
        ("socket_group", { c, v in c.socketGroup = v; return nil }),
        ("mqtt_host", { c, v in c.mqtt.host = v; return nil }),
        ("mqtt_port", whole(\.mqtt.port, 1...65535)),
        ("mqtt_topic", { c, v in
            guard !v.contains("#"), !v.contains("+") else { return "a topic to publish to has no wildcards" }
            c.mqtt.topic = v
            return nil
        }),
        ("mqtt_client_id", { c, v in c.mqtt.clientID = v; return nil }),
        ("mqtt_user", { c, v in c.mqtt.user = v; return nil }),
        ("mqtt_password_file", { c, v in c.mqtt.passwordFile = v; return nil }),
        ("mqtt_secret_file", { c, v in c.mqtt.secretFile = v; return nil }),
        ("mqtt_ca_file", { c, v in c.mqtt.caFile = v; return nil }),
        ("mqtt_cert_file", { c, v in c.mqtt.certFile = v; return nil }),
        ("mqtt_key_file", { c, v in c.mqtt.keyFile = v; return nil }),
        ("mqtt_min_interval_s", decimal(\.mqtt.minIntervalS, atLeast: 0, "seconds")),
        ("mqtt_min_distance_m", decimal(\.mqtt.minDistanceM, atLeast: 0, "metres")),
        ("mqtt_outbox_max", whole(\.mqtt.outboxMax, 10...Int.max)),
        ("mqtt_commands", { c, v in
            guard let on = ["on": true, "off": false][v] else { return "expected on or off, got '\(v)'" }
            c.mqtt.commands = on
            return nil
        }),
        ("mqtt_command_allow", { c, v in
            // Each name between commas, without the blanks around it (a name has none inside).
            let names = v.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
            if let bad = names.first(where: { !MQTTConfig.commandActions.contains($0) }) {
                return "unknown action '\(bad)' (known: \(MQTTConfig.commandActions.joined(separator: ", ")))"
            }
            c.mqtt.commandAllow = names
            return nil
        }),
        ("retention_days", decimal(\.retentionDays, above: 0, "days")),
        ("admin_group", { c, v in c.adminGroup = v; return nil }),
        ("max_clients", whole(\.maxClients, 1...4096)),
        ("idle_timeout_s", decimal(\.idleTimeoutS, atLeast: 1, "seconds")),
        ("watch_queue_bytes", whole(\.watchQueueBytes, 1024...Int.max)),
        ("no_data_timeout_s", decimal(\.noDataTimeoutS, atLeast: 1, "seconds")),
        ("metrics_file", { c, v in c.metricsFile = v; return nil }),
        ("metrics_interval_s", decimal(\.metricsIntervalS, atLeast: 1, "seconds")),
        ("clock_offset_warn_s", decimal(\.clockOffsetWarnS, above: 0, "seconds")),
        ("distance_filter_m", number(\.distanceFilterM, min: 0, inclusive: true)),
        ("max_horizontal_error_m", number(\.maxHorizontalErrorM, min: 0, inclusive: false)),
        ("max_speed_mps", number(\.maxSpeedMps, min: 0, inclusive: false)),
        ("stationary_speed_mps", number(\.stationarySpeedMps, min: 0, inclusive: true)),
        ("creep_distance_m", number(\.creepDistanceM, min: 0, inclusive: true)),
        ("creep_error_factor", number(\.creepErrorFactor, min: 0, inclusive: true)),
        ("assumed_error_m", number(\.assumedErrorM, min: 0, inclusive: false)),
        ("min_course_speed_mps", number(\.minCourseSpeedMps, min: 0, inclusive: true)),
        ("hysteresis_m", number(\.hysteresisM, min: 0, inclusive: true)),
        ("stale_after_s", number(\.staleAfterS, min: 0, inclusive: false)),
        ("detect_crossings", { c, v in
            guard let b = ["true": true, "yes": true, "1": true, "false": false, "no": false, "0": false][v.lowercased()] else {
                return "expected true or false, got '\(v)'"
            }
            c.tracker.detectCrossings = b
            return nil
        }),
        ("pedometer", { c, v in
            guard let mode = PedometerMode(rawValue: v) else { return "expected auto or off, got '\(v)'" }
            c.pedometer = mode
            return nil
        }),
        ("iio_root", { c, v in c.iioRoot = v; return nil }),
        ("iio_dev_root", { c, v in c.iioDevRoot = v; return nil }),
        ("stride_m", { c, v in
            guard let m = Double(v), m.isFinite, (0.2...3).contains(m) else { return "expected metres from 0.2 to 3, got '\(v)'" }
            c.strideM = m
            return nil
        }),
        ("trip_mode", { c, v in
            guard let mode = TrackerConfig.TripMode(rawValue: v) else { return "expected auto or manual, got '\(v)'" }
            c.tracker.tripMode = mode
            return nil
        }),
        ("min_stop_s", number(\.minStopS, min: 0, inclusive: false)),
        ("min_trip_distance_m", number(\.minTripDistanceM, min: 0, inclusive: true)),
        ("min_trip_s", number(\.minTripS, min: 0, inclusive: true)),
        ("max_gap_s", number(\.maxGapS, min: 0, inclusive: false)),
        ("guard", { c, v in
            guard let on = ["on": true, "off": false][v] else { return "expected on or off, got '\(v)'" }
            c.tracker.guardOn = on
            return nil
        }),
        ("guard_after_s", number(\.guardAfterS, min: 0, inclusive: false)),
        ("guard_radius_m", number(\.guardRadiusM, min: 0, inclusive: false)),
        ("speed_limit_kmh", { c, v in
            guard let x = Double(v), x.isFinite, x > 0 else { return "expected a number of km/h > 0, got '\(v)'" }
            c.tracker.speedLimitKmh = x
            return nil
        }),
        ("overspeed_min_s", number(\.overspeedMinS, min: 0, inclusive: true)),
    ] + uplinkTable

    /// Longest line accepted, in bytes.
    public static let maxLineBytes = 4096

    /// Parses `text`, read from `file`, on top of `base`.
    public static func parse(_ text: String, file: String, base: Configuration = Configuration()) throws(ConfigError) -> Configuration {
        try parse(Array(text.utf8), file: file, base: base)
    }

    /// Parses the bytes of a configuration file, read from `file`, on top of `base`. Lines
    /// end with LF or CRLF, and the last may have no line end; a NUL byte, invalid UTF-8, a
    /// control character (a bare CR among them) or a line over `maxLineBytes` is an error
    /// naming `file:line`.
    public static func parse(_ bytes: [UInt8], file: String, base: Configuration = Configuration()) throws(ConfigError) -> Configuration {
        var config = base
        var seen: [String: Int] = [:]
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            let newline = bytes[start...].firstIndex(of: 10) ?? bytes.count
            var raw = bytes[start..<newline]
            start = newline + 1
            if raw.last == 13 { raw = raw.dropLast() }
            func fail(_ message: String) -> ConfigError { ConfigError(file: file, line: lineNumber, message: message) }
            guard raw.count <= maxLineBytes else { throw fail("line longer than \(maxLineBytes) bytes") }
            guard !raw.contains(0) else { throw fail("NUL byte in the line") }
            guard let text = String(validating: raw, as: UTF8.self) else { throw fail("not UTF-8 text") }
            if let c = text.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
                throw fail("control character U+\(String(c.value, radix: 16, uppercase: true).leftPadded(4)) in the line")
            }
            var line = Substring(text)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let content = trim(line)
            if content.isEmpty { continue }
            guard let eq = content.firstIndex(of: "=") else { throw fail("expected 'key = value', got '\(content)'") }
            let key = trim(content[..<eq])
            let value = trim(content[content.index(after: eq)...])
            guard let setter = table.first(where: { $0.0 == key })?.1 else {
                throw fail("unknown key '\(key)' (known: \(keys.joined(separator: ", ")))")
            }
            if let first = seen[key] { throw fail("'\(key)' repeats line \(first)") }
            seen[key] = lineNumber
            guard !value.isEmpty else { throw fail("'\(key)' has no value") }
            if let problem = setter(&config, value) { throw fail("\(key): \(problem)") }
            config.origins[key] = "\(file):\(lineNumber)"
        }
        if config.tracker.guardOn, config.tracker.tripMode == .manual {
            throw ConfigError(file: file, line: seen["guard"] ?? seen["trip_mode"],
                              message: "guard = on needs trip_mode = auto (the guard arms at stops)")
        }
        try checkUplinks(config, seen: seen, file: file)
        return config
    }

    /// Sets one tunable from a flag's value (`--distance-filter 5`), with the file's checks.
    public static func apply(key: String, value: String, to config: inout Configuration, source: String) throws(ConfigError) {
        guard let setter = table.first(where: { $0.0 == key })?.1 else {
            throw ConfigError(file: source, line: nil, message: "unknown key '\(key)'")
        }
        if let problem = setter(&config, value) {
            throw ConfigError(file: source, line: nil, message: problem)
        }
    }

    /// Parses `HOST:PORT`, `[v6]:PORT` or a bare `HOST` (port 2947).
    public static func parseHostPort(_ text: String) -> (String, Int)? {
        var host = Substring(text)
        var portText: Substring = "2947"
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
            if host.contains(":") { return nil }
        }
        guard !host.isEmpty, let port = Int(portText), (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }

    private static func number(_ path: WritableKeyPath<TrackerConfig, Double> & Sendable, min: Double, inclusive: Bool) -> Setter {
        return { config, text in
            guard let v = Double(text), v.isFinite else { return "expected a number, got '\(text)'" }
            if inclusive ? v < min : v <= min {
                return "must be \(inclusive ? ">=" : ">") \(Int(min)), got \(text)"
            }
            config.tracker[keyPath: path] = v
            return nil
        }
    }

    /// A number of `unit` for a daemon-level key, at least `atLeast` (or above `above`).
    private static func decimal(_ path: WritableKeyPath<Configuration, Double> & Sendable, atLeast: Double? = nil,
                                above: Double? = nil, _ unit: String) -> Setter {
        return { config, text in
            let bound = atLeast.map { ">= \(Int($0))" } ?? above.map { "> \(Int($0))" } ?? ""
            guard let v = Double(text), v.isFinite, atLeast.map({ v >= $0 }) ?? true, above.map({ v > $0 }) ?? true else {
                return "expected a number of \(unit) \(bound), got '\(text)'"
            }
            config[keyPath: path] = v
            return nil
        }
    }

    /// A whole number within `range` for a daemon-level key.
    private static func whole(_ path: WritableKeyPath<Configuration, Int> & Sendable, _ range: ClosedRange<Int>) -> Setter {
        return { config, text in
            guard let v = Int(text), range.contains(v) else {
                let bound = range.upperBound == Int.max ? ">= \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
                return "expected a whole number \(bound), got '\(text)'"
            }
            config[keyPath: path] = v
            return nil
        }
    }

    private static func trim(_ s: Substring) -> String {
        var t = s
        while let f = t.first, f == " " || f == "\t" { t.removeFirst() }
        while let l = t.last, l == " " || l == "\t" { t.removeLast() }
        return String(t)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
