/// The physical upper bound of every numeric key whose setter has none of its own (those
/// with a whole range, such as `mqtt_port` or `stride_m`, check it there). A larger value is an
/// error naming `file:line`, as a bad one is: a figure beyond any vehicle, receiver or clock
/// traps or overflows where it is used (`traccar_timeout_s = 1e300` trapped in the HTTP
/// client). gpstrackd.conf(5) gives each bound; `ConfigBoundsTests` holds the two together.
extension ConfigParser {
    static let day = 86_400.0
    static let year = 31_536_000.0
    // A replay of a recording years old runs with its clock that far behind.
    static let century = 3_153_600_000.0

    public static let upperBounds: [String: Double] = [
        "no_data_timeout_s": 3_600,
        "ha_min_interval_s": 3_600,
        "metrics_interval_s": day,
        "clock_offset_warn_s": century,
        "retention_days": 36_500,
        "idle_timeout_s": day,
        "watch_queue_bytes": 1_073_741_824,
        "mqtt_min_interval_s": 7 * day,
        "mqtt_min_distance_m": 100_000,
        "mqtt_outbox_max": 10_000_000,
        "distance_filter_m": 10_000,
        "max_horizontal_error_m": 10_000,
        "max_speed_mps": 1_000,
        "stationary_speed_mps": 50,
        "creep_distance_m": 10_000,
        "creep_error_factor": 100,
        "assumed_error_m": 10_000,
        "min_course_speed_mps": 50,
        "hysteresis_m": 10_000,
        "stale_after_s": day,
        "min_stop_s": day,
        "min_trip_distance_m": 100_000,
        "min_trip_s": day,
        "max_gap_s": 7 * day,
        "guard_after_s": 7 * day,
        "guard_radius_m": 100_000,
        "guard_repeat_s": day,
        "guard_no_position_s": day,
        "speed_limit_kmh": 2_000,
        "overspeed_min_s": 3_600,
        "traccar_min_interval_s": 7 * day,
        "traccar_min_distance_m": 100_000,
        "traccar_heartbeat_s": 7 * day,
        "traccar_outbox_max": 10_000_000,
        "traccar_timeout_s": 600,
        "traccar_max_age_s": year,
        "owntracks_http_min_interval_s": 7 * day,
        "owntracks_http_min_distance_m": 100_000,
        "owntracks_http_max_age_s": year,
        "uplink_max_clock_offset_s": century,
        "anchor_grace_s": 3_600,
        "anchor_no_position_s": day,
        "anchor_repeat_s": day,
        "anchor_redrag_m": 10_000,
        "anchor_bow_height_m": 100,
        "anchor_margin_m": 1_000,
    ]

    /// Why `value` is beyond `key`'s bound, or nil (a value that is no number is the setter's
    /// to refuse).
    static func beyondBound(_ key: String, _ value: String) -> String? {
        guard let bound = upperBounds[key], let v = Double(value), !(v <= bound) else { return nil }
        return "at most \(Int(clamping: bound)), got '\(value)'"
    }
}
