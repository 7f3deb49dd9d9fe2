import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// Several receivers on one gpsd: each one's TPVs make its own epochs, and the selector picks
/// the one the tracker follows (`device = PATH`, else the best, with failover).
extension TrackerService {
    /// Takes one TPV (`FeedSession`: into its receiver's epochs, each complete epoch to the
    /// selector).
    func take(_ fix: Fix) {
        // Taken out while used, so that it is held once and emptied in place.
        var steps = stepBuffer
        stepBuffer = []
        steps.removeAll(keepingCapacity: true)
        feed.take(fix, into: &steps)
        run(steps)
        stepBuffer = steps
    }

    /// Every receiver's pending epoch (the end of the feed, a lost gpsd).
    func flushEpochs() { run(feed.flush()) }

    /// Processes the feed's epochs and says its failovers, in order.
    private func run(_ steps: [FeedSession.Step]) {
        for step in steps {
            switch step {
            case .epoch(let epoch):
                device = selector.followed
                process(epoch.withSky(sky))
            case .failover(let from, let to):
                logFailover(from: from, to: to, reason: "a better or still reporting receiver")
            }
        }
    }

    /// Keeps the followed receiver's SKY (any receiver's before one is followed); a report
    /// without a satellite list keeps the counts of the one before.
    func noteSky(_ s: GPSDDecoder.Sky) {
        if let followed = selector.followed, !followed.isEmpty, s.device != followed { return }
        var merged = s
        if let old = sky, old.device == s.device {
            merged.used = s.used ?? old.used
            merged.seen = s.seen ?? old.seen
        }
        sky = merged
    }

    /// gpsd deactivated a receiver (`path` nil: it named none, the followed one is meant).
    func removeDevice(_ path: String?) {
        let (steps, removal) = feed.remove(path, current: device)
        run(steps)
        let removed: String?
        switch removal {
        case .notFollowed(let path), .replaced(let path, _): removed = path
        case .followedGone(let path): removed = path
        }
        if sky?.device == removed { sky = nil }  // after its last epoch went with it (issue 29)
        if case .notFollowed(let path) = removal {
            // Another receiver goes on reporting: nothing is lost.
            emit(
                LogEntry(
                    event: .deviceRemoved, priority: .info,
                    message: "GPS receiver \(path) removed (not the one followed)",
                    fields: [(.device, path)]))
            return
        }
        emit(
            LogEntry(
                event: .deviceRemoved, priority: .warning,
                message: removed.map { "GPS receiver \($0) removed" } ?? "GPS receiver removed",
                fields: removed.map { [(.device, $0)] } ?? []))
        if case .replaced(let path, let next) = removal {
            device = next
            logFailover(from: path, to: next, reason: "the followed one was removed")
            return
        }
        device = nil
        loseFix(.receiverRemoved)
    }

    private func logFailover(from: String?, to: String, reason: String) {
        emit(
            LogEntry(
                event: .failover, priority: .notice,
                message: "Following GPS receiver \(to) instead of \(from ?? "none") (\(reason))",
                fields: [(.device, to), (.previousDevice, from ?? "")]))
    }

    /// The followed receiver as a journal field (none when gpsd names none).
    var receiverField: [(JournalField, String)] {
        guard let path = selector.followed, !path.isEmpty else { return [] }
        return [(.device, path)]
    }

    /// " from PATH" for a journal message.
    var receiverText: String {
        guard let path = selector.followed, !path.isEmpty else { return "" }
        return " from \(path)"
    }

    /// `status`'s receivers: every one seen.
    func receiverStatuses() -> [StatusReply.ReceiverStatus] {
        selector.receivers.map { r in
            StatusReply.ReceiverStatus(
                path: r.path, followed: r.path == selector.followed, mode: r.mode,
                eph: r.eph.isFinite ? r.eph.rounded(decimals: 2) : nil,
                lastFix: r.lastFix.map(Timestamp.iso8601), ignored: r.ignored)
        }
    }
}
