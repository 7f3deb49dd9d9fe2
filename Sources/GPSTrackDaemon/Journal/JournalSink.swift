import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The journal's and the watchers' sink of the tracker, second after the store: each event as
/// its journal entry (`EventLog`) and its JSON line to `watch`; the actor's other notices go the
/// same way through `tell`. It owns the counts of what it journaled, by event name.
final class JournalSink: TrackerSink {
    let name = "journal"
    let journal: Journal
    /// Where `watch` lines go (the control server's broadcast), if anywhere.
    var watch: (@Sendable (String) -> Void)?
    /// What was journaled since the start, by `GPSTRACK_EVENT` name (`status`, the metrics).
    private(set) var counts: [String: Int] = [:]

    init(journal: Journal) { self.journal = journal }

    func take(_ step: TrackerStep) -> [LogEntry] {
        let traveledM = step.tracker.trip.traveledM
        for (e, line) in step.lined { tell(EventLog.entry(for: e, traveledM: traveledM), json: line) }
        return []
    }

    /// Journals an entry and streams it to watchers: a tracking event as its `EventLine`
    /// (`json`, replay's line), anything else as a `NoticeLine`.
    func tell(_ entry: LogEntry, json: String? = nil) {
        log(entry)
        guard let watch else { return }
        if let json {
            watch(json)
            return
        }
        let fields = entry.fields.map { NoticeLine.Field($0.0.noticeName, $0.1) }
        watch(ReplyEncoder.encode(NoticeLine(event: entry.event.rawValue, message: entry.message, fields: fields)))
    }

    /// Journals an entry, not streamed, and counts it by its event name.
    func log(_ entry: LogEntry) {
        counts[entry.event.rawValue, default: 0] += 1
        journal.log(entry)
    }
}
