import GPSTrackCore
import GPSTrackProtocol

/// Seeded sets of mixed fences for tests and benchmarks: circles of 20-400 m and star-shaped
/// polygons of 5-24 vertices (never self-intersecting) spread over a square.
public enum FenceGenerator {
    public static func fences(count: Int, origin: Coordinate, sideM: Double, seed: UInt64) -> [Fence] {
        var rng = SeededRandom(seed: seed)
        var out: [Fence] = []
        for i in 0..<count {
            let east = Geodesic.destination(from: origin, azimuth: 90, distance: rng.uniform(0...sideM))
            let center = Geodesic.destination(from: east, azimuth: 0, distance: rng.uniform(0...sideM))
            if i % 2 == 0 {
                out.append(Fence(index: i, id: "c\(i)", shape: .circle(center: center, radiusM: rng.uniform(20...400))))
            } else {
                let n = 5 + Int(rng.unit() * 20)
                var ring: [Coordinate] = []
                for k in 0..<n {
                    ring.append(
                        Geodesic.destination(
                            from: center, azimuth: Double(k) * 360 / Double(n),
                            distance: rng.uniform(50...400)))
                }
                ring.append(ring[0])
                out.append(Fence(index: i, id: "p\(i)", shape: .polygons([[ring]])))
            }
        }
        return out
    }

    /// The fences as a GeoJSON FeatureCollection.
    public static func geoJSON(_ fences: [Fence]) -> String {
        func pos(_ c: Coordinate) -> String { "[\(c.longitude),\(c.latitude)]" }
        let features = fences.map { f -> String in
            switch f.shape {
            case .circle(let c, let r):
                return
                    #"{"type":"Feature","id":"\#(f.id)","properties":{"radius":\#(r)},"geometry":{"type":"Point","coordinates":\#(pos(c))}}"#
            case .polygons(let polys):
                let rings = polys[0].map { "[" + $0.map(pos).joined(separator: ",") + "]" }.joined(separator: ",")
                return
                    #"{"type":"Feature","id":"\#(f.id)","properties":{},"geometry":{"type":"Polygon","coordinates":[\#(rings)]}}"#
            case .corridor(let lines, let width):
                let coords = lines.map { "[" + $0.map(pos).joined(separator: ",") + "]" }.joined(separator: ",")
                return
                    #"{"type":"Feature","id":"\#(f.id)","properties":{"width_m":\#(width)},"geometry":{"type":"MultiLineString","coordinates":[\#(coords)]}}"#
            }
        }
        return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}\n"
    }
}
