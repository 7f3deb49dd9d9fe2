/// The trip detector's building blocks: a cluster of fixes that may become a stop, the stay at
/// a stop, and the geometry they use.
extension TripDetector {
    /// Fixes close together: perhaps a stop in the making.
    struct Cluster: Sendable {
        var firstIndex: Int
        var firstTime: Double
        var origin: Coordinate
        var dLat = 0.0, dLon = 0.0
        var count = 0
        var legAtStart: Leg
        var mean: Coordinate { count == 0 ? origin : Self.offset(origin, dLat / Double(count), dLon / Double(count)) }

        mutating func add(_ p: Coordinate) {
            dLat += p.latitude - origin.latitude
            var dl = p.longitude - origin.longitude
            if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            dLon += dl
            count += 1
        }

        static func offset(_ c: Coordinate, _ dLat: Double, _ dLon: Double) -> Coordinate {
            var lon = c.longitude + dLon
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            return Coordinate(latitude: c.latitude + dLat, longitude: lon)
        }
    }

    /// Where the receiver stays.
    struct Stay: Sendable {
        var figures: StopFigures
        var samples: [Coordinate]
        var stride = 1
        var skipped = 0
        var sinceSettled = 0
        var awayRun = 0
        var firstAwayIndex = 0
        var lastIn: Double

        mutating func add(_ p: Coordinate) {
            skipped += 1
            guard skipped >= stride else { return }
            skipped = 0
            samples.append(p)
            sinceSettled += 1
            if samples.count >= 4096 {
                samples = samples.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                stride *= 2
            }
            if sinceSettled >= 60 {
                sinceSettled = 0
                figures.at = TripDetector.median(samples)
            }
        }
    }

    /// Whether `b` lies more than `limit` metres from `a` (geodesic; a quick bound first).
    static func farther(_ a: Coordinate, _ b: Coordinate, than limit: Double) -> Bool {
        if Geodesic.closeUpperBound(a, b) <= limit { return false }
        return Geodesic.shortDistance(a, b) > limit
    }

    /// The component-wise median: robust against the odd wild fix.
    static func median(_ points: [Coordinate]) -> Coordinate {
        guard !points.isEmpty else { return Coordinate(latitude: .nan, longitude: .nan) }
        let lats = points.map(\.latitude).sorted()
        let lons = points.map(\.longitude).sorted()
        let m = points.count / 2
        if points.count % 2 == 1 { return Coordinate(latitude: lats[m], longitude: lons[m]) }
        return Coordinate(latitude: (lats[m - 1] + lats[m]) / 2, longitude: (lons[m - 1] + lons[m]) / 2)
    }
}
