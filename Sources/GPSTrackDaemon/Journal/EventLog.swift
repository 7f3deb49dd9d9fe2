import GPSTrackCore

/// The journal's wording of tracker events: one entry per event, its data in UPPER_SNAKE fields.
/// Pure: the same event always reads the same.
enum EventLog {
    /// The journal entry for one sequenced event; `traveledM` is the trip so far.
    static func entry(for e: TrackingSession.Sequenced, traveledM: Double) -> LogEntry {
        var fields: [(String, String)] = [("GPSTRACK_SEQ", String(e.seq)),
                                          ("GPSTRACK_TRAVELED_M", number(traveledM))]
        switch e.event {
        case .fence(let f):
            let label = f.fenceName.map { "\($0) (\(f.fenceID))" } ?? f.fenceID
            fields += [("GPSTRACK_FENCE", f.fenceID), ("GPSTRACK_FENCE_NAME", f.fenceName ?? ""),
                       ("GPSTRACK_TIME", Timestamp.iso8601(f.time))]
            if let c = f.coordinate { fields += position(c) }
            if f.crossed { fields.append(("GPSTRACK_CROSSED", "1")) }
            switch f.kind {
            case .enter:
                let how = f.crossed ? " (passed through between two fixes)" : ""
                return LogEntry(event: "enter", priority: .notice, message: "Entered \(label)\(how)", fields: fields)
            case .exit:
                let how = f.crossed ? " (passed through between two fixes)" : ""
                return LogEntry(event: "exit", priority: .notice, message: "Left \(label)\(how)", fields: fields)
            case .dwell:
                let secs = Int(f.dwellS ?? 0)
                return LogEntry(event: "dwell", priority: .notice, message: "In \(label) for \(secs) s", fields: fields)
            case .state(let state):
                fields.append(("GPSTRACK_STATE", state.rawValue))
                return LogEntry(event: "state", priority: .info, message: "\(label) is \(state.rawValue)", fields: fields)
            }
        case .fencesDetermined(let c):
            fields += [("GPSTRACK_INSIDE", String(c.inside)), ("GPSTRACK_OUTSIDE", String(c.outside)),
                       ("GPSTRACK_UNKNOWN", String(c.unknown)), ("GPSTRACK_TIME", Timestamp.iso8601(c.time))]
            return LogEntry(event: "fences_determined", priority: .info,
                            message: "Fences determined: \(c.inside) inside, \(c.outside) outside, \(c.unknown) unknown", fields: fields)
        case .tracker(let t):
            switch t {
            case .tripStart(let trip, let time, let at):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time))] + position(at)
                if let trip { fields.append(("GPSTRACK_TRIP", String(trip))) }
                let label = trip.map { "Trip \($0)" } ?? "Trip"
                return LogEntry(event: "trip_start", priority: .info, message: "\(label) started at \(coordinate(at))", fields: fields)
            case .tripEnd(let f):
                fields += [("GPSTRACK_TRIP", String(f.id)), ("GPSTRACK_START", Timestamp.iso8601(f.start)),
                           ("GPSTRACK_END", Timestamp.iso8601(f.end)), ("GPSTRACK_TIME", Timestamp.iso8601(f.end)),
                           ("GPSTRACK_FROM_LAT", "\(f.from.latitude)"), ("GPSTRACK_FROM_LON", "\(f.from.longitude)"),
                           ("GPSTRACK_FROM_FENCES", f.fromFences.joined(separator: ",")),
                           ("GPSTRACK_TO_LAT", "\(f.to.latitude)"), ("GPSTRACK_TO_LON", "\(f.to.longitude)"),
                           ("GPSTRACK_TO_FENCES", f.toFences.joined(separator: ",")),
                           ("GPSTRACK_TRIP_TRAVELED_M", number(f.traveledM)),
                           ("GPSTRACK_STRAIGHT_LINE_M", number(f.straightLineM)),
                           ("GPSTRACK_DURATION_S", number(f.durationS)), ("GPSTRACK_MOVING_S", number(f.movingS)),
                           ("GPSTRACK_MAX_SPEED_MPS", number(f.maxSpeedMps)),
                           ("GPSTRACK_AVG_SPEED_MPS", number(f.avgSpeedMps))] + position(f.to)
                let from = f.fromFences.first ?? coordinate(f.from), to = f.toFences.first ?? coordinate(f.to)
                return LogEntry(event: "trip_end", priority: .info,
                                message: "Trip \(f.id) ended: \(from) → \(to), \(metres(f.traveledM)) in \(Int(f.durationS.rounded())) s",
                                fields: fields)
            case .tripStop(_, let traveled):
                return LogEntry(event: "trip_stop", priority: .info, message: "Trip stopped after \(metres(traveled))", fields: fields)
            case .guardArmed(let time, let at, let radius):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time)), ("GPSTRACK_RADIUS_M", number(radius))] + position(at)
                return LogEntry(event: "guard_armed", priority: .notice,
                                message: "Parked guard armed: \(metres(radius)) around \(coordinate(at))", fields: fields)
            case .guardBreach(let time, let at, let parked, let distance):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time)), ("GPSTRACK_DISTANCE_M", number(distance)),
                           ("GPSTRACK_PARKED_LAT", "\(parked.latitude)"), ("GPSTRACK_PARKED_LON", "\(parked.longitude)")] + position(at)
                return LogEntry(event: "guard_breach", priority: .warning,
                                message: "Parked guard breached: \(metres(distance)) from where it was parked", fields: fields)
            case .overspeedStart(let time, let at, let limit, let speed):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time)), ("GPSTRACK_LIMIT_KMH", number(limit)),
                           ("GPSTRACK_SPEED_MPS", number(speed))] + position(at)
                return LogEntry(event: "overspeed_start", priority: .notice,
                                message: "Over the \(Int(limit.rounded())) km/h limit", fields: fields)
            case .overspeedEnd(let time, let at, let limit, let maxSpeed, let duration, let distance):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time)), ("GPSTRACK_LIMIT_KMH", number(limit)),
                           ("GPSTRACK_MAX_SPEED_MPS", number(maxSpeed)), ("GPSTRACK_DURATION_S", number(duration)),
                           ("GPSTRACK_DISTANCE_M", number(distance))] + position(at)
                return LogEntry(event: "overspeed_end", priority: .notice,
                                message: "Back under the \(Int(limit.rounded())) km/h limit after \(Int(duration.rounded())) s, "
                                    + "\(metres(distance)) over it, at most \(Int((maxSpeed * 3.6).rounded())) km/h", fields: fields)
            case .discontinuity(let time, let at, let counted):
                fields += [("GPSTRACK_TIME", Timestamp.iso8601(time)), ("GPSTRACK_COUNTED", counted ? "1" : "0")] + position(at)
                return LogEntry(event: "discontinuity", priority: .info,
                                message: "Position or clock jumped; \(counted ? "hop counted" : "jump not counted")", fields: fields)
            }
        }
    }

    static func position(_ c: Coordinate) -> [(String, String)] {
        [("GPSTRACK_LAT", "\(c.latitude)"), ("GPSTRACK_LON", "\(c.longitude)")]
    }

    static func number(_ v: Double) -> String { JSONObject.number(v, decimals: 2) }
    static func metres(_ v: Double) -> String { "\(Int(v.rounded())) m" }
    static func coordinate(_ c: Coordinate) -> String {
        "\(JSONObject.number(c.latitude, decimals: 6)),\(JSONObject.number(c.longitude, decimals: 6))"
    }
}
