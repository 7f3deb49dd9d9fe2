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
            return f.journalEntry(fields: fields)
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
    static func metres(_ v: Double) -> String { "\(whole(v)) m" }
    /// `v` rounded to a whole number; beyond Int (a damaged state file's 1e300 trip) as Swift
    /// writes a Double, where `Int(_:)` trapped.
    static func whole(_ v: Double) -> String { Int(checking: v).map { String($0) } ?? "\(v)" }
    static func coordinate(_ c: Coordinate) -> String {
        "\(ReplyEncoder.number(c.latitude, decimals: 6)),\(ReplyEncoder.number(c.longitude, decimals: 6))"
    }
}
