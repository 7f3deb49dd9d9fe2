import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// How each fence event is told: its line and its journal entry, side by side, so that a new
/// fence kind is told in this one file (as `TrackerEvent+Telling` does for the tracker's).
extension FenceEvent {
    /// The event as its line's body: the fence by its id.
    var lineBody: EventLine.Body {
        var f = EventLine.FenceChange(
            fence: fenceID, name: fenceName, time: Timestamp.iso8601(time),
            lat: coordinate?.latitude, lon: coordinate?.longitude, crossed: crossed ? true : nil)
        switch kind {
        case .enter: return .enter(f)
        case .exit: return .exit(f)
        case .dwell: return .dwell(f)
        case .state(let s):
            f.state = s.rawValue
            return .state(f)
        }
    }

    /// The journal entry, after the sequenced event's `fields` (its sequence number, the trip so far).
    func journalEntry(fields: [(JournalField, String)]) -> LogEntry {
        var fields = fields
        let label = fenceName.map { "\($0) (\(fenceID))" } ?? fenceID
        fields += [
            (.fence, fenceID), (.fenceName, fenceName ?? ""),
            (.time, Timestamp.iso8601(time)),
        ]
        if let c = coordinate { fields += EventLog.position(c) }
        if crossed { fields.append((.crossed, "1")) }
        switch kind {
        case .enter:
            let how = crossed ? " (passed through between two fixes)" : ""
            return LogEntry(event: .enter, priority: .notice, message: "Entered \(label)\(how)", fields: fields)
        case .exit:
            let how = crossed ? " (passed through between two fixes)" : ""
            return LogEntry(event: .exit, priority: .notice, message: "Left \(label)\(how)", fields: fields)
        case .dwell:
            let secs = Int(clamping: dwellS ?? 0, rounding: .towardZero)
            return LogEntry(event: .dwell, priority: .notice, message: "In \(label) for \(secs) s", fields: fields)
        case .state(let state):
            fields.append((.state, state.rawValue))
            return LogEntry(
                event: .state, priority: .info, message: "\(label) is \(state.rawValue)", fields: fields)
        }
    }
}
