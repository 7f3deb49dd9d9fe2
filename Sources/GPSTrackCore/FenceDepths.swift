/// What the depths a geofence monitor measured at earlier fixes still tell: a boundary at least
/// `b` away then is at least `b` less the way travelled since away now, and while that is more
/// than the margin, the fence is certainly in (or out) without measuring again. Most fences
/// near a fix are far from their boundary and a fix comes a few metres on: with 10,000 fences,
/// measuring them all at every fix was the largest part of a fix's cost.
struct FenceDepths {
    /// A bound on a fence's boundary's distance, signed as the depth (positive inside), with
    /// `travelled` when it was measured; valid while `generation` is the current one.
    private struct Bound {
        var distance = 0.0
        var travelled = 0.0
        var generation: UInt32 = 0
    }
    private var bounds: [Bound]
    private var generation: UInt32 = 1
    /// An upper bound on the way the fixes have come since `generation` began.
    private var travelled = 0.0
    private var band = Geodesic.BandCosine()

    init(count: Int) {
        bounds = Array(repeating: Bound(), count: count)
    }

    /// The fix moved from `a` to `b`. Without `a` (the first fix, a fix after a loss) or when
    /// the way is not short, every bound is forgotten (a generation later, not cleared).
    mutating func move(from a: Coordinate?, to b: Coordinate) {
        if let a, case let way = Geodesic.closeUpperBound(a, b, band: &band), way.isFinite {
            travelled += way
        } else {
            generation &+= 1
            travelled = 0
        }
    }

    /// Fence `i`'s depth at `p` (`FenceIndex.depth`'s value, measured within twice the margin),
    /// or, unmeasured, a bound on it that decides as the depth would: more than `margin` inside
    /// (or outside), and no deeper than the depth itself.
    mutating func depth(of i: Int, in index: FenceIndex, at p: Coordinate, margin: Double) -> Double {
        let b = bounds[i]
        if b.generation == generation {
            let left = abs(b.distance) - (travelled - b.travelled)
            // A per cent and a metre to spare.
            if left > margin * 1.01 + 1 { return b.distance > 0 ? left : -left }
        }
        let d = index.depth(fence: i, point: p, within: 2 * margin)
        bounds[i] = Bound(distance: d.value > 0 ? d.bound : -d.bound, travelled: travelled, generation: generation)
        return d.value
    }
}
