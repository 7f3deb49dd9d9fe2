/// A conservative validity check for one small polygon, so that circles and small polygons need
/// no GEOS: `provesValid` is true only where GEOS's `GEOSisValid` is certainly true too. Anything
/// doubtful (a near-degenerate corner, segments that touch or come close, a hole not clearly
/// inside) is false, and the caller asks GEOS, whose reason then names the fault.
///
/// It works on the coordinates as given (longitude, latitude), as GEOS's check does.
enum PolygonCheck {
    /// A turn whose sine is below this counts as none (collinear): far above the rounding of
    /// the products, so that a sign taken here is GEOS's robust sign too.
    static let tolerance = 1e-9

    /// True when `rings` (the shell, then holes) certainly form a valid polygon: every ring
    /// closed with at least 4 positions, no corner near 0 or 180 degrees, no two edges of the
    /// polygon meeting but adjacent ones at their shared vertex, every hole inside the shell
    /// and outside the other holes.
    static func provesValid(_ rings: [[Coordinate]]) -> Bool {
        guard !rings.isEmpty else { return false }
        let all = rings.map { $0.map { ($0.longitude, $0.latitude) } }
        for ring in all {
            guard ring.count >= 4, ring[0] == ring[ring.count - 1] else { return false }
            guard ring.allSatisfy({ $0.0.isFinite && $0.1.isFinite }) else { return false }
            guard ringIsSimple(ring) else { return false }
        }
        for i in all.indices {
            for j in all.indices where j > i {
                guard ringsAreApart(all[i], all[j]) else { return false }
            }
        }
        guard all.count > 1 else { return true }
        let outer = all[0]
        for (h, hole) in all.enumerated().dropFirst() {
            // Rings apart: the whole hole lies on one side of each other ring; every vertex
            // must say so, else the parity itself is doubtful.
            guard hole.allSatisfy({ contains(outer, $0) }) else { return false }
            for (o, other) in all.enumerated().dropFirst() where o != h {
                guard hole.allSatisfy({ !contains(other, $0) }) else { return false }
            }
        }
        return true
    }

    /// Certainly no self-intersection or touching: each corner clearly turns, and each pair of
    /// non-adjacent edges is clearly apart.
    static func ringIsSimple(_ ring: [(Double, Double)]) -> Bool {
        let n = ring.count - 1  // edges; edge k is ring[k]-ring[k+1]
        for k in 0..<n {
            let prev = ring[k == 0 ? n - 1 : k - 1]
            guard orientation(prev, ring[k], ring[k + 1]) != 0 else { return false }
        }
        for i in 0..<n {
            for j in (i + 2)..<max(i + 2, n) where !(i == 0 && j == n - 1) {
                guard apart(ring[i], ring[i + 1], ring[j], ring[j + 1]) else { return false }
            }
        }
        return true
    }

    static func ringsAreApart(_ a: [(Double, Double)], _ b: [(Double, Double)]) -> Bool {
        for i in 0..<(a.count - 1) {
            for j in 0..<(b.count - 1) {
                guard apart(a[i], a[i + 1], b[j], b[j + 1]) else { return false }
            }
        }
        return true
    }

    /// The sign of the turn a-b-c (1 left, -1 right), or 0 when within the tolerance.
    static func orientation(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double)) -> Int {
        let (ux, uy, vx, vy) = (b.0 - a.0, b.1 - a.1, c.0 - a.0, c.1 - a.1)
        let p = ux * vy
        let q = uy * vx
        // The lengths' product (in the L1 norm): the bound scales with both edges.
        let bound = tolerance * (abs(ux) + abs(uy)) * (abs(vx) + abs(vy))
        if p - q > bound, bound > 0 { return 1 }
        if q - p > bound, bound > 0 { return -1 }
        return 0
    }

    /// Segments a-b and c-d certainly share no point: their boxes are clearly apart, or one lies
    /// clearly on one side of the other's line.
    static func apart(
        _ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double), _ d: (Double, Double)
    ) -> Bool {
        let gap = tolerance * (abs(a.0) + abs(a.1) + 1)
        if max(a.0, b.0) + gap < min(c.0, d.0) || max(c.0, d.0) + gap < min(a.0, b.0) { return true }
        if max(a.1, b.1) + gap < min(c.1, d.1) || max(c.1, d.1) + gap < min(a.1, b.1) { return true }
        let c1 = orientation(a, b, c)
        let d1 = orientation(a, b, d)
        if c1 != 0, c1 == d1 { return true }
        let a2 = orientation(c, d, a)
        let b2 = orientation(c, d, b)
        return a2 != 0 && a2 == b2
    }

    /// Crossing parity of `ring` about `p` (p on no edge: the rings are apart).
    static func contains(_ ring: [(Double, Double)], _ p: (Double, Double)) -> Bool {
        var inside = false
        for k in 0..<(ring.count - 1) {
            let (x1, y1) = ring[k]
            let (x2, y2) = ring[k + 1]
            if (y1 > p.1) != (y2 > p.1), p.0 < x1 + (p.1 - y1) / (y2 - y1) * (x2 - x1) { inside.toggle() }
        }
        return inside
    }
}
