/// The small polygons' edge scan (`FenceIndex.depth`'s, for a single polygon of at most
/// `smallPolygonVertices`).
extension FenceIndex {
    /// A small polygon's signed distance: inside by crossing parity over every ring (holes
    /// included), the nearest boundary point by projection onto each edge in the frame, then a
    /// geodesic to it, as the GEOS path does. The bound is the distance in the frame times
    /// `unitM` (0: none).
    static func scan(
        _ rings: [[(Double, Double)]], _ x: Double, _ y: Double, point: Coordinate, frame: Frame, within: Double,
        unitM: Double = 0
    ) -> Depth {
        var inside = false
        var best = Double.infinity
        var bx = 0.0
        var by = 0.0
        for ring in rings {
            var (x1, y1) = ring[0]
            for k in 1..<ring.count {
                let (x2, y2) = ring[k]
                if (y1 > y) != (y2 > y), x < x1 + (y - y1) / (y2 - y1) * (x2 - x1) { inside.toggle() }
                // An edge whose box lies farther than the nearest point so far cannot hold a
                // nearer one (its projection lies in the box): no projection, no division. The
                // 1e-9 keeps rounding from deciding: the point found is the one found without.
                let ex = x < min(x1, x2) ? min(x1, x2) - x : x > max(x1, x2) ? x - max(x1, x2) : 0
                let ey = y < min(y1, y2) ? min(y1, y2) - y : y > max(y1, y2) ? y - max(y1, y2) : 0
                if ex * ex + ey * ey > best * (1 + 1e-9) {
                    (x1, y1) = (x2, y2)
                    continue
                }
                let dx = x2 - x1
                let dy = y2 - y1
                let len2 = dx * dx + dy * dy
                var t = len2 > 0 ? ((x - x1) * dx + (y - y1) * dy) / len2 : 0
                t = min(1, max(0, t))
                let px = x1 + t * dx
                let py = y1 + t * dy
                let d2 = (x - px) * (x - px) + (y - py) * (y - py)
                if d2 < best {
                    best = d2
                    bx = px
                    by = py
                }
                (x1, y1) = (x2, y2)
            }
        }
        // Frame units are about a degree of latitude: 110 574 m or more.
        let nearest = best.squareRoot()
        let bound = nearest * unitM
        if within.isFinite, nearest * 110_000 > within {
            return Depth(value: inside ? .infinity : -.infinity, bound: bound)
        }
        let d = Geodesic.shortDistance(point, frame.inverse(bx, by))
        return Depth(value: inside ? d : -d, bound: bound)
    }
}
