/// The daemon's state as Prometheus text (exposition format 0.0.4, which node_exporter's
/// textfile collector reads), from the `status` reply: `gpstrackctl metrics` prints it and the
/// daemon writes it to `metrics_file`. Names follow Prometheus' conventions: the `gpstrackd_`
/// prefix, base units in the name (`_meters`, `_seconds`), `_total` on counters, HELP and TYPE
/// for each family, a family's samples together.
public enum Metrics {
    /// The text for `status`; `now` (Unix seconds) dates the process's start from its uptime.
    public static func render(_ s: StatusReply, now: Double) -> String {
        var m = Writer()
        m.family("gpstrackd_build_info", .gauge, "The daemon's version, as a label.")
        m.sample("gpstrackd_build_info", ["version": s.version], 1)
        m.family("gpstrackd_start_time_seconds", .gauge, "When the daemon started, Unix time.")
        m.sample("gpstrackd_start_time_seconds", [:], (now - s.uptimeS).rounded())

        m.family("gpstrackd_gpsd_connected", .gauge, "1 while gpsd's reports arrive.")
        m.sample("gpstrackd_gpsd_connected", ["address": s.gpsd.address], s.gpsd.connected ? 1 : 0)
        m.family("gpstrackd_gpsd_dropped_total", .counter, "gpsd lines dropped before the tracker, by kind.")
        m.sample("gpstrackd_gpsd_dropped_total", ["kind": "fix"], Double(s.gpsd.droppedFixes ?? 0))
        m.sample("gpstrackd_gpsd_dropped_total", ["kind": "malformed"], Double(s.gpsd.droppedMalformed ?? 0))
        m.family("gpstrackd_gpsd_reconnects_total", .counter, "Connections to gpsd made again after one was lost.")
        m.sample("gpstrackd_gpsd_reconnects_total", [:], Double(s.gpsd.reconnects))

        // A receiver's series carry its device and vanish with its fix.
        let device = ["device": s.gpsd.device ?? ""]
        m.family(
            "gpstrackd_fix_mode", .gauge, "gpsd's fix mode of the last accepted fix: 2 (2D) or 3 (3D); 0 without a fix."
        )
        m.sample("gpstrackd_fix_mode", device, Double(s.fix?.mode ?? 0))
        if let fix = s.fix {
            if let age = fix.ageS {
                m.family("gpstrackd_fix_age_seconds", .gauge, "Seconds since the last accepted fix arrived.")
                m.sample("gpstrackd_fix_age_seconds", device, age)
            }
            if let eph = fix.eph {
                m.family("gpstrackd_fix_error_meters", .gauge, "The last accepted fix's horizontal error estimate.")
                m.sample("gpstrackd_fix_error_meters", device, eph)
            }
        }

        if let sky = s.sky {
            let labels = ["device": sky.device ?? ""]
            if let used = sky.satellitesUsed, let seen = sky.satellitesSeen {
                m.family(
                    "gpstrackd_satellites_used", .gauge, "Satellites in the followed receiver's solution (gpsd's SKY).")
                m.sample("gpstrackd_satellites_used", labels, Double(used))
                m.family("gpstrackd_satellites_seen", .gauge, "Satellites the followed receiver sees (gpsd's SKY).")
                m.sample("gpstrackd_satellites_seen", labels, Double(seen))
            }
            let dops = [("hdop", sky.hdop), ("pdop", sky.pdop), ("vdop", sky.vdop)].compactMap { k, v in
                v.map { (k, $0) }
            }
            if !dops.isEmpty {
                m.family(
                    "gpstrackd_dop", .gauge, "The followed receiver's dilutions of precision (kind hdop, pdop, vdop).")
                for (kind, v) in dops { m.sample("gpstrackd_dop", ["device": sky.device ?? "", "kind": kind], v) }
            }
        }

        if let offset = s.clockOffsetS {
            m.family("gpstrackd_clock_offset_seconds", .gauge, "System time minus GPS time at the last check.")
            m.sample("gpstrackd_clock_offset_seconds", [:], offset)
        }

        // One label set for the family (node_exporter refuses a family whose samples differ in
        // their label names): an accepted fix's reason is empty.
        // Every receiver gpsd reports; one that is removed leaves the list, and its series go.
        if !s.receivers.isEmpty {
            m.family("gpstrackd_receiver_followed", .gauge, "1 for the receiver the tracker follows.")
            for r in s.receivers { m.sample("gpstrackd_receiver_followed", ["device": r.path], r.followed ? 1 : 0) }
            m.family("gpstrackd_receiver_fix_mode", .gauge, "Each receiver's last fix mode (1 no fix, 2, 3).")
            for r in s.receivers { m.sample("gpstrackd_receiver_fix_mode", ["device": r.path], Double(r.mode)) }
            m.family("gpstrackd_receiver_error_meters", .gauge, "Each receiver's last horizontal error estimate.")
            for r in s.receivers {
                if let eph = r.eph { m.sample("gpstrackd_receiver_error_meters", ["device": r.path], eph) }
            }
            m.family(
                "gpstrackd_receiver_ignored_fixes_total", .counter, "Each receiver's fixes the tracker did not follow.")
            for r in s.receivers {
                m.sample("gpstrackd_receiver_ignored_fixes_total", ["device": r.path], Double(r.ignored))
            }
        }

        m.family("gpstrackd_fixes_total", .counter, "Fixes judged, by outcome and (when rejected) reason.")
        m.sample("gpstrackd_fixes_total", ["outcome": "accepted", "reason": ""], Double(s.counters.fixesAccepted))
        for (reason, n) in s.counters.fixesRejected.counts.sorted(by: { $0.key < $1.key }) {
            m.sample("gpstrackd_fixes_total", ["outcome": "rejected", "reason": reason], Double(n))
        }
        m.family("gpstrackd_fixes_delivered_total", .counter, "Accepted fixes that moved the odometer's position on.")
        m.sample("gpstrackd_fixes_delivered_total", [:], Double(s.counters.fixesDelivered))

        m.family(
            "gpstrackd_odometer_meters", .gauge, "The trip counter's traveled distance (reset by gpstrackctl reset).")
        m.sample("gpstrackd_odometer_meters", [:], s.trip.traveledM)
        m.family("gpstrackd_straight_line_meters", .gauge, "The trip counter's distance from its start.")
        m.sample("gpstrackd_straight_line_meters", [:], s.trip.straightLineM)
        if let today = s.today {
            m.family(
                "gpstrackd_distance_today_meters", .gauge,
                "Traveled on the last fix's local day (since its midnight or the start).")
            m.sample("gpstrackd_distance_today_meters", [:], today.traveledM)
        }
        if let current = s.currentTrip {
            m.family("gpstrackd_trip_open", .gauge, "1 while an automatic trip is open.")
            m.sample("gpstrackd_trip_open", [:], current == nil ? 0 : 1)
        }
        if let motion = s.motion {
            m.family("gpstrackd_motion", .gauge, "1 for the trip detector's state (unknown, moving, stopped).")
            for state in ["unknown", "moving", "stopped"] {
                m.sample("gpstrackd_motion", ["state": state], motion.state == state ? 1 : 0)
            }
        }
        if let g = s.guard {
            m.family("gpstrackd_guard", .gauge, "1 for the parked guard's state (off, waiting, armed).")
            for state in ["off", "waiting", "armed"] {
                m.sample("gpstrackd_guard", ["state": state], g.state == state ? 1 : 0)
            }
        }

        m.family("gpstrackd_fences", .gauge, "Fences by state.")
        for state in ["inside", "outside", "unknown"] {
            m.sample("gpstrackd_fences", ["state": state], Double(s.fences.filter { $0.state == state }.count))
        }
        if let trips = s.tripsTotal {
            m.family("gpstrackd_trips_total", .counter, "Automatic trips ended.")
            m.sample("gpstrackd_trips_total", [:], Double(trips))
        }
        // The kinds alerts watch are there at 0 before the first: increase() needs a sample before it.
        var events = s.eventsTotal.counts
        for kind in seededEventKinds where events[kind.rawValue] == nil { events[kind.rawValue] = 0 }
        m.family(
            "gpstrackd_events_total", .counter, "Events the tracker journaled since the start, by GPSTRACK_EVENT name.")
        for (kind, n) in events.sorted(by: { $0.key < $1.key }) {
            m.sample("gpstrackd_events_total", ["kind": kind], Double(n))
        }
        m.family("gpstrackd_event_sequence", .gauge, "The last event's sequence number (it only grows).")
        m.sample("gpstrackd_event_sequence", [:], Double(s.seq))

        m.family("gpstrackd_storage_degraded", .gauge, "1 while the state database cannot be written.")
        m.sample("gpstrackd_storage_degraded", [:], s.storage.state == "degraded" ? 1 : 0)
        m.family("gpstrackd_storage_dropped_total", .counter, "Events and track points given up while degraded.")
        m.sample("gpstrackd_storage_dropped_total", ["kind": "event"], Double(s.storage.droppedEvents ?? 0))
        m.sample("gpstrackd_storage_dropped_total", ["kind": "point"], Double(s.storage.droppedPoints ?? 0))

        let uplinks = Self.uplinks(s)
        if !uplinks.isEmpty {
            m.family("gpstrackd_uplink_connected", .gauge, "1 while an uplink's server is connected.")
            for (name, u) in uplinks { m.sample("gpstrackd_uplink_connected", ["uplink": name], u.connected ? 1 : 0) }
            m.family("gpstrackd_outbox_messages", .gauge, "Messages stored and not yet confirmed by the server.")
            for (name, u) in uplinks { m.sample("gpstrackd_outbox_messages", ["uplink": name], Double(u.queued)) }
            m.family(
                "gpstrackd_outbox_oldest_age_seconds", .gauge,
                "How long the oldest waiting message has waited; 0 with none.")
            for (name, u) in uplinks {
                m.sample("gpstrackd_outbox_oldest_age_seconds", ["uplink": name], u.oldestAgeS ?? 0)
            }
            let confirmed = uplinks.compactMap { name, u in u.lastSuccess.flatMap(Timestamp.parse).map { (name, $0) } }
            if !confirmed.isEmpty {
                m.family(
                    "gpstrackd_uplink_last_success_seconds", .gauge,
                    "When the server last confirmed a message, Unix time.")
                for (name, t) in confirmed { m.sample("gpstrackd_uplink_last_success_seconds", ["uplink": name], t) }
            }
        }
        if let steps = s.steps {
            m.family("gpstrackd_steps_total", .counter, "Steps the pedometer counted.")
            m.sample("gpstrackd_steps_total", [:], Double(steps.total))
        }
        if let i = s.inputs {
            if let on = i.ignition {
                m.family("gpstrackd_ignition", .gauge, "The ignition: 1 on, 0 off or not read yet.")
                m.sample("gpstrackd_ignition", [:], on == "on" ? 1 : 0)
                m.family("gpstrackd_engine_seconds_total", .counter, "Seconds of fix time the ignition was on.")
                m.sample("gpstrackd_engine_seconds_total", [:], i.engineS)
            }
            if let on = i.power {
                m.family("gpstrackd_external_power", .gauge, "The external power: 1 on, 0 off or not read yet.")
                m.sample("gpstrackd_external_power", [:], on == "on" ? 1 : 0)
            }
            if let pct = i.batteryPct {
                m.family("gpstrackd_battery_percent", .gauge, "The battery's charge, percent.")
                m.sample("gpstrackd_battery_percent", [:], Double(pct))
            }
        }
        return m.text
    }

