import GPSTrackSim
import Testing

@testable import GPSTrackCore

#if canImport(Glibc)
import Glibc
#endif

/// The small-polygon scan skips the projection onto an edge whose box lies farther than the
/// nearest point found so far: it must find what projecting onto every edge finds, to the bit.
@Suite struct PolygonScanTests {
    /// Every edge projected, the parity of every crossing: the scan as it was before the skip.
    static func everyEdge(
        _ rings: [[(Double, Double)]], _ x: Double, _ y: Double, point: Coordinate, frame: FenceIndex.Frame,
        within: Double
    ) -> Double {
        var inside = false
        var best = Double.infinity
        var nearest = (0.0, 0.0)
        for ring in rings {
            for k in 1..<ring.count {
                let (x1, y1) = ring[k - 1]
                let (x2, y2) = ring[k]
                if (y1 > y) != (y2 > y), x < x1 + (y - y1) / (y2 - y1) * (x2 - x1) { inside.toggle() }
                let (dx, dy) = (x2 - x1, y2 - y1)
                let len2 = dx * dx + dy * dy
                let t = min(1, max(0, len2 > 0 ? ((x - x1) * dx + (y - y1) * dy) / len2 : 0))
                let (px, py) = (x1 + t * dx, y1 + t * dy)
                let d2 = (x - px) * (x - px) + (y - py) * (y - py)
                if d2 < best { (best, nearest) = (d2, (px, py)) }
            }
        }
        if within.isFinite, best.squareRoot() > within / 110_000 { return inside ? .infinity : -.infinity }
        let d = Geodesic.shortDistance(point, frame.inverse(nearest.0, nearest.1))
        return inside ? d : -d
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theSkipFindsWhatEveryEdgeFinds(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var compared = 0
        var inside = 0
        for _ in 0..<300 {
            // A star-shaped ring of 5-40 vertices round a centre, some with a hole.
            let lat0 = Double.random(in: -60...60, using: &rng)
            let lon0 = Double.random(in: -179...179, using: &rng)
            let frame = FenceIndex.Frame(lon0: lon0, k: cos(lat0 * .pi / 180))
            func ring(_ n: Int, _ r: ClosedRange<Double>) -> [(Double, Double)] {
                var pts = (0..<n).map { i -> (Double, Double) in
                    let a = 2 * Double.pi * Double(i) / Double(n)
                    let radius = Double.random(in: r, using: &rng)
                    return (radius * cos(a), lat0 + radius * sin(a))
                }
                pts.append(pts[0])
                return pts
            }
            var rings = [ring(Int.random(in: 5...40, using: &rng), 0.001...0.01)]
            if Bool.random(using: &rng) { rings.append(ring(6, 0.0002...0.0004)) }
            for _ in 0..<20 {
                let x = Double.random(in: -0.015...0.015, using: &rng)
                let y = lat0 + Double.random(in: -0.015...0.015, using: &rng)
                let point = frame.inverse(x, y)
                let (fx, fy) = frame.forward(point)
                for within in [Double.infinity, 50, 500] {
                    let scanned = FenceIndex.scan(rings, fx, fy, point: point, frame: frame, within: within).value
                    let reference = Self.everyEdge(rings, fx, fy, point: point, frame: frame, within: within)
                    #expect(scanned.bitPattern == reference.bitPattern, "\(scanned) against \(reference)")
                    compared += 1
                    if scanned > 0 { inside += 1 }
                }
            }
        }
        #expect(compared == 18_000)
        #expect(inside > 1000, "points inside as well as outside: \(inside)")
    }
}
