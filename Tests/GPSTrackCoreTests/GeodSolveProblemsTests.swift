import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Both geodesic problems against GeographicLib's own `GeodSolve` binary (geographiclib-tools,
/// installed by `make test`): the azimuths of the inverse problem and the end point of the
/// direct one, on seeded random pairs: global, near-antipodal, near either pole, short hops.
@Suite struct GeodSolveProblemsTests {
    static func points() -> [(Coordinate, Coordinate)] {
        var rng = SeededRandom(seed: 24)
        var out: [(Coordinate, Coordinate)] = []
        for i in 0..<400 {
            let a: Coordinate
            if i % 4 == 2 {
                // Within half a degree of a pole, where longitudes crowd and azimuths turn fast.
                let lat = (i % 8 == 2 ? 1.0 : -1.0) * rng.uniform(89.5...90)
                a = Coordinate(latitude: lat, longitude: rng.uniform(-180...180))
            } else {
                a = Coordinate(latitude: rng.uniform(-90...90), longitude: rng.uniform(-180...180))
            }
            let b: Coordinate
            switch i % 4 {
            case 1:
                var lon = a.longitude + 180 + rng.uniform(-0.5...0.5)
                if lon > 180 { lon -= 360 }
                b = Coordinate(latitude: max(-90, min(90, -a.latitude + rng.uniform(-0.5...0.5))), longitude: lon)
            case 3:
                b = Coordinate(
                    latitude: max(-90, min(90, a.latitude + rng.uniform(-1e-3...1e-3))),
                    longitude: a.longitude + rng.uniform(-1e-3...1e-3))
            default: b = Coordinate(latitude: rng.uniform(-90...90), longitude: rng.uniform(-180...180))
            }
            out.append((a, b))
        }
        return out
    }

    static func numbers(_ output: String, each: Int) -> [[Double]] {
        output.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
            .filter { $0.count == each }
    }

    /// The difference of two azimuths in degrees, folded into -180...180.
    static func angle(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        return d
    }

    @Test(.enabled(if: GeodSolveTruth.path != nil, "GeodSolve is installed by `make test`"))
    func inverseAzimuthsMatchGeodSolve() throws {
        let pairs = Self.points().filter { $0.0 != $0.1 }
        let input = pairs.map {
            [$0.0.latitude, $0.0.longitude, $0.1.latitude, $0.1.longitude].map(GeodSolveTruth.field).joined(
                separator: " ")
        }
        let rows = Self.numbers(
            try GeodSolveTruth.run(["-i", "-p", "12"], input: input.joined(separator: "\n") + "\n"), each: 3)
        try #require(rows.count == pairs.count)
        for (pair, row) in zip(pairs, rows) {
            let ours = Geodesic.inverse(pair.0, pair.1)
            #expect(
                abs(ours.distance - row[2]) <= max(1e-6, row[2] * 1e-12),
                "\(pair) s12 GeodSolve \(row[2]) ours \(ours.distance)")
            // At a pole the azimuth depends on the longitude's convention: compare elsewhere.
            guard abs(pair.0.latitude) < 90, abs(pair.1.latitude) < 90 else { continue }
            #expect(
                abs(Self.angle(ours.azimuth1, row[0])) <= 1e-7, "\(pair) azi1 GeodSolve \(row[0]) ours \(ours.azimuth1)"
            )
            #expect(
                abs(Self.angle(ours.azimuth2, row[1])) <= 1e-7, "\(pair) azi2 GeodSolve \(row[1]) ours \(ours.azimuth2)"
            )
        }
    }

    @Test(.enabled(if: GeodSolveTruth.path != nil, "GeodSolve is installed by `make test`"))
    func directMatchesGeodSolve() throws {
        var rng = SeededRandom(seed: 25)
        let problems = Self.points().map { pair in
            (start: pair.0, azimuth: rng.uniform(-180...180), distance: rng.uniform(0...20_003_000))
        }
        let input = problems.map {
            [$0.start.latitude, $0.start.longitude, $0.azimuth, $0.distance].map(GeodSolveTruth.field).joined(
                separator: " ")
        }
        let rows = Self.numbers(
            try GeodSolveTruth.run(["-p", "12"], input: input.joined(separator: "\n") + "\n"), each: 3)
        try #require(rows.count == problems.count)
        let ours = problems.map { Geodesic.destination(from: $0.start, azimuth: $0.azimuth, distance: $0.distance) }
        let truths = rows.map { Coordinate(latitude: $0[0], longitude: $0[1]) }
        // Compared as a distance apart (GeodSolve's own inverse), so longitudes near a pole or at
        // ±180 need no special case.
        let apart = try GeodSolveTruth.lengths(zip(ours, truths).map { [$0, $1] })
        for (k, problem) in problems.enumerated() {
            #expect(apart[k] <= 1e-6, "\(problem) GeodSolve \(truths[k]) ours \(ours[k]): \(apart[k]) m apart")
        }
    }
}