    /// The configured uplinks by their `uplink` label, in `status`'s order; MQTT alone from its
    /// own section when the reply has no `uplinks`.
    static func uplinks(_ s: StatusReply) -> [(String, StatusReply.UplinkStatus)] {
        if let u = s.uplinks {
            return UplinkName.allCases.compactMap { name in u[name].map { (name.rawValue, $0) } }
        }
        guard let mqtt = s.mqtt else { return [] }
        var m = StatusReply.UplinkStatus()
        m.connected = mqtt.connected
        m.queued = mqtt.outbox
        m.oldestAgeS = mqtt.oldestAgeS
        m.lastSuccess = mqtt.lastSuccess
        return [(UplinkName.mqtt.rawValue, m)]
    }

    /// Event kinds written at 0 until they first happen, for the shipped alert rules.
    public static let seededEventKinds: [EventName] = [.clockOffset, .fixLost, .gpsdLost, .guardBreach]

    enum Kind: String { case gauge, counter }

    struct Writer {
        var text = ""

        mutating func family(_ name: String, _ kind: Kind, _ help: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
        }

        mutating func sample(_ name: String, _ labels: [String: String], _ value: Double) {
            text += name
            if !labels.isEmpty {
                text +=
                    "{"
                    + labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\(Self.escaped($0.value))\"" }
                    .joined(separator: ",") + "}"
            }
            text += " \(Self.number(value))\n"
        }

        /// A label value's backslash, double quote and line feed escaped, as the format asks.
        static func escaped(_ v: String) -> String {
            var out = ""
            for c in v.unicodeScalars {
                switch c {
                case "\\": out += "\\\\"
                case "\"": out += "\\\""
                case "\n": out += "\\n"
                default: out.unicodeScalars.append(c)
                }
            }
            return out
        }

        static func number(_ v: Double) -> String {
            if v.isNaN { return "NaN" }
            if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
            if v == v.rounded(), abs(v) < 1e15 { return String(Int64(clamping: v)) }
            return "\(v)"
        }
    }
}
