import CGeodesic

#if canImport(Glibc)
import Glibc
#endif

/// Geodesics on the WGS84 ellipsoid through GeographicLib, Karney's own implementation of his
/// algorithms (the `CGeodesic` target's C header over its C++ `Geodesic`). Accurate to
/// nanometres for any pair of points, antipodal ones included.
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

    /// Solves the inverse problem: distance and azimuths from `a` to `b`.
    public static func inverse(_ a: Coordinate, _ b: Coordinate) -> Inverse {
        var s12 = 0.0
        var azi1 = 0.0
        var azi2 = 0.0
        gpstrack_geod_inverse(a.latitude, a.longitude, b.latitude, b.longitude, &s12, &azi1, &azi2)
        return Inverse(distance: s12, azimuth1: azi1, azimuth2: azi2)
    }

    /// Geodesic distance in metres from `a` to `b`.
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        var s12 = 0.0
        gpstrack_geod_inverse(a.latitude, a.longitude, b.latitude, b.longitude, &s12, nil, nil)
        return s12
    }

    /// A quick upper bound on the distance from `a` to `b` in metres, for pairs below 80°
    /// latitude within about 10 km of each other; infinity otherwise ("no bound"). It lets
    /// callers skip a geodesic whose answer is certainly "too close"; every distance reported is
    /// a geodesic. On WGS84 a degree of latitude is at most 111 695 m, and a degree of longitude
    /// at most 111 695 m × cos(latitude) (the polar radius of curvature); 1 % covers the flat
    /// approximation over 10 km many times over.
    public static func closeUpperBound(_ a: Coordinate, _ b: Coordinate) -> Double {
        var band = BandCosine()
        return closeUpperBound(a, b, band: &band)
    }

    /// `closeUpperBound`, with the cosine kept in `band` for the next pairs near the same
    /// latitude (a fix a second along a road costs no cosine then).
    public static func closeUpperBound(_ a: Coordinate, _ b: Coordinate, band: inout BandCosine) -> Double {
        guard abs(a.latitude) < 80, abs(b.latitude) < 80 else { return .infinity }
        var dlon = b.longitude - a.longitude
        if dlon > 180 { dlon -= 360 } else if dlon < -180 { dlon += 360 }
        let dlat = b.latitude - a.latitude
        guard abs(dlat) < 0.1, abs(dlon) < 0.5 else { return .infinity }
        let minLat = (a.latitude < 0) == (b.latitude < 0) ? min(abs(a.latitude), abs(b.latitude)) : 0
        let x = dlon * 111_695 * band.cosine(atMost: minLat)
        let y = dlat * 111_695
        return 1.01 * (x * x + y * y).squareRoot()
    }

    /// The cosine of an absolute latitude at or a little below (by under 0.01°) the one asked,
    /// kept between calls: cosine falls with latitude, so it bounds the cosine asked from above,
    /// and the first call of a band gives it exactly.
    public struct BandCosine: Sendable {
        private var low = Double.infinity
        private var value = 1.0
        public init() {}
        mutating func cosine(atMost latitude: Double) -> Double {
            if !(latitude >= low && latitude < low + 0.01) {
                low = latitude
                value = cos(latitude * .pi / 180)
            }
            return value
        }
    }

    /// Quick bounds (lower, upper) on the distance from `a` to `b` in metres, for pairs below
    /// 80° latitude within about 10 km of each other; nil otherwise. On WGS84 a degree of
    /// latitude spans 110 574-111 695 m and a degree of longitude 111 319-111 695 m times the
    /// cosine of the latitude; 1 % either way covers the flat approximation over 10 km.
    public static func closeBounds(_ a: Coordinate, _ b: Coordinate) -> (Double, Double)? {
        guard abs(a.latitude) < 80, abs(b.latitude) < 80 else { return nil }
        var dlon = abs(b.longitude - a.longitude)
        if dlon > 180 { dlon = 360 - dlon }
        let dlat = abs(b.latitude - a.latitude)
        guard dlat < 0.1, dlon < 0.5 else { return nil }
        let minLat = (a.latitude < 0) == (b.latitude < 0) ? min(abs(a.latitude), abs(b.latitude)) : 0
        let maxLat = max(abs(a.latitude), abs(b.latitude))
        let xHi = dlon * 111_695 * cos(minLat * .pi / 180)
        let yHi = dlat * 111_695
        let xLo = dlon * 111_319 * cos(maxLat * .pi / 180)
        let yLo = dlat * 110_574
        return (0.99 * (xLo * xLo + yLo * yLo).squareRoot(), 1.01 * (xHi * xHi + yHi * yHi).squareRoot())
    }

    /// Geodesic distance in metres for the short distances geofences measure (a fix to a
    /// boundary point): below 80° latitude and within about 1 km, on the tangent plane at the
    /// mid-latitude with WGS84's radii of curvature there, which differs from the geodesic by
    /// far less than a millimetre at that range (checked against GeodSolve in the tests) and
    /// costs a twentieth of an inverse geodesic; otherwise `distance`.
    public static func shortDistance(_ a: Coordinate, _ b: Coordinate) -> Double {
        guard let p = plane(a, b) else { return distance(a, b) }
        return (p.x * p.x + p.y * p.y).squareRoot()
    }

    /// The inverse problem for the short hops the tracker measures on every fix (one fix to
    /// the next, a fix to the last delivered one): below 80° latitude and within about 1 km, on
    /// the tangent plane at the mid-latitude as `shortDistance`, with each end's azimuth turned
    /// by half the meridians' convergence across the hop; otherwise `inverse`. Within 0.1 mm
    /// of GeodSolve's distance and 1 mm of its azimuths' lateral offset (distance times the
    /// azimuth's error) at that range (checked against GeodSolve in the tests), at a
    /// twentieth of the geodesic's cost: the tracker's three inverse geodesics a fix were a
    /// sixth of a replay's time.
    public static func shortInverse(_ a: Coordinate, _ b: Coordinate) -> Inverse {
        guard let p = plane(a, b) else { return inverse(a, b) }
        let d = (p.x * p.x + p.y * p.y).squareRoot()
        guard d > 0 else { return Inverse(distance: 0, azimuth1: 0, azimuth2: 0) }
        let azimuth = atan2(p.x, p.y) * 180 / .pi
        let turn = p.dlon * p.sinPhi / 2
        return Inverse(distance: d, azimuth1: normalised(azimuth - turn), azimuth2: normalised(azimuth + turn))
    }

    /// `b` east (`x`) and north (`y`) of `a` in metres on the tangent plane at the
    /// mid-latitude with WGS84's radii of curvature there, with the longitude difference and the
    /// mid-latitude's sine; nil beyond 80° latitude or 0.01° either way.
    @inline(__always)
    static func plane(_ a: Coordinate, _ b: Coordinate) -> (x: Double, y: Double, dlon: Double, sinPhi: Double)? {
        guard abs(a.latitude) < 80, abs(b.latitude) < 80 else { return nil }
        var dlon = b.longitude - a.longitude
        if dlon > 180 { dlon -= 360 } else if dlon < -180 { dlon += 360 }
        let dlat = b.latitude - a.latitude
        guard abs(dlat) < 0.01, abs(dlon) < 0.01 else { return nil }
        let phi = (a.latitude + dlat / 2) * .pi / 180
        let s = sin(phi)
        let w2 = 1 - e2 * s * s
        let w = w2.squareRoot()
        // cos from the sine (|phi| < 80°: positive, and to within 1e-15): libm's cos was 3 % of
        // a replay.
        let x = dlon * .pi / 180 * 6_378_137 / w * (1 - s * s).squareRoot()
        let y = dlat * .pi / 180 * 6_378_137 * (1 - e2) / (w2 * w)
        return (x, y, dlon, s)
    }

    /// An azimuth in (-180, 180], as GeographicLib gives them.
    static func normalised(_ azimuth: Double) -> Double {
        azimuth > 180 ? azimuth - 360 : azimuth <= -180 ? azimuth + 360 : azimuth
    }

    /// WGS84's first eccentricity squared, f (2 - f).
    static let e2 = (2 - 1 / 298.257223563) / 298.257223563

    /// Solves the direct problem: the point `distance` metres from `start` along `azimuth` degrees.
    public static func destination(from start: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        var lat2 = 0.0
        var lon2 = 0.0
        gpstrack_geod_direct(start.latitude, start.longitude, azimuth, distance, &lat2, &lon2)
        return Coordinate(latitude: lat2, longitude: lon2)
    }
}
