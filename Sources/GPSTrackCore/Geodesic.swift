import CProj
#if canImport(Glibc)
import Glibc
#endif

/// Geodesics on the WGS84 ellipsoid through PROJ's implementation of Karney's algorithms
/// (`geodesic.h`). Accurate to nanometres for any pair of points, antipodal ones included.
public enum Geodesic {
    /// The result of the inverse problem between two points.
    public struct Inverse: Sendable {
        /// Distance along the geodesic, metres.
        public var distance: Double
        /// Forward azimuth at the first point, degrees clockwise from north.
        public var azimuth1: Double
        /// Forward azimuth at the second point, degrees clockwise from north.
        public var azimuth2: Double
    }

    private struct Ellipsoid: @unchecked Sendable {
        // Written once by geod_init, read-only afterwards: safe to share.
        let pointer: UnsafeMutablePointer<geod_geodesic>
        init(a: Double, f: Double) {
            pointer = .allocate(capacity: 1)
            geod_init(pointer, a, f)
        }
    }

    private static let wgs84 = Ellipsoid(a: 6_378_137, f: 1 / 298.257223563)

    /// Solves the inverse problem: distance and azimuths from `a` to `b`.
    public static func inverse(_ a: Coordinate, _ b: Coordinate) -> Inverse {
        var s12 = 0.0, azi1 = 0.0, azi2 = 0.0
        geod_inverse(wgs84.pointer, a.latitude, a.longitude, b.latitude, b.longitude, &s12, &azi1, &azi2)
        return Inverse(distance: s12, azimuth1: azi1, azimuth2: azi2)
    }

    /// Geodesic distance in metres from `a` to `b`.
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        var s12 = 0.0
        geod_inverse(wgs84.pointer, a.latitude, a.longitude, b.latitude, b.longitude, &s12, nil, nil)
        return s12
    }

    /// A quick upper bound on the distance from `a` to `b` in metres, for pairs below 80°
    /// latitude within about 10 km of each other; infinity otherwise ("no bound"). It lets
    /// callers skip a geodesic whose answer is certainly "too close"; every distance reported is
    /// a geodesic. On WGS84 a degree of latitude is at most 111 695 m, and a degree of longitude
    /// at most 111 695 m × cos(latitude) (the polar radius of curvature); 1 % covers the flat
    /// approximation over 10 km many times over.
    public static func closeUpperBound(_ a: Coordinate, _ b: Coordinate) -> Double {
        guard abs(a.latitude) < 80, abs(b.latitude) < 80 else { return .infinity }
        var dlon = b.longitude - a.longitude
        if dlon > 180 { dlon -= 360 } else if dlon < -180 { dlon += 360 }
        let dlat = b.latitude - a.latitude
        guard abs(dlat) < 0.1, abs(dlon) < 0.5 else { return .infinity }
        let minLat = (a.latitude < 0) == (b.latitude < 0) ? min(abs(a.latitude), abs(b.latitude)) : 0
        let x = dlon * 111_695 * cos(minLat * .pi / 180)
        let y = dlat * 111_695
        return 1.01 * (x * x + y * y).squareRoot()
    }

    /// Solves the direct problem: the point `distance` metres from `start` along `azimuth` degrees.
    public static func destination(from start: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        var lat2 = 0.0, lon2 = 0.0
        geod_direct(wgs84.pointer, start.latitude, start.longitude, azimuth, distance, &lat2, &lon2, nil)
        return Coordinate(latitude: lat2, longitude: lon2)
    }
}
