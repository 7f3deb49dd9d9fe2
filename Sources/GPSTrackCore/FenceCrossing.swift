#if canImport(Glibc)
import Glibc
#endif

/// A fence passed between two fixes: where along the segment (fractions 0...1 of it) the
/// boundary was crossed going in and coming out, and how deep the segment went.
public struct FenceCrossing: Sendable, Equatable {
    public var entry: Double
    public var exit: Double
    public var entryPoint: Coordinate
    public var exitPoint: Coordinate
    /// Depth of the segment's deepest point inside the boundary, metres.
    public var depth: Double
}

/// Crossings between fixes. The position between two fixes is taken on the straight line in
/// longitude/latitude (hops of a few hundred metres differ from the geodesic by millimetres);
/// depths are geodesic distances to the boundary, as for fixes.
extension FenceIndex {
    /// Indices of the fences whose envelope meets the segment `a`-`b`'s.
    public func candidates(from a: Coordinate, to b: Coordinate) -> [Int] {
        let hits = query(Self.segmentBoxes(a, b, padM: 0.01))
        return hits.count > 1 ? Array(Set(hits)) : hits
    }

    /// The point a fraction `t` of the way from `a` to `b` (the shorter way round).
    static func along(_ a: Coordinate, _ b: Coordinate, _ t: Double) -> Coordinate {
        var dl = b.longitude - a.longitude
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        var lon = a.longitude + t * dl
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return Coordinate(latitude: a.latitude + t * (b.latitude - a.latitude), longitude: lon)
    }

    /// The crossing of fence `i` by the segment `a`-`b`, if neither end lies `need` metres
    /// inside it and some point between does. `need` is the depth a fix must reach to enter
    /// (`enterMargin`).
    public func crossing(fence i: Int, from a: Coordinate, to b: Coordinate, need: Double) -> FenceCrossing? {
        let length = Geodesic.distance(a, b)
        guard length > 0 else { return nil }
        let sa = signedDistance(fence: i, point: a, within: length + need)
        let sb = signedDistance(fence: i, point: b, within: length + need)
        guard sa < need, sb < need else { return nil }
        // Depth changes by at most a metre per metre along the segment.
        guard (sa + sb + length) / 2 >= need else { return nil }
        if case .circle(let center, let radius) = geometry[i] {
            return circleCrossing(center: center, radius: radius, a, b, need: need)
        }
        // Sampled every metre at most (the deepest point is then off by half a metre at most),
        // then each boundary found by bisection.
        let n = min(4_000, max(8, Int(clamping: length, rounding: .up)))
        var depths: [Double] = []
        depths.reserveCapacity(n + 1)
        for k in 0...n {
            depths.append(signedDistance(fence: i, point: Self.along(a, b, Double(k) / Double(n)), within: need + 1))
        }
        guard let deepest = depths.max(), deepest >= need,
            let first = depths.firstIndex(where: { $0 >= 0 }), let last = depths.lastIndex(where: { $0 >= 0 }),
            first > 0, last < n
        else { return nil }
        func boundary(_ outside: Double, _ inside: Double) -> Double {
            var (o, ins) = (outside, inside)
            for _ in 0..<24 {
                let mid = (o + ins) / 2
                if signedDistance(fence: i, point: Self.along(a, b, mid), within: 1) >= 0 { ins = mid } else { o = mid }
            }
            return (o + ins) / 2
        }
        let entry = boundary(Double(first - 1) / Double(n), Double(first) / Double(n))
        let exit = boundary(Double(last + 1) / Double(n), Double(last) / Double(n))
        return FenceCrossing(
            entry: entry, exit: exit, entryPoint: Self.along(a, b, entry),
            exitPoint: Self.along(a, b, exit), depth: deepest)
    }

    /// A circle's crossing, solved in a local plane around its centre (WGS84 radii of curvature
    /// there); the depth of the closest approach is then a geodesic.
    func circleCrossing(center: Coordinate, radius: Double, _ a: Coordinate, _ b: Coordinate, need: Double)
        -> FenceCrossing?
    {
        let phi = center.latitude * .pi / 180
        let e2 = 0.0066943799901413165
        let s = sin(phi)
        let w = (1 - e2 * s * s).squareRoot()
        let m = 6_378_137 * (1 - e2) / (w * w * w) * .pi / 180  // metres per degree of latitude
        let nlon = 6_378_137 / w * cos(phi) * .pi / 180  // metres per degree of longitude
        func plane(_ c: Coordinate) -> (Double, Double) {
            var dl = c.longitude - center.longitude
            if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            return (dl * nlon, (c.latitude - center.latitude) * m)
        }
        let (ax, ay) = plane(a)
        let (bx, by) = plane(b)
        let dx = bx - ax
        let dy = by - ay
        let dd = dx * dx + dy * dy
        guard dd > 0 else { return nil }
        let tc = min(1, max(0, -(ax * dx + ay * dy) / dd))
        let depth = radius - Geodesic.shortDistance(center, Self.along(a, b, tc))
        guard depth >= need else { return nil }
        // |A + tD|² = r²
        let bq = ax * dx + ay * dy
        let cq = ax * ax + ay * ay - radius * radius
        let disc = bq * bq - dd * cq
        guard disc > 0, tc > 0, tc < 1 else { return nil }
        let root = disc.squareRoot()
        let entry = max(0, (-bq - root) / dd)
        let exit = min(1, (-bq + root) / dd)
        return FenceCrossing(
            entry: entry, exit: exit, entryPoint: Self.along(a, b, entry),
            exitPoint: Self.along(a, b, exit), depth: depth)
    }
}
