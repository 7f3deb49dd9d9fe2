import GPSTrackCore
import GPSTrackProtocol

/// Builds fixes for tests: positions `east`/`north` metres from a base point.
enum FixFactory {
    static let base = Coordinate(latitude: 47.3769, longitude: 8.5417)
    static let t0 = 1_773_475_200.0

    static func at(
        _ seconds: Double, east: Double = 0, north: Double = 0, eph: Double = 5,
        speed: Double = .nan, track: Double = .nan, mode: Int = 3
    ) -> Fix {
        var p = base
        if east != 0 { p = Geodesic.destination(from: p, azimuth: 90, distance: east) }
        if north != 0 { p = Geodesic.destination(from: p, azimuth: 0, distance: north) }
        return Fix(
            mode: mode, time: t0 + seconds, latitude: p.latitude, longitude: p.longitude,
            eph: eph, speed: speed, track: track)
    }
}
