import GPSTrackCore
import GPSTrackProtocol

/// Feeds systemd's watchdog only while the gpsd reader, the tracker and the store all make
/// progress (`Liveness`); a part that stalls stops the pings (systemd then restarts the
/// daemon) and is named in the journal once, as is its recovery.
enum Watchdog {
    /// Runs until cancelled. `interval` is the unit's `WatchdogSec`; without one, stalls are
    /// still logged (every part may then go 30 s without progress).
    static func run(service: TrackerService, journal: Journal, interval: Double?, liveness: Liveness = .shared) async {
        let tick = interval.map { $0 / 2 } ?? 5
        liveness.beat(.tracker)
        var reported: Set<Liveness.Part> = []
        while !Task.isCancelled {
            // The ping is not awaited here: a stuck actor must not stop this loop.
            if liveness.startPing() { Task { await service.ping() } }
            try? await Task.sleep(nanoseconds: UInt64(clamping: tick * 1e9, rounding: .towardZero))
            if Task.isCancelled { return }
            let stalled = liveness.stalled()
            let parts = Set(stalled.map(\.part))
            for (part, seconds) in stalled where !reported.contains(part) {
                journal.log(
                    LogEntry(
                        event: .stalled, priority: .err,
                        message: "Stalled: \(part.title) has made no progress for \(Int(clamping: seconds)) s; "
                            + "the watchdog is no longer fed",
                        fields: [(.part, part.rawValue)]))
            }
            for part in reported.subtracting(parts) {
                journal.log(
                    LogEntry(
                        event: .stallOver, priority: .notice, message: "Recovered: \(part.title) makes progress again",
                        fields: [(.part, part.rawValue)]))
            }
            reported = parts
            if parts.isEmpty {
                if interval != nil { Notifier.watchdog() }
            } else {
                Notifier.status(
                    "stalled: " + Liveness.Part.allCases.filter(parts.contains).map(\.rawValue).joined(separator: ", "))
            }
        }
    }
}
