import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// Several receivers on one gpsd: each one's TPVs make its own epochs, and the selector picks
/// the one the tracker follows (`device = PATH`, else the best, with failover).
extension TrackerService {
    /// Takes one TPV: into its receiver's epochs, and each complete epoch to the selector.
    func take(_ fix: Fix) {
        let key = fix.device ?? ""
        var assembler = assemblers[key] ?? EpochAssembler()
        let epochs = assembler.add(fix)
        assemblers[key] = assembler
        for epoch in epochs { route(epoch) }
    }

    /// Every receiver's pending epoch (the end of the feed, a lost gpsd).
    func flushEpochs() {
        for key in assemblers.keys.sorted() {
            let epochs = assemblers[key]!.flush()
            for epoch in epochs { route(epoch) }
        }
    }

    private func route(_ epoch: Fix) {
        switch selector.offer(epoch) {
        case .ignore:
            return
        case .follow:
            break
        case .failover(let from, let to):
            logFailover(from: from, to: to, reason: "a better or still reporting receiver")
            session.switchReceiver()
        }
        device = selector.followed
        process(epoch.withSky(sky))
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
        let removed = path ?? selector.followed ?? device
        if let removed {
            var pending = assemblers.removeValue(forKey: removed)
            for epoch in pending?.flush() ?? [] { route(epoch) }
        }
        if sky?.device == removed { sky = nil }  // after its last epoch went with it (issue 29)
        // An unnamed followed receiver (its TPVs named no device) may be the one removed.
        if let removed, let followed = selector.followed, removed != followed, !followed.isEmpty {
            // Another receiver goes on reporting: nothing is lost.
            _ = selector.remove(removed)
            emit(
                LogEntry(
                    event: .deviceRemoved, priority: .info,
                    message: "GPS receiver \(removed) removed (not the one followed)",
                    fields: [(.device, removed)]))
            return
        }
        emit(
            LogEntry(
                event: .deviceRemoved, priority: .warning,
                message: removed.map { "GPS receiver \($0) removed" } ?? "GPS receiver removed",
                fields: removed.map { [(.device, $0)] } ?? []))
        if let removed, let next = selector.remove(selector.followed == "" ? "" : removed) {
            device = next
            logFailover(from: removed, to: next, reason: "the followed one was removed")
            session.switchReceiver()
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
