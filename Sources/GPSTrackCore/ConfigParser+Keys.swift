import GPSTrackVocabulary

/// The configuration keys and what each sets (see `ConfigParser`).
extension ConfigParser {
    /// Keys in the order they are documented.
    public static let keys: [String] = table.map(\.0)

    static let table: [(String, Setter)] =
        [
            (
                "gpsd",
                { c, v in
                    guard let (host, port) = parseHostPort(v) else { return "expected HOST:PORT, got '\(v)'" }
                    c.gpsdHost = host
                    c.gpsdPort = port
                    return nil
                }
            ),
            (
                "device",
                { c, v in
                    c.device = v
                    return nil
                }
            ),
            (
                "fences",
                { c, v in
                    c.fencesPath = v
                    return nil
                }
            ),
            (
                "socket",
                { c, v in
                    c.socketPath = v
                    return nil
                }
            ),
            (
                "state_dir",
                { c, v in
                    c.stateDirectory = v
                    return nil
                }
            ),
            (
                "socket_group",
                { c, v in
                    c.socketGroup = v
                    return nil
                }
            ),
            (
                "mqtt_host",
                { c, v in
                    c.mqtt.host = v
                    return nil
                }
            ),
            ("mqtt_port", whole(\.mqtt.port, 1...65535)),
            (
                "mqtt_topic",
                { c, v in
                    guard !v.contains("#"), !v.contains("+") else { return "a topic to publish to has no wildcards" }
                    c.mqtt.topic = v
                    return nil
                }
            ),
            (
                "mqtt_client_id",
                { c, v in
                    c.mqtt.clientID = v
                    return nil
                }
            ),
            (
                "mqtt_user",
                { c, v in
                    c.mqtt.user = v
                    return nil
                }
            ),
            (
                "mqtt_password_file",
                { c, v in
                    c.mqtt.passwordFile = v
                    return nil
                }
            ),
            (
                "mqtt_secret_file",
                { c, v in
                    c.mqtt.secretFile = v
                    return nil
                }
            ),
            (
                "mqtt_ca_file",
                { c, v in
                    c.mqtt.caFile = v
                    return nil
                }
            ),
            (
                "mqtt_cert_file",
                { c, v in
                    c.mqtt.certFile = v
                    return nil
                }
            ),
            (
                "mqtt_key_file",
                { c, v in
                    c.mqtt.keyFile = v
                    return nil
                }
            ),
            ("mqtt_min_interval_s", decimal(\.mqtt.minIntervalS, atLeast: 0, "seconds")),
            ("mqtt_min_distance_m", decimal(\.mqtt.minDistanceM, atLeast: 0, "metres")),
            ("mqtt_outbox_max", whole(\.mqtt.outboxMax, 10...Int.max)),
            (
                "command_max_age_s",
                { c, v in
                    guard let s = Double(v), s.isFinite, s >= 10, s <= 86_400 else {
                        return "expected seconds from 10 to 86400, got '\(v)'"
                    }
                    c.mqtt.commandMaxAgeS = s
                    return nil
                }
            ),
            (
                "mqtt_commands",
                { c, v in
                    guard let on = ["on": true, "off": false][v] else { return "expected on or off, got '\(v)'" }
                    c.mqtt.commands = on
                    return nil
                }
            ),
            (
                "mqtt_command_allow",
                { c, v in
                    // Each name between commas, without the blanks around it (a name has none inside).
                    let names = v.split(separator: ",", omittingEmptySubsequences: false)
                        .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
                    // Read into the vocabulary here, once; `reportSteps` runs always and is no allow list's.
                    var actions: [CommandName.Broker] = []
                    for name in names {
                        guard let action = CommandName.Broker(rawValue: name),
                            MQTTConfig.commandActions.contains(action)
                        else {
                            let known = MQTTConfig.commandActions.map(\.rawValue).joined(separator: ", ")
                            return "unknown action '\(name)' (known: \(known))"
                        }
                        actions.append(action)
                    }
                    c.mqtt.commandAllow = actions
                    return nil
                }
            ),
            ("retention_days", decimal(\.retentionDays, above: 0, "days")),
            (
                "admin_group",
                { c, v in
                    c.adminGroup = v
                    return nil
                }
            ),
            (
                "allow_plaintext_credentials",
                { c, v in
                    guard let b = ["yes": true, "no": false][v] else { return "expected yes or no, got '\(v)'" }
                    c.allowPlaintextCredentials = b
                    return nil
                }
            ),
            ("max_clients", whole(\.maxClients, 1...4096)),
            ("idle_timeout_s", decimal(\.idleTimeoutS, atLeast: 1, "seconds")),
            ("watch_queue_bytes", whole(\.watchQueueBytes, 1024...Int.max)),
            ("no_data_timeout_s", decimal(\.noDataTimeoutS, atLeast: 1, "seconds")),
            (
                "metrics_file",
                { c, v in
                    c.metricsFile = v
                    return nil
                }
            ),
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
            (
                "detect_crossings",
                { c, v in
                    guard
                        let b = ["true": true, "yes": true, "1": true, "false": false, "no": false, "0": false][
                            v.lowercased()]
                    else {
                        return "expected true or false, got '\(v)'"
                    }
                    c.tracker.detectCrossings = b
                    return nil
                }
            ),
            (
                "pedometer",
                { c, v in
                    guard let mode = PedometerMode(rawValue: v) else { return "expected auto or off, got '\(v)'" }
                    c.pedometer = mode
                    return nil
                }
            ),
            (
                "iio_root",
                { c, v in
                    c.iioRoot = v
                    return nil
                }
            ),
            (
                "iio_dev_root",
                { c, v in
                    c.iioDevRoot = v
                    return nil
                }
            ),
            (
                "stride_m",
                { c, v in
                    guard let m = Double(v), m.isFinite, (0.2...3).contains(m) else {
                        return "expected metres from 0.2 to 3, got '\(v)'"
                    }
                    c.strideM = m
                    return nil
                }
            ),
            (
                "trip_mode",
                { c, v in
                    guard let mode = TrackerConfig.TripMode(rawValue: v) else {
                        return "expected auto or manual, got '\(v)'"
                    }
                    c.tracker.tripMode = mode
                    return nil
                }
            ),
            ("min_stop_s", number(\.minStopS, min: 0, inclusive: false)),
            ("min_trip_distance_m", number(\.minTripDistanceM, min: 0, inclusive: true)),
            ("min_trip_s", number(\.minTripS, min: 0, inclusive: true)),
            ("max_gap_s", number(\.maxGapS, min: 0, inclusive: false)),
            (
                "guard",
                { c, v in
                    guard let on = ["on": true, "off": false][v] else { return "expected on or off, got '\(v)'" }
                    c.tracker.guardOn = on
                    return nil
                }
            ),
            ("guard_after_s", number(\.guardAfterS, min: 0, inclusive: true)),
            ("guard_radius_m", number(\.guardRadiusM, min: 0, inclusive: false)),
            ("guard_repeat_s", number(\.guardRepeatS, min: 0, inclusive: false)),
            ("guard_no_position_s", number(\.guardNoPositionS, min: 0, inclusive: false)),
            (
                "speed_limit_kmh",
                { c, v in
                    guard let x = Double(v), x.isFinite, x > 0 else {
                        return "expected a number of km/h > 0, got '\(v)'"
                    }
                    c.tracker.speedLimitKmh = x
                    return nil
                }
            ),
            ("overspeed_min_s", number(\.overspeedMinS, min: 0, inclusive: true)),
        ] + uplinkTable + anchorTable + inputTable + mapTable + haTable
}
