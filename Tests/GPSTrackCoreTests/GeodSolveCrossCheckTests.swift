import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Cross-checks the geodesics (GeographicLib through CGeodesic) against GeographicLib's own `GeodSolve` binary
/// (geographiclib-tools, installed by `make test`) on seeded random pairs: global ones,
/// near-antipodal ones and short hops.
@Suite struct GeodSolveCrossCheckTests {
    static let geodSolve = ["/usr/bin/GeodSolve", "/usr/local/bin/GeodSolve"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static func pairs() -> [(Coordinate, Coordinate)] {
        var rng = SeededRandom(seed: 7)
        var out: [(Coordinate, Coordinate)] = []
        for i in 0..<300 {
            let a = Coordinate(latitude: rng.uniform(-90...90), longitude: rng.uniform(-180...180))
            let b: Coordinate
            switch i % 3 {
            case 0: b = Coordinate(latitude: rng.uniform(-90...90), longitude: rng.uniform(-180...180))
            case 1:
                var lon = a.longitude + 180 + rng.uniform(-0.5...0.5)
                if lon > 180 { lon -= 360 }
                b = Coordinate(latitude: -a.latitude + rng.uniform(-0.5...0.5), longitude: lon)
            default:
                b = Coordinate(
                    latitude: max(-90, min(90, a.latitude + rng.uniform(-1e-4...1e-4))),
                    longitude: a.longitude + rng.uniform(-1e-4...1e-4))
            }
            out.append((a, b))
        }
        return out
    }

    @Test(.enabled(if: geodSolve != nil, "needs GeodSolve (geographiclib-tools); scripts/deps.sh test installs it"))
    func matchesGeodSolveOnRandomPairs() throws {
        let pairs = Self.pairs()
        let input =
            pairs.map { "\($0.0.latitude) \($0.0.longitude) \($0.1.latitude) \($0.1.longitude)" }
            .joined(separator: "\n") + "\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.geodSolve!)
        process.arguments = ["-i", "-p", "9"]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = output.split(separator: "\n")
        try #require(lines.count == pairs.count)
        for (pair, line) in zip(pairs, lines) {
            let fields = line.split(separator: " ").compactMap { Double($0) }
            try #require(fields.count == 3)
            let ours = Geodesic.distance(pair.0, pair.1)
            #expect(
                abs(ours - fields[2]) <= max(1e-6, fields[2] * 1e-12), "\(pair) GeodSolve \(fields[2]) ours \(ours)")
        }
    }

    /// The geofences' short distances and the tracker's short hops (tangent plane within about
    /// 1 km, below 80°) against GeodSolve on seeded pairs from 1 m to 1.5 km at every latitude
    /// to 85°: distances within 0.1 mm, azimuths within 1 mm of lateral offset.
    @Test(.enabled(if: geodSolve != nil, "needs GeodSolve (geographiclib-tools); scripts/deps.sh test installs it"))
    func shortDistancesMatchGeodSolve() throws {
        var rng = SeededRandom(seed: 11)
        var pairs: [(Coordinate, Coordinate)] = []
        for _ in 0..<400 {
            let a = Coordinate(latitude: rng.uniform(-85...85), longitude: rng.uniform(-180...180))
            let d = rng.uniform(1...1500)
            let az = rng.uniform(0...360)
            // The far end from GeodSolve's own direct problem would be as good; the distance is
            // what is checked, and GeodSolve's inverse below is the reference for it.
            var lon = a.longitude + d * sin(az * .pi / 180) / (111_320 * max(cos(a.latitude * .pi / 180), 0.05))
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            let lat = max(-89.9, min(89.9, a.latitude + d * cos(az * .pi / 180) / 110_574))
            pairs.append((a, Coordinate(latitude: lat, longitude: lon)))
        }
        let input =
            pairs.map { "\($0.0.latitude) \($0.0.longitude) \($0.1.latitude) \($0.1.longitude)" }.joined(
                separator: "\n") + "\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.geodSolve!)
        process.arguments = ["-i", "-p", "9"]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = output.split(separator: "\n")
        try #require(lines.count == pairs.count)
        var planar = 0
        for (pair, line) in zip(pairs, lines) {
            let fields = line.split(separator: " ").compactMap { Double($0) }
            try #require(fields.count == 3)
            #expect(abs(Geodesic.shortDistance(pair.0, pair.1) - fields[2]) <= 1e-4, "\(pair) GeodSolve \(fields[2])")
            // The tracker's hops: the same distance, and each azimuth within 1 mm of lateral
            // offset over the hop.
            let hop = Geodesic.shortInverse(pair.0, pair.1)
            #expect(abs(hop.distance - fields[2]) <= 1e-4, "\(pair) GeodSolve \(fields[2]) ours \(hop.distance)")
            for (ours, theirs) in [(hop.azimuth1, fields[0]), (hop.azimuth2, fields[1])] {
                var turn = abs(ours - theirs).truncatingRemainder(dividingBy: 360)
                if turn > 180 { turn = 360 - turn }
                #expect(
                    fields[2] * turn * .pi / 180 <= 1e-3, "\(pair) GeodSolve azimuth \(theirs) ours \(ours)")
            }
            if abs(pair.0.latitude) < 80, abs(pair.1.latitude - pair.0.latitude) < 0.01,
                abs(pair.1.longitude - pair.0.longitude) < 0.01
            {
                planar += 1
            }
        }
        #expect(planar > 100, "most pairs take the plane, so the check means something")
    }
}
