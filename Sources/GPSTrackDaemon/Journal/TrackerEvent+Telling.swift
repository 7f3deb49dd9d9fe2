import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// How each tracker event is told: its line (store, `watch`, `events`, replay) and its journal
/// entry, side by side, so that a new kind is told in this one file. The sequenced, fence and
/// determination parts stay in `EventJSON` and `EventLog`, which call in here.
extension TrackerEvent {
    /// The event as its line's body; figures rounded here, as the line has always had them.
    var lineBody: EventLine.Body {
        switch self {
        case .tripStart(let trip, let time, let at):
            return .tripStart(.init(trip: trip, time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude))
        case .guardArmed(let time, let at, let radius):
            return .guardArmed(
                .init(
                    time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude,
                    radiusM: radius.rounded(decimals: 1)))
        case .guardBreach(let time, let at, let parked, let distance, let speed):
            return .guardBreach(
                .init(
                    time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude,
                    distanceM: distance.rounded(decimals: 1), speedMps: speed?.rounded(decimals: 2),
                    parked: EventJSON.place(parked, fences: [])))
        case .overspeedStart(let time, let at, let limit, let speed):
            return .overspeedStart(
                .init(
                    time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude,
                    limitKmh: limit.rounded(decimals: 1), speedMps: speed.rounded(decimals: 2)))
        case .overspeedEnd(let time, let at, let limit, let maxSpeed, let duration, let distance):
            return .overspeedEnd(
                .init(
                    time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude,
                    limitKmh: limit.rounded(decimals: 1), maxSpeedMps: maxSpeed.rounded(decimals: 2),
                    durationS: duration.rounded(decimals: 1), distanceM: distance.rounded(decimals: 1)))
        case .tripEnd(let f):
            return .tripEnd(
                .init(
                    trip: f.id, start: Timestamp.iso8601(f.start), end: Timestamp.iso8601(f.end),
                    from: EventJSON.place(f.from, fences: f.fromFences), to: EventJSON.place(f.to, fences: f.toFences),
                    traveledM: f.traveledM.rounded(decimals: 2), straightLineM: f.straightLineM.rounded(decimals: 2),
                    durationS: f.durationS.rounded(decimals: 1), movingS: f.movingS.rounded(decimals: 1),
                    maxSpeedMps: f.maxSpeedMps.rounded(decimals: 2), avgSpeedMps: f.avgSpeedMps.rounded(decimals: 2),
                    engineS: f.engineS?.rounded(decimals: 1)))
        case .discontinuity(let time, let at, let counted):
            return .discontinuity(
                .init(time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude, counted: counted))
        case .tripStop(let time, let traveled):
            return .tripStop(.init(time: time.map(Timestamp.iso8601), traveledM: traveled.rounded(decimals: 2)))
        case .fixAcquired(let time, let at, let device):
            return .fixAcquired(
                .init(time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude, device: device))
        case .fixLost(let time, let reason, let device):
            return .fixLost(.init(time: time.map(Timestamp.iso8601), reason: reason.code, device: device))
        case .anchor(let a): return EventJSON.body(a)
        case .input(let i): return EventJSON.body(i)
        case .guardRepeat(let time, let at, let parked, let distance, let speed, let n):
            return .guardBreach(
                .init(
                    time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude,
                    distanceM: distance.rounded(decimals: 1), speedMps: speed?.rounded(decimals: 2),
                    parked: EventJSON.place(parked, fences: []), repeat: n))
        case .guardArmRefused(let time, let at, let parked):
            return .guardArmRefused(
                .init(
                    time: Timestamp.iso8601(time), lat: at.latitude, lon: at.longitude,
                    parked: EventJSON.place(parked, fences: [])))
        case .guardAck(let time): return .guardAck(.init(time: Timestamp.iso8601(time)))
        case .guardNoPosition(let time, let silent, let n):
            return .guardNoPosition(
                .init(time: Timestamp.iso8601(time), silentS: silent.rounded(decimals: 1), repeat: n))
        }
    }

