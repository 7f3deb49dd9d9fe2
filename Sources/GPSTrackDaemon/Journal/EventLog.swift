import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The journal's wording of sequenced events: one entry per event, its data in UPPER_SNAKE
/// fields (a tracker event's own are in `TrackerEvent.journalEntry`). Pure: the same event
/// always reads the same.
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
        case .tracker(let t): return t.journalEntry(fields: fields)
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
