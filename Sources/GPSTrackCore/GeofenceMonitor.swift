/// The geofence state machine: accepted fixes in, enter/exit/dwell/state events out. All
/// timing (dwell, staleness) comes from fix times. A determination of every fence (first fix,
/// reload, fix regained) reports `state inside` for the fences found inside with no transition
/// and only counts the others (`determination`), so 10,000 fences never flood the journal.
///
/// Hysteresis: with `margin = max(hysteresis_m, error estimate)`, a fence is entered only when
/// the position lies at least `margin` inside its boundary (for a circle at most half its
/// radius), and left only when it lies at least `margin` outside. Between the two the state
/// stays as it was, so noise of a few metres at a boundary never makes exit/enter pairs; an
/// undetermined fence in that band stays `unknown`.
public struct GeofenceMonitor: Sendable {
    public let index: FenceIndex
    public let config: TrackerConfig
    public private(set) var statuses: [FenceStatus]
    /// Fences not known to be outside: evaluated on every fix besides the index's candidates.
    private var active: Set<Int>
    /// True until the first fix and after a loss: the next fix evaluates every fence.
    private var undetermined = true
    private var lastAcceptedTime: Double?
    private var lastPosition: Coordinate?
    private var lastMargin = 0.0
    /// The counts of the determination the last `update` made, if it made one (first fix,
    /// after a reload or a loss); nil after an ordinary fix.
    public private(set) var determination: FenceCounts?

    /// A monitor for `index`. With `previous` (a reload), fences whose id is unchanged keep
    /// their remembered membership, entry time and dwell, so a reload causes no second `enter`.
    public init(index: FenceIndex, config: TrackerConfig, carryingOver previous: GeofenceMonitor? = nil) {
        self.index = index
        self.config = config
        statuses = Array(repeating: FenceStatus(), count: index.fences.count)
        active = Set(index.fences.indices)
        if let previous {
            var old: [String: FenceStatus] = [:]
            for (i, f) in previous.index.fences.enumerated() { old[f.id] = previous.statuses[i] }
            for (i, f) in index.fences.enumerated() {
                guard var st = old[f.id] else { continue }
                st.state = .unknown
                statuses[i] = st
            }
            lastAcceptedTime = previous.lastAcceptedTime
            lastPosition = previous.lastPosition
        }
    }

    /// What fence `i` must remember across a restart.
    public func memory(of i: Int) -> FenceMemory {
        let st = statuses[i]
        return FenceMemory(membership: st.membership, since: st.since, enteredAt: st.enteredAt, dwellSent: st.dwellSent)
    }

    /// Restores remembered memberships by fence id (after a restart). States stay `unknown`
    /// until the next fix; a fence still inside then gets a `state` event, not a second
    /// `enter`.
    public mutating func restore(_ memories: [String: FenceMemory]) {
        for (i, f) in index.fences.enumerated() {
            guard let m = memories[f.id] else { continue }
            statuses[i].membership = m.membership
            statuses[i].since = m.since
            statuses[i].enteredAt = m.enteredAt
            statuses[i].dwellSent = m.dwellSent
        }
    }

    /// Notes the time of any fix, accepted or not: when no fix has been accepted for
    /// `stale_after_s`, every fence becomes `unknown`; those that were inside report it.
    public mutating func observe(time: Double) -> [FenceEvent] {
        guard !undetermined, let last = lastAcceptedTime, time - last > config.staleAfterS else { return [] }
        return loseFix(at: time)
    }

    /// The fix is gone (gpsd lost, receiver removed): every fence becomes `unknown`; those that
    /// were inside report it. `time` is the last fix time known.
    public mutating func loseFix(at time: Double) -> [FenceEvent] {
        guard !undetermined else { return [] }
        undetermined = true
        var events: [FenceEvent] = []
        for i in statuses.indices where statuses[i].state != .unknown {
            let wasInside = statuses[i].state == .inside
            statuses[i].state = .unknown
            statuses[i].since = time
            if wasInside {
                let e = FenceEvent(kind: .state(.unknown), fence: i, time: time, coordinate: lastPosition)
                statuses[i].lastEvent = e.kind
                events.append(e)
            }
        }
        active = Set(statuses.indices)
        return events
    }