    /// The journal's entry: wording, priority and fields after `base` (the sequence number and
    /// the trip so far). The parked guard's alarms are at warning and crit, as someone must act.
    func journalEntry(fields base: [(JournalField, String)]) -> LogEntry {
        typealias L = EventLog
        var fields = base
        switch self {
        case .tripStart(let trip, let time, let at):
            fields += [(.time, Timestamp.iso8601(time))] + L.position(at)
            if let trip { fields.append((.trip, String(trip))) }
            let label = trip.map { "Trip \($0)" } ?? "Trip"
            return LogEntry(
                event: .tripStart, priority: .info, message: "\(label) started at \(L.coordinate(at))", fields: fields)
        case .tripEnd(let f):
            fields +=
                [
                    (.trip, String(f.id)), (.start, Timestamp.iso8601(f.start)),
                    (.end, Timestamp.iso8601(f.end)), (.time, Timestamp.iso8601(f.end)),
                    (.fromLat, "\(f.from.latitude)"), (.fromLon, "\(f.from.longitude)"),
                    (.fromFences, f.fromFences.joined(separator: ",")),
                    (.toLat, "\(f.to.latitude)"), (.toLon, "\(f.to.longitude)"),
                    (.toFences, f.toFences.joined(separator: ",")),
                    (.tripTraveledM, L.number(f.traveledM)),
                    (.straightLineM, L.number(f.straightLineM)),
                    (.durationS, L.number(f.durationS)), (.movingS, L.number(f.movingS)),
                    (.maxSpeedMps, L.number(f.maxSpeedMps)),
                    (.avgSpeedMps, L.number(f.avgSpeedMps)),
                ] + (f.engineS.map { [(.engineS, L.number($0))] } ?? []) + L.position(f.to)
            let from = f.fromFences.first ?? L.coordinate(f.from)
            let to = f.toFences.first ?? L.coordinate(f.to)
            return LogEntry(
                event: .tripEnd, priority: .info,
                message:
                    "Trip \(f.id) ended: \(from) → \(to), \(L.metres(f.traveledM)) in \(L.whole(f.durationS)) s",
                fields: fields)
        case .tripStop(_, let traveled):
            return LogEntry(
                event: .tripStop, priority: .info, message: "Trip stopped after \(L.metres(traveled))", fields: fields)
        case .guardArmed(let time, let at, let radius):
            fields += [(.time, Timestamp.iso8601(time)), (.radiusM, L.number(radius))] + L.position(at)
            return LogEntry(
                event: .guardArmed, priority: .notice,
                message: "Parked guard armed: \(L.metres(radius)) around \(L.coordinate(at))", fields: fields)
        case .guardBreach(let time, let at, let parked, let distance, let speed):
            fields +=
                [
                    (.time, Timestamp.iso8601(time)), (.distanceM, L.number(distance)),
                    (.parkedLat, "\(parked.latitude)"), (.parkedLon, "\(parked.longitude)"),
                ] + L.position(at) + (speed.map { [(.speedMps, L.number($0))] } ?? [])
            return LogEntry(
                event: .guardBreach, priority: .warning,
                message: "Parked guard breached: \(L.metres(distance)) from where it was parked", fields: fields)
        case .guardRepeat(let time, let at, let parked, let distance, let speed, let n):
            fields +=
                [
                    (.time, Timestamp.iso8601(time)), (.distanceM, L.number(distance)),
                    (.parkedLat, "\(parked.latitude)"), (.parkedLon, "\(parked.longitude)"), (.repeat, String(n)),
                ] + L.position(at) + (speed.map { [(.speedMps, L.number($0))] } ?? [])
            return LogEntry(
                event: .guardBreach, priority: .warning,
                message: "Parked guard breached: now \(L.metres(distance)) from where it was parked, at "
                    + "\(L.coordinate(at)) (said again, \(n)); gpstrackctl guard ack", fields: fields)
        case .guardArmRefused(let time, let at, let parked):
            fields +=
                [
                    (.time, Timestamp.iso8601(time)), (.parkedLat, "\(parked.latitude)"),
                    (.parkedLon, "\(parked.longitude)"),
                ] + L.position(at)
            return LogEntry(
                event: .guardArmRefused, priority: .warning,
                message: "Parked guard not armed at \(L.coordinate(at)): the breach is still raised; "
                    + "gpstrackctl guard ack", fields: fields)
        case .guardAck(let time):
            fields.append((.time, Timestamp.iso8601(time)))
            return LogEntry(
                event: .guardAck, priority: .notice, message: "Parked guard breach acknowledged", fields: fields)
        case .guardNoPosition(let time, let silent, let n):
            fields += [(.time, Timestamp.iso8601(time)), (.silentS, L.number(silent)), (.repeat, String(n))]
            let again = n > 0 ? " (said again, \(n))" : ""
            return LogEntry(
                event: .guardNoPosition, priority: .crit,
                message:
                    "PARKED GUARD BLIND: no position for \(Int(clamping: silent)) s\(again); gpstrackctl guard ack",
                fields: fields)
        case .overspeedStart(let time, let at, let limit, let speed):
            fields +=
                [
                    (.time, Timestamp.iso8601(time)), (.limitKmh, L.number(limit)),
                    (.speedMps, L.number(speed)),
                ] + L.position(at)
            return LogEntry(
                event: .overspeedStart, priority: .notice,
                message: "Over the \(Int(clamping: limit)) km/h limit", fields: fields)
        case .overspeedEnd(let time, let at, let limit, let maxSpeed, let duration, let distance):
            fields +=
                [
                    (.time, Timestamp.iso8601(time)), (.limitKmh, L.number(limit)),
                    (.maxSpeedMps, L.number(maxSpeed)), (.durationS, L.number(duration)),
                    (.distanceM, L.number(distance)),
                ] + L.position(at)
            return LogEntry(
                event: .overspeedEnd, priority: .notice,
                message: "Back under the \(Int(clamping: limit)) km/h limit after \(Int(clamping: duration)) s, "
                    + "\(L.metres(distance)) over it, at most \(L.whole(maxSpeed * 3.6)) km/h", fields: fields)
        case .discontinuity(let time, let at, let counted):
            fields += [(.time, Timestamp.iso8601(time)), (.counted, counted ? "1" : "0")] + L.position(at)
            return LogEntry(
                event: .discontinuity, priority: .info,
                message: "Position or clock jumped; \(counted ? "hop counted" : "jump not counted")", fields: fields)
        case .fixAcquired(let time, let at, let device):
            fields += [(.time, Timestamp.iso8601(time))] + L.position(at)
            if let device, !device.isEmpty { fields.append((.device, device)) }
            let from = device.flatMap { $0.isEmpty ? nil : " from \($0)" } ?? ""
            return LogEntry(event: .fixAcquired, priority: .info, message: "GPS fix acquired" + from, fields: fields)
        case .fixLost(let time, let reason, let device):
            if let time { fields.append((.time, Timestamp.iso8601(time))) }
            fields.append((.reason, reason.code))
            if let device, !device.isEmpty { fields.append((.device, device)) }
            return LogEntry(
                event: .fixLost, priority: .warning, message: "GPS fix lost (\(reason.text))", fields: fields)
        case .anchor(let a): return EventLog.entry(for: a, fields: fields)
        case .input(let i): return EventLog.entry(for: i, fields: fields)
        }
    }
}
