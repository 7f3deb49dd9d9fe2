/// One input line's debounce (pure, on the source's monotonic clock): a new level counts once
/// it has held `holdS` times the changes of the last `unsteadyWindowS` (an ignition going off
/// `offDelayS` more); a line that changes
/// `unsteadyChanges` times within `unsteadyWindowS` is unsteady (said once) and keeps its last
/// settled level until it has been quiet `quietS`.
struct InputDebounce {
    let holdS: Double
    let offDelayS: Double
    static let unsteadyChanges = 10
    static let unsteadyWindowS = 2.0
    static let quietS = 5.0

    /// The level that counts (nil until one has held).
    private(set) var settled: Bool?
    private var candidate: Bool?
    private var candidateSince = 0.0
    /// The times of the last changes seen (at most `unsteadyChanges`).
    private var changes: [Double] = []
    private(set) var unsteady = false

    init(holdS: Double, offDelayS: Double = 0) {
        self.holdS = holdS
        self.offDelayS = offDelayS
    }

    /// What one poll changed.
    enum Change: Equatable {
        case settled(Bool)
        case unsteady(changes: Int)
        case steady
    }

    /// Takes the level read at `now`; returns what changed.
    mutating func take(_ level: Bool, now: Double) -> [Change] {
        var out: [Change] = []
        if candidate != level {
            if candidate != nil {
                changes.append(now)
                if changes.count > Self.unsteadyChanges { changes.removeFirst(changes.count - Self.unsteadyChanges) }
            }
            candidate = level
            candidateSince = now
        }
        let recent = changes.filter { now - $0 <= Self.unsteadyWindowS }.count
        if !unsteady, recent >= Self.unsteadyChanges {
            unsteady = true
            out.append(.unsteady(changes: recent))
        }
        if unsteady {
            guard let last = changes.last, now - last >= Self.quietS else { return out }
            unsteady = false
            changes.removeAll()
            out.append(.steady)
        }
        // A line that has just changed often must hold longer (the hold times the changes of
        // the window), so a flapping one seldom settles before it is found unsteady.
        let hold = holdS * Double(max(1, recent)) + (level ? 0 : offDelayS)
        if settled != level, now - candidateSince >= hold {
            settled = level
            out.append(.settled(level))
        }
        return out
    }
}
