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
            queries.map {
                "\(GeodSolveTruth.field($0.from.latitude)) \(GeodSolveTruth.field($0.from.longitude)) \(GeodSolveTruth.field($0.azimuth)) \(GeodSolveTruth.field($0.distance))\n"
            }.joined().utf8)
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

extension GeodSolveDirect {
    /// One `GeodSolve -p 9` kept running for the test process, asked one direct problem at a
    /// time (it answers each line as it reads it): for constructions made one point at a time
    /// (FixFactory), where a process per point would take seconds.
    final class Session: @unchecked Sendable {  // every use of the pipes holds `lock`
        static let shared = Session()
        private let lock = NSLock()
        private var process: Process?
        private var input: FileHandle?
        private var output: Int32 = -1
        private var pending: [UInt8] = []
        private var pipes: (Pipe, Pipe)?

        /// The point `distance` metres from `from` along `azimuth`; nil when GeodSolve cannot
        /// be run or answers nonsense.
        func point(from: Coordinate, azimuth: Double, distance: Double) -> Coordinate? {
            lock.withLock {
                if process == nil { start() }
                guard let input, output >= 0 else { return nil }
                input.write(
                    Data(
                        "\(GeodSolveTruth.field(from.latitude)) \(GeodSolveTruth.field(from.longitude)) \(GeodSolveTruth.field(azimuth)) \(GeodSolveTruth.field(distance))\n"
                            .utf8))
                guard let line = readLine() else { return nil }
                let f = line.split(separator: " ").compactMap { Double($0) }
                return f.count == 3 ? Coordinate(latitude: f[0], longitude: f[1]) : nil
            }
        }

        private func start() {
            guard let path = GeodSolveTruth.path else { return }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: path)
            p.arguments = ["-p", "9"]
            let stdin = Pipe()
            let stdout = Pipe()
            p.standardInput = stdin
            p.standardOutput = stdout
            guard (try? p.run()) != nil else { return }
            process = p
            input = stdin.fileHandleForWriting
            output = stdout.fileHandleForReading.fileDescriptor
            pipes = (stdin, stdout)  // held: the descriptors live as long as their pipes
        }

        private func readLine() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                if let nl = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<nl], as: UTF8.self)
                    pending.removeSubrange(...nl)
                    return line
                }
                let n = read(output, &buffer, buffer.count)
                guard n > 0 else { return nil }
                pending += buffer[..<n]
            }
        }
    }
}
