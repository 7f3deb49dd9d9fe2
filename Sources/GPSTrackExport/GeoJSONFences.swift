import GPSTrackJSON
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The fences as GeoJSON features (`export --format geojson --fences`): a polygon fence as a
/// Polygon (a MultiPolygon with several), a corridor as the MultiLineString of its lines with
/// its `width_m`, a circle (which RFC 7946 lacks) as a Polygon of `circleVertices` points on
/// it, with its `radius_m`. Rings are closed and, as RFC 7946 asks, outer rings counter-clockwise.
enum GeoJSONFences {
    /// Vertices of a circle's polygon: at 72 the polygon's edge lies within 0.1% of the radius.
    static let circleVertices = 72

    static func feature(_ f: ExportFence) -> String {
        ReplyEncoder.encode(
            GeoJSONFeature(id: .text(f.id), properties: GeoJSONProperties.Fence(f), geometry: geometry(f)))
    }

    static func geometry(_ f: ExportFence) -> GeoJSONGeometry? {
        func ring(_ r: [[Double]]) -> [GeoJSONPosition] { closed(r).map(GeoJSONPosition.init) }
        func polygon(_ rings: [[[Double]]]) -> [[GeoJSONPosition]] {
            rings.enumerated().map { i, r in ring(oriented(r, counterClockwise: i == 0)) }
        }
        switch f.kind {
        case "circle":
            guard let lat = f.lat, let lon = f.lon, let r = f.radiusM else { return nil }
            return .polygon([ring(circle(lat: lat, lon: lon, radiusM: r))])
        case "corridor":
            return .multiLineString((f.rings.first ?? []).map { $0.map(GeoJSONPosition.init) })
        default:
            if f.rings.count == 1 { return .polygon(polygon(f.rings[0])) }
            return .multiPolygon(f.rings.map(polygon))
        }
    }

    /// The circle's points, [lon, lat], counter-clockwise from north: steps along the WGS84
    /// ellipsoid's radii of curvature at the centre (meridian and prime vertical), whose error
    /// at a fence's size (metres to kilometres) is far below a part in a thousand.
    static func circle(lat: Double, lon: Double, radiusM: Double) -> [[Double]] {
        let a = 6_378_137.0
        let e2 = 0.006_694_379_990_14
        let phi = lat * .pi / 180
        let w = (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        let meridian = a * (1 - e2) / (w * w * w)
        let primeVertical = a / w
        return (0..<circleVertices).map { k in
            let bearing = -Double(k) * 2 * .pi / Double(circleVertices)
            let dlat = radiusM * cos(bearing) / meridian
            let dlon = radiusM * sin(bearing) / (primeVertical * cos(phi))
            return [lon + dlon * 180 / .pi, lat + dlat * 180 / .pi]
        }
    }

    static func closed(_ r: [[Double]]) -> [[Double]] {
        guard let first = r.first, r.last != first else { return r }
        return r + [first]
    }

    /// `r` turned the way asked (by the sign of its shoelace area in degrees: fine for a fence).
    static func oriented(_ r: [[Double]], counterClockwise: Bool) -> [[Double]] {
        var area = 0.0
        for (a, b) in zip(r, r.dropFirst() + r.prefix(1)) where a.count >= 2 && b.count >= 2 {
            area += a[0] * b[1] - b[0] * a[1]
        }
        return (area > 0) == counterClockwise ? r : r.reversed()
    }
}
