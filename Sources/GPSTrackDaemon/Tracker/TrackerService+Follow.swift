import GPSTrackProtocol

/// The tracker's side of the gpsd source: it takes the source's batches on its own thread.
extension TrackerService {
    /// Handles the gpsd source's batches until its stream ends; returns how many fixes were
    /// skipped because `stopping` said the stop had begun. The loop runs on the actor's own
    /// executor, so a batch costs one hand-off (reader thread to tracker thread), not a hop
    /// through the cooperative pool and back for every event.
    public func follow(
        _ batches: AsyncStream<[GPSDSource.Event]>, of source: GPSDSource,
        stopping: @Sendable () -> Bool
    ) async -> Int {
        // Fixes still waiting once the stop has begun are skipped (and counted): a tracker
        // that fell behind would otherwise spend the stop's deadline on them. Outages and
        // device reports are still handled.
        var skipped = 0
        gpsdSource = source
        for await batch in batches {
            source.took(batch)
            let skipping = stopping()
            for event in batch {
                if skipping, case .record(.tpv) = event {
                    skipped += 1
                    continue
                }
                handle(event)
            }
        }
        return skipped
    }

    /// The journal entry for the fixes `follow` skipped at the stop (*stop_skipped_fixes*,
    /// with their number); nil when none was skipped.
    public static func skippedAtStop(_ skipped: Int) -> LogEntry? {
        guard skipped > 0 else { return nil }
        return LogEntry(
            event: .stopSkippedFixes, priority: .info,
            message: "\(skipped) fixes still waiting at the stop were not processed",
            fields: [(.skipped, String(skipped))])
    }
}
