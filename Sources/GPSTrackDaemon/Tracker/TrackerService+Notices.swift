import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// What the tracker tells beside its events: malformed gpsd lines, counted and rate-limited,
/// and systemd's `STATUS=` line.
extension TrackerService {
    /// Seconds between two journal entries about malformed lines: a stream of garbage is
    /// counted, not logged line by line.
    static let malformedLogInterval = 60.0

    /// Counts a malformed line from gpsd and logs it, at most once per interval (with how many
    /// were skipped since the last entry).
    func noteMalformed(_ reason: String) {
        malformed += 1
        malformedUnlogged += 1
        let now = clock()
        guard now - lastMalformedLog >= Self.malformedLogInterval else { return }
        let more =
            malformedUnlogged > 1
            ? " (\(malformedUnlogged) malformed lines since the last entry, \(malformed) in all)" : ""
        log(
            LogEntry(
                event: .malformed, priority: .warning, message: "Malformed line from gpsd skipped: \(reason)\(more)",
                fields: [
                    (.reason, reason), (.skipped, String(malformedUnlogged)),
                    (.malformedTotal, String(malformed)),
                ]))
        lastMalformedLog = now
        malformedUnlogged = 0
    }

    /// `STATUS=` for systemd: fix, distance, fences inside.
    func statusLine() -> String {
        let fix = session.tracker.lastAccepted
        var s = !session.hasFix || fix == nil ? "no fix" : "fix \(EventLog.coordinate(fix!.coordinate))"
        s += ", \(EventLog.metres(session.tracker.trip.traveledM)) traveled"
        if let monitor = session.geofences {
            let inside = monitor.index.fences.indices.filter { monitor.statuses[$0].state == .inside }
                .map { monitor.index.fences[$0].id }
            s +=
                ", inside: "
                + (inside.isEmpty ? "none" : inside.prefix(5).joined(separator: ", ") + (inside.count > 5 ? ", …" : ""))
        }
        return s
    }
}