    /// Evaluates an accepted fix. `continuous` false (a jump the tracker did not count) means
    /// the way from the last fix is unknown: nothing is crossed on it.
    public mutating func update(with fix: Fix, continuous: Bool = true) -> [FenceEvent] {
        guard let time = fix.time else { return [] }
        var events = observe(time: time)
        let p = fix.coordinate
        let margin = max(config.hysteresisM, fix.horizontalError ?? config.assumedErrorM)
        // The segment from the last accepted fix, unless the fix was lost in between.
        if config.detectCrossings, continuous, !undetermined, let a = lastPosition, let ta = lastAcceptedTime, time > ta {
            crossings(from: a, at: ta, to: p, at: time, margin: max(margin, lastMargin), into: &events)
        }
        lastAcceptedTime = time
        lastPosition = p
        lastMargin = margin
        let candidates = Set(index.candidates(near: p, marginM: margin))
        let determining = undetermined
        let evaluate: [Int] = determining ? Array(statuses.indices) : Array(candidates.union(active)).sorted()
        undetermined = false
        for i in evaluate {
            let s = candidates.contains(i) ? index.signedDistance(fence: i, point: p, within: 2 * margin) : -.infinity
            let marginIn = index.enterMargin(fence: i, margin: margin)
            let determined: Bool? = s >= marginIn ? true : s <= -margin ? false : nil
            step(i, determined, time: time, at: p, into: &events)
            if statuses[i].state == .outside { active.remove(i) } else { active.insert(i) }
        }
        determination = nil
        if determining {
            var counts = FenceCounts(inside: 0, outside: 0, unknown: 0, time: time)
            for st in statuses {
                switch st.state {
                case .inside: counts.inside += 1
                case .outside: counts.outside += 1
                case .unknown: counts.unknown += 1
                }
            }
            determination = counts
        }
        return events
    }

    /// Fences found outside at the last fix that the segment to this one passed through deep
    /// enough (under `margin`, as a fix must be): an `enter` and an `exit`, both `crossed`, at
    /// the interpolated boundary times. The fence stays outside; no dwell.
    private mutating func crossings(from a: Coordinate, at ta: Double, to b: Coordinate, at tb: Double, margin: Double,
                                    into events: inout [FenceEvent]) {
        var found: [FenceEvent] = []
        for i in index.candidates(from: a, to: b).sorted() where statuses[i].state == .outside {
            let need = index.enterMargin(fence: i, margin: margin)
            guard let c = index.crossing(fence: i, from: a, to: b, need: need) else { continue }
            let fence = index.fences[i]
            let tIn = ta + c.entry * (tb - ta), tOut = ta + c.exit * (tb - ta)
            if fence.notify.contains(.enter) {
                found.append(FenceEvent(kind: .enter, fence: i, time: tIn, coordinate: c.entryPoint, crossed: true))
                statuses[i].lastEvent = .enter
            }
            if fence.notify.contains(.exit) {
                found.append(FenceEvent(kind: .exit, fence: i, time: tOut, coordinate: c.exitPoint, crossed: true))
                statuses[i].lastEvent = .exit
            }
            statuses[i].since = tOut
            statuses[i].membership = false
        }
        // In time order; a fence's enter always precedes its exit.
        events += found.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    private mutating func step(_ i: Int, _ determined: Bool?, time: Double, at p: Coordinate, into events: inout [FenceEvent]) {
        let fence = index.fences[i]
        var st = statuses[i]
        func emit(_ kind: FenceEvent.Kind) {
            if case .state = kind {} else {
                let n: Fence.Notify = kind == .enter ? .enter : kind == .exit ? .exit : .dwell
                guard fence.notify.contains(n) else { return }
            }
            let e = FenceEvent(kind: kind, fence: i, time: time, coordinate: p)
            st.lastEvent = kind
            events.append(e)
        }
        if let inside = determined {
            let newState: FenceState = inside ? .inside : .outside
            if st.state != newState {
                let transition = st.state == .unknown ? st.membership.map { $0 != inside } ?? inside : true
                if transition {
                    emit(inside ? .enter : .exit)
                    if inside { st.enteredAt = time; st.dwellSent = false } else { st.enteredAt = nil }
                } else if inside {
                    emit(.state(.inside))  // found outside: only counted, in `determination`
                }
                st.state = newState
                st.since = time
                st.membership = inside
            }
        }
        if st.state == .inside, let dwell = fence.dwellS, !st.dwellSent, let entered = st.enteredAt, time - entered >= dwell {
            st.dwellSent = true
            emit(.dwell)
        }
        statuses[i] = st
    }
}
