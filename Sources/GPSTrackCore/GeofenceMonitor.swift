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
    private var active: [Int]
    /// True until the first fix and after a loss: the next fix evaluates every fence.
    private var undetermined = true
    private var lastAcceptedTime: Double?
    private var lastPosition: Coordinate?
    private var lastMargin = 0.0
    /// The fences near the last accepted fix and their depths there (see `crossings`).
    private var lastNear: [Int] = []
    private var lastDepths: [Double] = []
    /// The storage of the fix before last's lists, reused for the next fix's (a fix made four
    /// arrays, an allocation each).
    private var spareNear: [Int] = []
    private var spareDepths: [Double] = []
    private var spareActive: [Int] = []
    /// What the depths measured at earlier fixes still tell (`FenceDepths`).
    private var depthMemory: FenceDepths
    /// The counts of the determination the last `update` made, if it made one (first fix,
    /// after a reload or a loss); nil after an ordinary fix.
    public private(set) var determination: FenceCounts?
    /// Counts the changes of which fences hold the position (`inside`), so that a reader of the
    /// names inside builds them again only after a change (not at every fix).
    public private(set) var insideChanges = 0

    /// A monitor for `index`. With `previous` (a reload), fences whose id is unchanged keep
    /// their remembered membership, entry time and dwell, so a reload causes no second `enter`.
    public init(index: FenceIndex, config: TrackerConfig, carryingOver previous: GeofenceMonitor? = nil) {
        self.index = index
        self.config = config
        statuses = Array(repeating: FenceStatus(), count: index.fences.count)
        depthMemory = FenceDepths(count: index.fences.count)
        active = Array(index.fences.indices)
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

    /// What the fence with this id must remember across a restart (nil: no such fence).
    public func memory(of id: String) -> FenceMemory? {
        index.fences.firstIndex(where: { $0.id == id }).map { memory(of: $0) }
    }

    /// What the fence of `event` must remember: found by the event's own index when it is this
    /// monitor's (no search by id, which costs 10,000 comparisons an event with 10,000 fences).
    public func memory(for event: FenceEvent) -> FenceMemory? {
        if index.fences.indices.contains(event.fence), index.fences[event.fence].id == event.fenceID {
            return memory(of: event.fence)
        }
        return memory(of: event.fenceID)
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
            if wasInside { insideChanges &+= 1 }
            statuses[i].state = .unknown
            statuses[i].since = time
            if wasInside {
                let e = FenceEvent(kind: .state(.unknown), fence: i, in: index, time: time, coordinate: lastPosition)
                statuses[i].lastEvent = e.kind
                events.append(e)
            }
        }
        active = Array(statuses.indices)
        return events
    }

    /// Evaluates an accepted fix. `continuous` false (a jump the tracker did not count) means
    /// the way from the last fix is unknown: nothing is crossed on it.
    public mutating func update(with fix: Fix, continuous: Bool = true) -> [FenceEvent] {
        guard let time = fix.time else { return [] }
        var events = observe(time: time)
        let p = fix.coordinate
        let margin = max(config.hysteresisM, fix.horizontalError ?? config.assumedErrorM)
        // Depths of the fences near the fix (or bounds that decide alike: see `FenceDepths`);
        // the others lie more than `margin` outside. Sorted arrays, searched by halves: usually
        // a few fences a fix, but 10,000 when a fix lies in them all (a linear search per fence
        // made that quadratic: seconds a fix).
        var near = Self.emptied(&spareNear)
        index.candidates(near: p, marginM: margin, into: &near)
        near.sort()
        depthMemory.move(from: undetermined ? nil : lastPosition, to: p)
        var depths = Self.emptied(&spareDepths)
        for i in near { depths.append(depthMemory.depth(of: i, in: index, at: p, margin: margin)) }
        // The segment from the last accepted fix, unless the fix was lost in between.
        if config.detectCrossings, continuous, !undetermined, let a = lastPosition, let ta = lastAcceptedTime, time > ta
        {
            crossings(from: a, at: ta, to: p, at: time, margin: margin, near: near, depths: depths, into: &events)
        }
        lastAcceptedTime = time
        lastPosition = p
        lastMargin = margin
        spareNear = lastNear
        lastNear = near
        spareDepths = lastDepths
        lastDepths = depths
        let determining = undetermined
        var evaluate = near
        if determining {
            evaluate = Array(statuses.indices)
        } else {
            for i in active where Self.position(of: i, in: near) == nil { evaluate.append(i) }
            if evaluate.count > near.count { evaluate.sort() }
        }
        undetermined = false
        var stillActive = Self.emptied(&spareActive)
        for i in evaluate {
            let s = Self.position(of: i, in: near).map { depths[$0] } ?? -.infinity
            let marginIn = index.enterMargin(fence: i, margin: margin)
            let determined: Bool? = s >= marginIn ? true : s <= -margin ? false : nil
            step(i, determined, time: time, at: p, into: &events)
            if statuses[i].state != .outside { stillActive.append(i) }
        }
        spareActive = active
        active = stillActive
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

    /// `spare`'s storage, emptied and taken out (so that it is held once and filled in place).
    private static func emptied<T>(_ spare: inout [T]) -> [T] {
        var list = spare
        spare = []
        list.removeAll(keepingCapacity: true)
        return list
    }

    /// Fences found outside at the last fix that the segment to this one passed through deep
    /// enough (under `margin`, as a fix must be): an `enter` and an `exit`, both `crossed`, at
    /// the interpolated boundary times. The fence stays outside; no dwell.
    ///
    /// Cheap first: depth changes by at most a metre per metre along the segment, so with the
    /// depths known at both ends (`lastDepths`, `depths`; a fence not near an end lies more than
    /// that end's margin outside) most fences are ruled out without a geometry call. A point
    /// between deep enough lies within half the segment of an end; on a segment no longer than
    /// twice the smaller margin every such fence was near an end, so no STRtree query is needed.
    private mutating func crossings(
        from a: Coordinate, at ta: Double, to b: Coordinate, at tb: Double, margin marginB: Double,
        near: [Int], depths: [Double], into events: inout [FenceEvent]
    ) {
        // An upper bound on the length serves as well as the length, and costs no geodesic.
        let length = Geodesic.closeBounds(a, b)?.1 ?? Geodesic.distance(a, b)
        let margin = max(marginB, lastMargin)
        var found: [FenceEvent] = []
        let ends = Segment(a: a, ta: ta, b: b, tb: tb, length: length, margin: margin, marginB: marginB)
        if length <= 2 * min(marginB, lastMargin) {
            // The fences near either end, in ascending order, each once (a merge of the two
            // sorted lists: no pool array made a fix).
            var x = 0
            var y = 0
            while x < near.count || y < lastNear.count {
                let i: Int
                if y == lastNear.count || (x < near.count && near[x] <= lastNear[y]) {
                    i = near[x]
                    if y < lastNear.count, lastNear[y] == i { y += 1 }
                    x += 1
                } else {
                    i = lastNear[y]
                    y += 1
                }
                consider(i, ends, near: near, depths: depths, into: &found)
            }
        } else {
            for i in index.candidates(from: a, to: b).sorted() {
                consider(i, ends, near: near, depths: depths, into: &found)
            }
        }
        // In time order; a fence's enter always precedes its exit.
        events += found.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
            \.element)
    }

    /// A segment between two accepted fixes, as `crossings` tests the fences against it.
    private struct Segment {
        var a: Coordinate
        var ta: Double
        var b: Coordinate
        var tb: Double
        var length: Double
        var margin: Double
        var marginB: Double
    }

    /// Whether the segment passed through fence `i` deep enough: its crossing's events.
    private mutating func consider(
        _ i: Int, _ s: Segment, near: [Int], depths: [Double], into found: inout [FenceEvent]
    ) {
        guard statuses[i].state == .outside else { return }
        let need = index.enterMargin(fence: i, margin: s.margin)
        // Upper bounds on the depths at the ends. A depth of -infinity says only that the
        // boundary lay more than twice the margin away (it was not measured): as a bound, that
        // is minus twice the margin (taken as -infinity, a corner of a large circle cut between
        // two fixes in its box went unseen).
        let sa = Self.position(of: i, in: lastNear).map { max(lastDepths[$0], -2 * lastMargin) } ?? -lastMargin
        let sb = Self.position(of: i, in: near).map { max(depths[$0], -2 * s.marginB) } ?? -s.marginB
        guard sa < need, sb < need, (sa + sb + s.length) / 2 >= need,
            let c = index.crossing(fence: i, from: s.a, to: s.b, need: need)
        else { return }
        let tIn = s.ta + c.entry * (s.tb - s.ta)
        let tOut = s.ta + c.exit * (s.tb - s.ta)
        if index.notifyBits[i] & 1 != 0 {
            found.append(
                FenceEvent(kind: .enter, fence: i, in: index, time: tIn, coordinate: c.entryPoint, crossed: true))
            statuses[i].lastEvent = .enter
        }
        if index.notifyBits[i] & 2 != 0 {
            found.append(
                FenceEvent(kind: .exit, fence: i, in: index, time: tOut, coordinate: c.exitPoint, crossed: true))
            statuses[i].lastEvent = .exit
        }
        statuses[i].since = tOut
        statuses[i].membership = false
    }

    /// Where `i` first is in `sorted` (ascending), by halving: nil if absent.
    static func position(of i: Int, in sorted: [Int]) -> Int? {
        var lo = 0
        var hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < i { lo = mid + 1 } else { hi = mid }
        }
        return lo < sorted.count && sorted[lo] == i ? lo : nil
    }

    private mutating func step(
        _ i: Int, _ determined: Bool?, time: Double, at p: Coordinate, into events: inout [FenceEvent]
    ) {
        var st = statuses[i]
        let notify = index.notifyBits[i]
        func emit(_ kind: FenceEvent.Kind) {
            if case .state = kind {
            } else {
                let bit: UInt8 = kind == .enter ? 1 : kind == .exit ? 2 : 4
                guard notify & bit != 0 else { return }
            }
            let e = FenceEvent(kind: kind, fence: i, in: index, time: time, coordinate: p)
            st.lastEvent = kind
            events.append(e)
        }
        if let inside = determined {
            let newState: FenceState = inside ? .inside : .outside
            if st.state != newState {
                let transition = st.state == .unknown ? st.membership.map { $0 != inside } ?? inside : true
                if transition {
                    emit(inside ? .enter : .exit)
                    if inside {
                        st.enteredAt = time
                        st.dwellSent = false
                    } else {
                        st.enteredAt = nil
                    }
                } else if inside {
                    emit(.state(.inside))  // found outside: only counted, in `determination`
                }
                st.state = newState
                st.since = time
                st.membership = inside
            }
        }
        if st.state == .inside, let dwell = index.dwellS[i], !st.dwellSent, let entered = st.enteredAt,
            time - entered >= dwell
        {
            st.dwellSent = true
            emit(.dwell)
        }
        if (st.state == .inside) != (statuses[i].state == .inside) { insideChanges &+= 1 }
        statuses[i] = st
    }
}
