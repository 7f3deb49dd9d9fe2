/// A gpsd feed in front of the tracking session: each receiver's TPVs make its own epochs
/// (`EpochAssembler`), the selector picks the receiver followed (`ReceiverSelector`), and the
/// session judges its epochs. The live daemon (`TrackerService`) and `gpstrackd replay` both
/// feed TPVs and device reports through it, so a log of several receivers decides in replay
/// exactly as it did live. Pure: it says what happened, the caller ingests and tells.
public struct FeedSession: Sendable {
    public var session: TrackingSession
    public private(set) var selector: ReceiverSelector
    /// One per receiver: their epochs interleave.
    private var assemblers: [String: EpochAssembler] = [:]
    /// The assembler of the receiver that sent the last TPV, held out of the table: a fix a
    /// second from one receiver hashed its path into the table at every fix.
    private var latest: (device: String, assembler: EpochAssembler)?
    /// The epochs one TPV completed, reused from TPV to TPV.
    private var completed: [Fix] = []

    /// What the caller does, in order.
    public enum Step: Sendable {
        /// An epoch of the followed receiver: the caller ingests it (`session.ingest`).
        case epoch(Fix)
        /// The followed receiver changed to a better or still reporting one (`from` nil: none
        /// was followed); the session has switched receivers already, before the next epoch.
        case failover(from: String?, to: String)
    }

    /// What a receiver's removal meant, after the steps of its last epochs.
    public enum Removal: Sendable, Equatable {
        /// Another receiver was followed: nothing lost.
        case notFollowed(String)
        /// The followed receiver went and another that reports takes over (the session has
        /// switched receivers already).
        case replaced(String, by: String)
        /// The followed receiver went and none takes over: the fix is lost (the caller calls
        /// `session.fixLost(.receiverRemoved)`). nil: gpsd named no receiver.
        case followedGone(String?)
    }

    public init(session: TrackingSession, device: String?) {
        self.session = session
        selector = ReceiverSelector(device: device, staleAfterS: session.tracker.config.staleAfterS)
    }

    /// Takes one TPV: into its receiver's epochs, and each complete epoch to the selector.
    public mutating func take(_ fix: Fix) -> [Step] {
        var steps: [Step] = []
        take(fix, into: &steps)
        return steps
    }

    /// `take`, appending the steps to `steps`: the per-fix path, whose caller reuses one
    /// buffer (no array is made a fix).
    public mutating func take(_ fix: Fix, into steps: inout [Step]) {
        completed.removeAll(keepingCapacity: true)
        let device = fix.device ?? ""
        if latest?.device != device {
            park()
            latest = (device, assemblers.removeValue(forKey: device) ?? EpochAssembler())
        }
        latest!.assembler.add(fix, into: &completed)
        for epoch in completed { route(epoch, into: &steps) }
    }

    /// The assembler held out of the table put back, so that the table has every receiver's.
    private mutating func park() {
        guard let held = latest else { return }
        latest = nil
        assemblers[held.device] = held.assembler
    }

    /// Every receiver's pending epoch (the end of the feed, a lost gpsd).
    public mutating func flush() -> [Step] {
        var steps: [Step] = []
        park()
        for key in assemblers.keys.sorted() {
            let epochs = assemblers[key]!.flush()
            for epoch in epochs { route(epoch, into: &steps) }
        }
        return steps
    }

    /// gpsd deactivated the receiver at `path` (nil: it named none, the followed one is meant;
    /// `current` is the device the caller last knew). Returns the steps of its last epochs and
    /// what the removal meant.
    public mutating func remove(_ path: String?, current: String?) -> (steps: [Step], removal: Removal) {
        let removed = path ?? selector.followed ?? current
        var steps: [Step] = []
        park()
        if let removed {
            var pending = assemblers.removeValue(forKey: removed)
            for epoch in pending?.flush() ?? [] { route(epoch, into: &steps) }
        }
        // An unnamed followed receiver (its TPVs named no device) may be the one removed.
        if let removed, let followed = selector.followed, removed != followed, !followed.isEmpty {
            _ = selector.remove(removed)
            return (steps, .notFollowed(removed))
        }
        if let removed, let next = selector.remove(selector.followed == "" ? "" : removed) {
            session.switchReceiver()
            return (steps, .replaced(removed, by: next))
        }
        return (steps, .followedGone(removed))
    }

    private mutating func route(_ epoch: Fix, into steps: inout [Step]) {
        switch selector.offer(epoch) {
        case .ignore:
            break
        case .follow:
            steps.append(.epoch(epoch))
        case .failover(let from, let to):
            session.switchReceiver()
            steps.append(.failover(from: from, to: to))
            steps.append(.epoch(epoch))
        }
    }
}
