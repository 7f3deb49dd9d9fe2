import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim

/// GeographicLib's `GeodSolve` for the direct problem: the point `distance` metres from a start
/// along the geodesic leaving it at `azimuth`, and the geodesic's azimuth there. Tests build
/// their constructed truths with it, never with the code under test.
enum GeodSolveDirect {
    struct Query {
        var from: Coordinate
        var azimuth: Double
        var distance: Double
    }
    struct Failed: Error, CustomStringConvertible { var description: String }

    static func solve(_ queries: [Query]) throws -> [(point: Coordinate, azimuth: Double)] {
        guard let path = GeodSolveTruth.path else { throw Failed(description: "no GeodSolve (geographiclib-tools)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-p", "9"]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        let input = Data(
            queries.map { "\($0.from.latitude) \($0.from.longitude) \($0.azimuth) \($0.distance)\n" }.joined().utf8)
        // Write from another thread: the output pipe fills while we write.
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let rows = output.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
        guard process.terminationStatus == 0, rows.count == queries.count, rows.allSatisfy({ $0.count == 3 }) else {
            throw Failed(
                description: "GeodSolve answered \(rows.count) rows for \(queries.count) queries: \(output.prefix(200))"
            )
        }
        return rows.map { (Coordinate(latitude: $0[0], longitude: $0[1]), $0[2]) }
    }

    static func point(from: Coordinate, azimuth: Double, distance: Double) throws -> (
        point: Coordinate, azimuth: Double
    ) {
        try solve([Query(from: from, azimuth: azimuth, distance: distance)])[0]
    }
}
