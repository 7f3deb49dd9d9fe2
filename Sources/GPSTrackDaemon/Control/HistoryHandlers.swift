import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The control commands that read the store's history: trips, stops, events, steps. Each reads a
/// `HistoryView` (see `TrackerService.history`) and answers with its reply type.
enum HistoryHandlers {
    typealias Reply = TrackerService.Reply

    static func autoTrips(_ v: HistoryView) -> Result<Reply, ControlError> {
        v.availableStore().map { store in
            var trips = store.autoTrips().map { Reports.autoTrip($0, state: "ended") }
            if let open = Reports.openTrip(v.session) { trips.append(open) }
            return AutoTripsReply(trips: trips)
        }
    }

    static func trips(_ v: HistoryView) -> Result<Reply, ControlError> {
        v.availableStore().map { store in
            StoredTripsReply(
                trips: store.trips().map { t in
                    StoredTrip(
                        id: Int(t.id), state: t.state, startedAt: t.startedAt.map(Timestamp.iso8601),
                        endedAt: t.endedAt.map(Timestamp.iso8601), traveledM: t.traveledM.rounded(decimals: 2),
                        straightLineM: t.straightLineM.rounded(decimals: 2),
                        durationS: t.startedAt.flatMap { s in t.endedAt.map { ($0 - s).rounded(decimals: 1) } })
                })
        }
    }

    static func stops(_ v: HistoryView) -> Result<Reply, ControlError> {
        let now = v.session.tracker.lastAccepted?.time
        return v.availableStore().map { store in
            StopsReply(
                stops: store.stops().map { stop, names in
                    StopRow(
                        arrival: Timestamp.iso8601(stop.arrival), departure: stop.departure.map(Timestamp.iso8601),
                        durationS: (stop.departure ?? now).map { ($0 - stop.arrival).rounded(decimals: 1) },
                        at: Reports.place(stop.at, fences: names), afterTrip: stop.afterTrip)
                })
        }
    }

    /// Stored events, as the store holds them; the reply reads them back (see `StoredEvents`).
    static func events(_ v: HistoryView, since: Double?, fence: String?) -> Result<Reply, ControlError> {
        v.availableStore().map { store in
            StoredEvents(lines: store.events(since: since, fence: fence), journal: v.journal)
        }
    }
}

/// The `events` reply: stored rows read back as the type they were written from (this daemon
/// wrote each row with `EventJSON`, so each reads back to the same line). Read when the reply
/// is encoded, by the control task, not on the tracker's actor: 10,000 rows take tens of ms.
/// A row that does not read (written by another version, or damaged) is left out and said so
/// in the journal, not sent untyped.
struct StoredEvents: Encodable, Sendable {
    var lines: [String]
    var journal: Journal

    func encode(to encoder: any Encoder) throws { try read().encode(to: encoder) }

    /// The rows that read, as the reply; the others told to the journal.
    func read() -> EventsReply {
        var unread: [String] = []
        let events = lines.compactMap { line -> EventLine? in
            do { return try ReplyDecoder.decode(EventLine.self, line: line) } catch {
                unread.append("\(error)")
                return nil
            }
        }
        if let first = unread.first {
            journal.log(
                LogEntry(
                    event: .eventsUnreadable, priority: .warning,
                    message: "\(unread.count) stored events do not read as events and were left out of the reply; "
                        + "the first: \(first)",
                    fields: [(.skipped, String(unread.count))]))
        }
        return EventsReply(events: events)
    }
}
