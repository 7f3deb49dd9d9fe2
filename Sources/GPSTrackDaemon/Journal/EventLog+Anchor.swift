import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The anchor watch's journal entries: the alarms at `crit` (someone must go on deck), the
/// warning at `warning`, the rest at `notice`.
extension EventLog {
    static func entry(for a: AnchorEvent, fields base: [(JournalField, String)]) -> LogEntry {
        var fields = base + [(.time, Timestamp.iso8601(a.time))]
        switch a {
        case .dropped(_, let anchor, let radius):
            fields += [
                (.anchorLat, "\(anchor.latitude)"), (.anchorLon, "\(anchor.longitude)"), (.radiusM, number(radius)),
            ]
            return LogEntry(
                event: .anchorDropped, priority: .notice,
                message: "Anchor dropped at \(coordinate(anchor)), watching \(metres(radius)) around it", fields: fields
            )
        case .warning(_, let at, let d):
            fields += [(.distanceM, number(d))] + position(at)
            return LogEntry(
                event: .anchorWarning, priority: .warning,
                message: "Anchor watch: the boat is \(metres(d)) from the anchor, near the radius", fields: fields)
        case .alarm(_, let at, let d, let n):
            fields += [(.distanceM, number(d)), (.repeat, String(n))] + position(at)
            let again = n > 0 ? " (said again, \(n))" : ""
            return LogEntry(
                event: .anchorAlarm, priority: .crit,
                message: "ANCHOR DRAGGING: the boat is \(metres(d)) from the anchor\(again); gpstrackctl anchor ack",
                fields: fields)
        case .noPosition(_, let silent, let n):
            fields += [(.silentS, number(silent)), (.repeat, String(n))]
            let again = n > 0 ? " (said again, \(n))" : ""
            return LogEntry(
                event: .anchorNoPosition, priority: .crit,
                message:
                    "ANCHOR WATCH BLIND: no position for \(Int(clamping: silent)) s\(again); gpstrackctl anchor ack",
                fields: fields)
        case .acknowledged:
            return LogEntry(event: .anchorAck, priority: .notice, message: "Anchor alarm acknowledged", fields: fields)
        case .raised(_, let maxD):
            fields += [(.maxDistanceM, number(maxD))]
            return LogEntry(
                event: .anchorRaised, priority: .notice,
                message: "Anchor raised; the boat was at most \(metres(maxD)) from it", fields: fields)
        }
    }
}

extension EventJSON {
    /// An anchor event as its line.
    static func body(_ a: AnchorEvent) -> EventLine.Body {
        let time = Timestamp.iso8601(a.time)
        switch a {
        case .dropped(_, let anchor, let radius):
            return .anchor(
                .init(
                    kind: .dropped, time: time, anchorLat: anchor.latitude, anchorLon: anchor.longitude,
                    radiusM: radius.rounded(decimals: 1)))
        case .warning(_, let at, let d):
            return .anchor(
                .init(
                    kind: .warning, time: time, lat: at.latitude, lon: at.longitude, distanceM: d.rounded(decimals: 1)))
        case .alarm(_, let at, let d, let n):
            return .anchor(
                .init(
                    kind: .alarm, time: time, lat: at.latitude, lon: at.longitude, distanceM: d.rounded(decimals: 1),
                    repeat: n))
        case .noPosition(_, let silent, let n):
            return .anchor(.init(kind: .noPosition, time: time, silentS: silent.rounded(decimals: 1), repeat: n))
        case .acknowledged:
            return .anchor(.init(kind: .ack, time: time))
        case .raised(_, let maxD):
            return .anchor(.init(kind: .raised, time: time, maxDistanceM: maxD.rounded(decimals: 1)))
        }
    }
}
