import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The effective configuration as JSON, for the broker's `dump`: every key of gpstrackd.conf(5)
/// by its name, in the documented order, from one table that says how each is shown. Nothing
/// secret leaves the box: an uplink's URL without its userinfo, path, query and fragment
/// (passwords, tokens, webhook ids), Traccar's device identifier (it lets a sender in) not at
/// all; the password, secret, token and key files by their names, never their contents (which
/// `Configuration` does not hold). `ConfigurationDumpTests` holds the table to the parser's keys.
enum ConfigurationDump {
    static func json(_ c: Configuration, tst: Int) -> String {
        ReplyEncoder.encode(Message(tst: tst, gpstrackd: .members(table.map { ($0.key, $0.value(c)) })))
    }

    /// How a key's value is shown.
    enum Shown: Sendable {
        case plain
        /// A URL without its secrets (`URLText.shown(_:path: false)`).
        case url
        /// Only whether it is set.
        case secret
    }

    struct Entry: Sendable {
        var key: String
        var shown: Shown
        var read: @Sendable (Configuration) -> Value

        func value(_ c: Configuration) -> Value {
            switch shown {
            case .plain: read(c)
            case .url: if case .text(let s) = read(c) { .text(URLText.shown(s, path: false)) } else { .null }
            case .secret: if case .null = read(c) { .null } else { .text(Self.redacted) }
            }
        }
        static let redacted = "(set, not shown)"
    }

    static func e(_ key: String, _ shown: Shown = .plain, _ read: @escaping @Sendable (Configuration) -> Value)
        -> Entry
    {
        Entry(key: key, shown: shown, read: read)
    }
    static func t(_ s: String?) -> Value { s.map(Value.text) ?? .null }
    static func n(_ d: Double?) -> Value { d.map(Value.number) ?? .null }

