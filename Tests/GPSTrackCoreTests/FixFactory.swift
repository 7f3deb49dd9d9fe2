import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Builds fixes for tests: positions `east`/`north` metres from a base point, placed by
/// GeographicLib's `GeodSolve` (GeodSolveDirect.Session), never by the code under test.
enum FixFactory {
    static let base = Coordinate(latitude: 47.3769, longitude: 8.5417)
    static let t0 = 1_773_475_200.0

    static func at(
        _ seconds: Double, east: Double = 0, north: Double = 0, eph: Double = 5,
        speed: Double = .nan, track: Double = .nan, mode: Int = 3
    ) -> Fix {
        var p = base
        if east != 0 { p = place(p, azimuth: 90, distance: east) }
        if north != 0 { p = place(p, azimuth: 0, distance: north) }
        return Fix(
            mode: mode, time: t0 + seconds, latitude: p.latitude, longitude: p.longitude,
            eph: eph, speed: speed, track: track)
    }

    /// GeodSolve's direct problem; without GeodSolve the test fails (the base point stands in).
    static func place(_ from: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        guard let p = GeodSolveDirect.Session.shared.point(from: from, azimuth: azimuth, distance: distance) else {
            Issue.record("FixFactory places fixes with GeodSolve (geographiclib-tools; scripts/deps.sh test)")
            return from
        }
        return p
    }
}
