import GPSTrackCore
import GPSTrackProtocol

extension EventLog {
    /// A latched breach said again (at warning, as the breach), the no-position alarm (crit),
    /// or an acknowledgement.
    static func guardEntry(for t: TrackerEvent, fields base: [(JournalField, String)]) -> LogEntry {
        var fields = base
        switch t {
        case .guardRepeat(let time, let at, let parked, let distance, let n):
            fields +=
                [
                    (.time, Timestamp.iso8601(time)), (.distanceM, number(distance)),
                    (.parkedLat, "\(parked.latitude)"), (.parkedLon, "\(parked.longitude)"), (.repeat, String(n)),
                ] + position(at)
            return LogEntry(
                event: .guardBreach, priority: .warning,
                message: "Parked guard breached: \(metres(distance)) from where it was parked (said again, \(n)); "
                    + "gpstrackctl guard ack", fields: fields)
        case .guardNoPosition(let time, let silent, let n):
            fields += [(.time, Timestamp.iso8601(time)), (.silentS, number(silent)), (.repeat, String(n))]
            let again = n > 0 ? " (said again, \(n))" : ""
            return LogEntry(
                event: .guardNoPosition, priority: .crit,
                message:
                    "PARKED GUARD BLIND: no position for \(Int(silent.rounded())) s\(again); gpstrackctl guard ack",
                fields: fields)
        default:
            // `.guardAck`, the only other case handed here.
            let time = if case .guardAck(let at) = t { at } else { 0.0 }
            fields.append((.time, Timestamp.iso8601(time)))
            return LogEntry(
                event: .guardAck, priority: .notice, message: "Parked guard breach acknowledged", fields: fields)
        }
    }
}
