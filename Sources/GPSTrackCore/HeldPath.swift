#if canImport(Glibc)
import Glibc
#endif

/// The fixes a receiver without speed reported between two deliveries, so that a creep
/// delivery can count the way it went and not only the chord. Without a speed the creep
/// distance (three times an error estimate that gpsd makes pessimistic, 60-80 m) is the only
/// gate, and a walk's chords of that length cut its corners by 4-6 %.
///
/// The way is the chord split where the held fixes, smoothed over `smoothing` fixes, bend
/// away from it by more than the distance filter (Douglas-Peucker): jitter, averaged, stays
/// within it; a corner does not.
struct HeldPath: Sendable {
    /// At most this many held fixes are kept (20 min at 1 Hz); beyond, the chord is counted.
    static let capacity = 1200
    /// Fixes averaged around each held one before judging how far it bends.
    static let smoothing = 5
    private(set) var points: [Coordinate] = []
    private(set) var overflowed = false

    mutating func clear() {
        points.removeAll(keepingCapacity: true)
        overflowed = false
    }

    mutating func hold(_ c: Coordinate) {
        guard !overflowed else { return }
        guard points.count < Self.capacity else {
            overflowed = true
            return
        }
        points.append(c)
    }

    /// The length of the way from `start` through the held fixes to `end`, at least the chord.
    func length(from start: Coordinate, to end: Coordinate, chord: Double, tolerance: Double) -> Double {
        guard !overflowed, points.count >= Self.smoothing, tolerance > 0 else { return chord }
        // A local plane around the start: metres east and north (the way is at most a few km).
        let k = Double.pi / 180 * 6_371_000
        let cosLat = cos(start.latitude * Double.pi / 180)
        func plane(_ c: Coordinate) -> (Double, Double) {
            ((c.longitude - start.longitude) * k * cosLat, (c.latitude - start.latitude) * k)
        }
        let raw = points.map(plane)
        let half = Self.smoothing / 2
        var smooth: [(Double, Double)] = [(0, 0)]
        smooth.reserveCapacity(raw.count + 2)
        for i in raw.indices {
            let lo = max(0, i - half)
            let hi = min(raw.count - 1, i + half)
            var e = 0.0
            var n = 0.0
            for j in lo...hi {
                e += raw[j].0
                n += raw[j].1
            }
            let m = Double(hi - lo + 1)
            smooth.append((e / m, n / m))
        }
        smooth.append(plane(end))
        var keep = [Bool](repeating: false, count: smooth.count)
        keep[0] = true
        keep[smooth.count - 1] = true
        Self.simplify(smooth, 0, smooth.count - 1, tolerance, &keep)
        var total = 0.0
        var last = smooth[0]
        for i in 1..<smooth.count where keep[i] {
            let p = smooth[i]
            total += ((p.0 - last.0) * (p.0 - last.0) + (p.1 - last.1) * (p.1 - last.1)).squareRoot()
            last = p
        }
        // The plane's lengths differ from the geodesic by far less than the tolerance; scale
        // them so that a way without corners comes out as the geodesic chord exactly.
        let flatChord =
            ((last.0 - smooth[0].0) * (last.0 - smooth[0].0) + (last.1 - smooth[0].1) * (last.1 - smooth[0].1))
            .squareRoot()
        guard flatChord > 0 else { return chord }
        return max(chord, total * chord / flatChord)
    }

    /// Whether the held fixes recede from `start` towards `end`: `end` lies at least `minimum`
    /// from `start` and no held fix lies farther from it (beyond `slack`). A walk's last fix is
    /// its farthest; a parked receiver's wander ends anywhere.
    func recedes(from start: Coordinate, to end: Coordinate, minimum: Double, slack: Double) -> Bool {
        guard !overflowed else { return false }
        let reach = Geodesic.distance(start, end)
        guard reach >= minimum else { return false }
        return !points.contains { Geodesic.distance(start, $0) > reach + slack }
    }

    /// Douglas-Peucker: marks the points to keep between `a` and `b`.
    private static func simplify(_ p: [(Double, Double)], _ a: Int, _ b: Int, _ tolerance: Double, _ keep: inout [Bool])
    {
        guard b > a + 1 else { return }
        let (ax, ay) = p[a]
        let (bx, by) = p[b]
        let dx = bx - ax
        let dy = by - ay
        let len2 = dx * dx + dy * dy
        var worst = 0.0
        var at = -1
        for i in (a + 1)..<b {
            let (px, py) = p[i]
            var d: Double
            if len2 == 0 {
                d = ((px - ax) * (px - ax) + (py - ay) * (py - ay)).squareRoot()
            } else {
                let t = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / len2))
                let qx = ax + t * dx - px
                let qy = ay + t * dy - py
                d = (qx * qx + qy * qy).squareRoot()
            }
            if d > worst {
                worst = d
                at = i
            }
        }
        guard worst > tolerance, at > 0 else { return }
        keep[at] = true
        simplify(p, a, at, tolerance, &keep)
        simplify(p, at, b, tolerance, &keep)
    }
}
