import Foundation
import GPSTrackCore
import GPSTrackProtocol

/// Reference path lengths from GeographicLib's own `GeodSolve` (geographiclib-tools, installed
/// by `make test`), for tests: never from the code under test.
public enum GeodSolveTruth {
    public static let path = ["/usr/bin/GeodSolve", "/usr/local/bin/GeodSolve"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    public struct Missing: Error {}

    /// The length of each polyline (sum of its geodesic hops), metres.
    public static func lengths(_ lines: [[Coordinate]]) throws -> [Double] {
        var input = ""
        var counts: [Int] = []
        for line in lines {
            var n = 0
            for (a, b) in zip(line, line.dropFirst()) where a != b {
                input += "\(field(a.latitude)) \(field(a.longitude)) \(field(b.latitude)) \(field(b.longitude))\n"
                n += 1
            }
            counts.append(n)
        }
        let output = try run(["-i", "-p", "9"], input: input)
        let distances = output.split(separator: "\n").map { line -> Double in
            let fields = line.split(separator: " ")
            return fields.count == 3 ? Double(fields[2]) ?? .nan : .nan
        }
        var out: [Double] = []
        var k = 0
        for n in counts {
            out.append(distances[k..<(k + n)].reduce(0, +))
            k += n
        }
        return out
    }

    /// A number as GeodSolve reads it: never with an exponent. Swift writes 0.000029 as
    /// `2.9e-05`, whose `e` GeodSolve takes for East (a pair of points a few metres apart near
    /// the equator or the prime meridian came out 2,700 km apart); such a number is written in
    /// full (30 places: every digit of its binary value that matters), the others as Swift does.
    public static func field(_ v: Double) -> String {
        let text = v.description
        return text.contains("e") ? String(format: "%.30f", v) : text
    }

    /// Geodesic distance between two points.
    public static func distance(_ a: Coordinate, _ b: Coordinate) throws -> Double {
        try lengths([[a, b]])[0]
    }

    /// Runs GeodSolve with `arguments` on `input` (one problem a line) and returns its output.
    public static func run(_ arguments: [String], input: String) throws -> String {
        guard let path else { throw Missing() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // Write from another thread: the output pipe fills while we write.
        let data = Data(input.utf8)
        let writer = Thread {
            stdin.fileHandleForWriting.write(data)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output
    }
}
