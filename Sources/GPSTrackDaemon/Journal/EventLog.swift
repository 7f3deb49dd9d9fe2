import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The journal's wording of tracker events: one entry per event, its data in UPPER_SNAKE fields.
/// Pure: the same event always reads the same.
enum EventLog {
    /// The journal entry for one sequenced event; `traveledM` is the trip so far.
    static func entry(for e: TrackingSession.Sequenced, traveledM: Double) -> LogEntry {
        var fields: [(JournalField, String)] = [
            (.seq, String(e.seq)),
            (.traveledM, number(traveledM)),
        ]
        switch e.event {
        case .fence(let f):
            let label = f.fenceName.map { "\($0) (\(f.fenceID))" } ?? f.fenceID
            fields += [
                (.fence, f.fenceID), (.fenceName, f.fenceName ?? ""),
                (.time, Timestamp.iso8601(f.time)),
            ]
            if let c = f.coordinate { fields += position(c) }
            if f.crossed { fields.append((.crossed, "1")) }
            switch f.kind {
            case .enter:
                let how = f.crossed ? " (passed through between two fixes)" : ""
                return LogEntry(event: .enter, priority: .notice, message: "Entered \(label)\(how)", fields: fields)
            case .exit:
                let how = f.crossed ? " (passed through between two fixes)" : ""
                return LogEntry(event: .exit, priority: .notice, message: "Left \(label)\(how)", fields: fields)
            case .dwell:
                let secs = Int(f.dwellS ?? 0)
                return LogEntry(event: .dwell, priority: .notice, message: "In \(label) for \(secs) s", fields: fields)
            case .state(let state):
                fields.append((.state, state.rawValue))
                return LogEntry(
                    event: .state, priority: .info, message: "\(label) is \(state.rawValue)", fields: fields)
            }
        case .fencesDetermined(let c):
            fields += [
                (.inside, String(c.inside)), (.outside, String(c.outside)),
                (.unknown, String(c.unknown)), (.time, Timestamp.iso8601(c.time)),
            ]
            return LogEntry(
                event: .fencesDetermined, priority: .info,
                message: "Fences determined: \(c.inside) inside, \(c.outside) outside, \(c.unknown) unknown",
                fields: fields)
        case .tracker(let t):
            switch t {
            case .tripStart(let trip, let time, let at):
                fields += [(.time, Timestamp.iso8601(time))] + position(at)
                if let trip { fields.append((.trip, String(trip))) }
                let label = trip.map { "Trip \($0)" } ?? "Trip"
                return LogEntry(
                    event: .tripStart, priority: .info, message: "\(label) started at \(coordinate(at))", fields: fields
                )
            case .tripEnd(let f):
                fields +=
                    [
                        (.trip, String(f.id)), (.start, Timestamp.iso8601(f.start)),
                        (.end, Timestamp.iso8601(f.end)), (.time, Timestamp.iso8601(f.end)),
                        (.fromLat, "\(f.from.latitude)"), (.fromLon, "\(f.from.longitude)"),
                        (.fromFences, f.fromFences.joined(separator: ",")),
                        (.toLat, "\(f.to.latitude)"), (.toLon, "\(f.to.longitude)"),
                        (.toFences, f.toFences.joined(separator: ",")),
                        (.tripTraveledM, number(f.traveledM)),
                        (.straightLineM, number(f.straightLineM)),
                        (.durationS, number(f.durationS)), (.movingS, number(f.movingS)),
                        (.maxSpeedMps, number(f.maxSpeedMps)),
                        (.avgSpeedMps, number(f.avgSpeedMps)),
                    ] + position(f.to)
                let from = f.fromFences.first ?? coordinate(f.from)
                let to = f.toFences.first ?? coordinate(f.to)
                return LogEntry(
                    event: .tripEnd, priority: .info,
                    message:
                        "Trip \(f.id) ended: \(from) → \(to), \(metres(f.traveledM)) in \(Int(f.durationS.rounded())) s",
                    fields: fields)
            case .tripStop(_, let traveled):
                return LogEntry(
                    event: .tripStop, priority: .info, message: "Trip stopped after \(metres(traveled))", fields: fields
                )
            case .guardArmed(let time, let at, let radius):
                fields += [(.time, Timestamp.iso8601(time)), (.radiusM, number(radius))] + position(at)
                return LogEntry(
                    event: .guardArmed, priority: .notice,
                    message: "Parked guard armed: \(metres(radius)) around \(coordinate(at))", fields: fields)
            case .guardBreach(let time, let at, let parked, let distance):
                fields +=
                    [
                        (.time, Timestamp.iso8601(time)), (.distanceM, number(distance)),
                        (.parkedLat, "\(parked.latitude)"), (.parkedLon, "\(parked.longitude)"),
                    ] + position(at)
                return LogEntry(
                    event: .guardBreach, priority: .warning,
                    message: "Parked guard breached: \(metres(distance)) from where it was parked", fields: fields)
            case .overspeedStart(let time, let at, let limit, let speed):
                fields +=
                    [
                        (.time, Timestamp.iso8601(time)), (.limitKmh, number(limit)),
                        (.speedMps, number(speed)),
                    ] + position(at)
                return LogEntry(
                    event: .overspeedStart, priority: .notice,
                    message: "Over the \(Int(limit.rounded())) km/h limit", fields: fields)
            case .overspeedEnd(let time, let at, let limit, let maxSpeed, let duration, let distance):
                fields +=
                    [
                        (.time, Timestamp.iso8601(time)), (.limitKmh, number(limit)),
                        (.maxSpeedMps, number(maxSpeed)), (.durationS, number(duration)),
                        (.distanceM, number(distance)),
                    ] + position(at)
                return LogEntry(
                    event: .overspeedEnd, priority: .notice,
                    message: "Back under the \(Int(limit.rounded())) km/h limit after \(Int(duration.rounded())) s, "
                        + "\(metres(distance)) over it, at most \(Int((maxSpeed * 3.6).rounded())) km/h", fields: fields
                )
            case .discontinuity(let time, let at, let counted):
                fields += [(.time, Timestamp.iso8601(time)), (.counted, counted ? "1" : "0")] + position(at)
                return LogEntry(
                    event: .discontinuity, priority: .info,
                    message: "Position or clock jumped; \(counted ? "hop counted" : "jump not counted")", fields: fields
                )
            case .fixAcquired(let time, let at, let device):
                fields += [(.time, Timestamp.iso8601(time))] + position(at)
                if let device, !device.isEmpty { fields.append((.device, device)) }
                let from = device.flatMap { $0.isEmpty ? nil : " from \($0)" } ?? ""
                return LogEntry(
                    event: .fixAcquired, priority: .info, message: "GPS fix acquired" + from, fields: fields)
            case .fixLost(let time, let reason, let device):
                if let time { fields.append((.time, Timestamp.iso8601(time))) }
                fields.append((.reason, reason.code))
                if let device, !device.isEmpty { fields.append((.device, device)) }
                return LogEntry(
                    event: .fixLost, priority: .warning, message: "GPS fix lost (\(reason.text))", fields: fields)
            case .anchor(let a): return entry(for: a, fields: fields)
            case .guardRepeat, .guardAck, .guardNoPosition: return guardEntry(for: t, fields: fields)
            }
        }
    }

    static func position(_ c: Coordinate) -> [(JournalField, String)] {
        [(.lat, "\(c.latitude)"), (.lon, "\(c.longitude)")]
    }

    static func number(_ v: Double) -> String { ReplyEncoder.number(v, decimals: 2) }
    static func metres(_ v: Double) -> String { "\(Int(v.rounded())) m" }
    static func coordinate(_ c: Coordinate) -> String {
        "\(ReplyEncoder.number(c.latitude, decimals: 6)),\(ReplyEncoder.number(c.longitude, decimals: 6))"
    }
}