    /// Every key, in gpstrackd.conf(5)'s order (`ConfigParser.keys`).
    static let table: [Entry] =
        [
            e("gpsd") {
                .text($0.gpsdHost.contains(":") ? "[\($0.gpsdHost)]:\($0.gpsdPort)" : "\($0.gpsdHost):\($0.gpsdPort)")
            },
            e("device") { t($0.device) }, e("fences") { t($0.fencesPath) }, e("socket") { .text($0.socketPath) },
            e("state_dir") { .text($0.stateDirectory) }, e("socket_group") { .text($0.socketGroup) },
            e("mqtt_host") { t($0.mqtt.host) }, e("mqtt_port") { .integer($0.mqtt.port) },
            e("mqtt_topic") { t($0.mqtt.topic) }, e("mqtt_client_id") { t($0.mqtt.clientID) },
            e("mqtt_user") { t($0.mqtt.user) }, e("mqtt_password_file") { t($0.mqtt.passwordFile) },
            e("mqtt_secret_file") { t($0.mqtt.secretFile) }, e("mqtt_ca_file") { t($0.mqtt.caFile) },
            e("mqtt_cert_file") { t($0.mqtt.certFile) }, e("mqtt_key_file") { t($0.mqtt.keyFile) },
            e("mqtt_min_interval_s") { .number($0.mqtt.minIntervalS) },
            e("mqtt_min_distance_m") { .number($0.mqtt.minDistanceM) },
            e("mqtt_outbox_max") { .integer($0.mqtt.outboxMax) },
            e("command_max_age_s") { .number($0.mqtt.commandMaxAgeS) }, e("mqtt_commands") { .flag($0.mqtt.commands) },
            e("mqtt_command_allow") { .list($0.mqtt.commandAllow.map { .text($0.rawValue) }) },
            e("retention_days") { .number($0.retentionDays) }, e("admin_group") { t($0.adminGroup) },
            e("allow_plaintext_credentials") { .flag($0.allowPlaintextCredentials) },
            e("max_clients") { .integer($0.maxClients) }, e("idle_timeout_s") { .number($0.idleTimeoutS) },
            e("watch_queue_bytes") { .integer($0.watchQueueBytes) },
            e("no_data_timeout_s") { .number($0.noDataTimeoutS) }, e("metrics_file") { t($0.metricsFile) },
            e("metrics_interval_s") { .number($0.metricsIntervalS) },
            e("clock_offset_warn_s") { .number($0.clockOffsetWarnS) },
            e("distance_filter_m") { .number($0.tracker.distanceFilterM) },
            e("max_horizontal_error_m") { .number($0.tracker.maxHorizontalErrorM) },
            e("max_speed_mps") { .number($0.tracker.maxSpeedMps) },
            e("stationary_speed_mps") { .number($0.tracker.stationarySpeedMps) },
            e("creep_distance_m") { .number($0.tracker.creepDistanceM) },
            e("creep_error_factor") { .number($0.tracker.creepErrorFactor) },
            e("assumed_error_m") { .number($0.tracker.assumedErrorM) },
            e("min_course_speed_mps") { .number($0.tracker.minCourseSpeedMps) },
            e("hysteresis_m") { .number($0.tracker.hysteresisM) },
            e("stale_after_s") { .number($0.tracker.staleAfterS) },
            e("detect_crossings") { .flag($0.tracker.detectCrossings) },
            e("pedometer") { .text($0.pedometer.rawValue) },
            e("iio_root") { .text($0.iioRoot) }, e("iio_dev_root") { .text($0.iioDevRoot) },
            e("stride_m") { .number($0.strideM) }, e("trip_mode") { .text($0.tracker.tripMode.rawValue) },
            e("min_stop_s") { .number($0.tracker.minStopS) },
            e("min_trip_distance_m") { .number($0.tracker.minTripDistanceM) },
            e("min_trip_s") { .number($0.tracker.minTripS) }, e("max_gap_s") { .number($0.tracker.maxGapS) },
            e("guard") { .flag($0.tracker.guardOn) }, e("guard_after_s") { .number($0.tracker.guardAfterS) },
            e("guard_radius_m") { .number($0.tracker.guardRadiusM) },
            e("guard_repeat_s") { .number($0.tracker.guardRepeatS) },
            e("guard_no_position_s") { .number($0.tracker.guardNoPositionS) },
            e("speed_limit_kmh") { n($0.tracker.speedLimitKmh) },
            e("overspeed_min_s") { .number($0.tracker.overspeedMinS) },
            e("traccar_url", .url) { t($0.traccar.url) }, e("traccar_device_id", .secret) { t($0.traccar.deviceID) },
            e("traccar_format") { .text($0.traccar.format.rawValue) },
            e("traccar_min_interval_s") { .number($0.traccar.minIntervalS) },
            e("traccar_min_distance_m") { .number($0.traccar.minDistanceM) },
            e("traccar_heartbeat_s") { .number($0.traccar.heartbeatS) },
            e("traccar_outbox_max") { .integer($0.traccar.outboxMax) }, e("traccar_ca_file") { t($0.traccar.caFile) },
            e("traccar_client_cert_file") { t($0.traccar.clientCertFile) },
            e("traccar_client_key_file") { t($0.traccar.clientKeyFile) },
            e("traccar_timeout_s") { .number($0.traccar.timeoutS) }, e("traccar_max_age_s") { n($0.traccar.maxAgeS) },
            e("webhook_url", .url) { t($0.webhook.url) },
            e("webhook_events") { .list($0.webhook.events.map { .text($0.rawValue) }) },
            e("webhook_format") { .text($0.webhook.format.rawValue) },
            e("webhook_token_file") { t($0.webhook.tokenFile) }, e("webhook_ca_file") { t($0.webhook.caFile) },
            e("owntracks_http_url", .url) { t($0.owntracksHTTP.url) },
            e("owntracks_http_user") { t($0.owntracksHTTP.user) },
            e("owntracks_http_device") { t($0.owntracksHTTP.device) },
            e("owntracks_http_password_file") { t($0.owntracksHTTP.passwordFile) },
            e("owntracks_http_min_interval_s") { .number($0.owntracksHTTP.minIntervalS) },
            e("owntracks_http_min_distance_m") { .number($0.owntracksHTTP.minDistanceM) },
            e("owntracks_http_max_age_s") { n($0.owntracksHTTP.maxAgeS) },
            e("owntracks_http_ca_file") { t($0.owntracksHTTP.caFile) },
            e("uplink_max_clock_offset_s") { .number($0.uplinkMaxClockOffsetS) },
            e("anchor_warning_share") { .number($0.tracker.anchor.warningShare) },
            e("anchor_grace_fixes") { .integer($0.tracker.anchor.graceFixes) },
            e("anchor_grace_s") { .number($0.tracker.anchor.graceS) },
            e("anchor_no_position_s") { .number($0.tracker.anchor.noPositionS) },
            e("anchor_repeat_s") { .number($0.tracker.anchor.repeatS) },
            e("anchor_redrag_m") { .number($0.tracker.anchor.redragM) },
            e("anchor_bow_height_m") { .number($0.tracker.anchor.bowHeightM) },
            e("anchor_margin_m") { .number($0.tracker.anchor.marginM) },
        ]
        + InputName.allCases.flatMap { name in
            [
                e("input_\(name.rawValue)") { t($0.inputs.sources[name]?.text) },
                e("input_\(name.rawValue)_active_low") { .flag($0.inputs.activeLow.contains(name)) },
                e("input_\(name.rawValue)_debounce_ms") {
                    .integer($0.inputs.debounceMs[name] ?? InputConfig.defaultDebounceMs)
                },
            ]
        } + [
            e("input_ignition_off_delay_s") { .number($0.inputs.ignitionOffDelayS) },
            e("input_root") { .text($0.inputs.root) },
            e("trip_source") { .text($0.tracker.tripSource.rawValue) },
            e("guard_arm_on_ignition_off") { .flag($0.tracker.guardArmOnIgnitionOff) },
            e("battery_low_pct") { .integer($0.tracker.inputs.batteryLowPct) },
            e("map_tiles_url") { .text($0.mapTiles?.url ?? "none") },
            e("map_tiles_attribution") { .text($0.mapTilesAttribution) },
            e("ha_discovery") { .flag($0.ha.enabled) },
            e("ha_discovery_prefix") { .text($0.ha.prefix) },
            e("ha_node_id") { $0.ha.nodeID.map(Value.text) ?? .null },
            e("ha_min_interval_s") { .number($0.ha.minIntervalS) },
            e("ha_discovery_plaintext") { .flag($0.ha.plaintext) },
        ]

    struct Message: Encodable {
        var _type = "configuration"
        var tst: Int
        var gpstrackd: Value
    }

    /// One dumped value. Not a `JSONValue`: that has no integers and sorts an object's members.
    indirect enum Value: Encodable, Sendable {
        case null
        case text(String)
        case flag(Bool)
        case integer(Int)
        case number(Double)
        case list([Value])
        case members([(String, Value)])

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .list(let items):
                var c = encoder.unkeyedContainer()
                for item in items { try c.encode(item) }
            case .members(let fields):
                var c = encoder.container(keyedBy: JSONKey.self)
                for (label, v) in fields { try c.encode(v, forKey: JSONKey(stringValue: label)) }
            default:
                var c = encoder.singleValueContainer()
                switch self {
                case .text(let s): try c.encode(s)
                case .flag(let b): try c.encode(b)
                case .integer(let i): try c.encode(i)
                case .number(let d): try c.encode(d)
                default: try c.encodeNil()
                }
            }
        }
    }
}
