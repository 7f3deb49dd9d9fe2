import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The odometer over every real capture in `../shared/gpsd-captures`, replayed through
/// `gpstrackd replay`: a receiver standing still travels 0 m in the default trip mode, a
/// moving one within 10 % of the larger of its net displacement and the curated filtered
/// sum, and the straight line never exceeds the traveled distance in either trip mode, at
/// the summary or at any trip end. The folder is required: missing or malformed, the suite
/// fails (it does not skip).
@Suite struct CaptureOdometerTests {
    static let folder = ExecutableRunner.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/gpsd-captures")
    /// Metres the straight line may exceed the traveled distance by: the summary's rounding.
    static let rounding = 0.011
    /// The tracker's default `max_horizontal_error_m`: fixes beyond it are not positions.
    static let maxErrorM = 50.0

    struct Capture {
        var name: String
        var kind: String
        /// curated.tsv's sum after a 10 m filter and a 50 m eph cut.
        var filteredM: Double
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// Every row of curated.tsv, each naming a JSON log that exists, and every JSON log named
    /// by a row.
    static func captures() throws -> [Capture] {
        let table = folder.appendingPathComponent("curated.tsv")
        // One reader of the table (SharedCaptureTests'): missing or malformed, it throws.
        let out = try SharedCaptureTests.table().map {
            Capture(name: $0.name, kind: $0.kind, filteredM: $0.filteredNaiveM)
        }
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("json").path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        guard !out.isEmpty, Set(logs) == Set(out.map(\.name)), logs.count == out.count else {
            throw Malformed(
                description: "\(table.path): rows \(out.map(\.name).sorted()) do not match json/ \(logs.sorted())")
        }
        return out
    }

    /// GeodSolve's distance from the first to the last timed fix whose error estimate is
    /// within the limit (or absent): what the receiver's accurate fixes say it moved.
    static func netDisplacement(_ c: Capture) throws -> Double {
        let path = folder.appendingPathComponent("json/\(c.name).json").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var points: [Coordinate] = []
        for line in text.split(whereSeparator: \.isNewline) {
            guard let o = ExecutableRunner.json(String(line)), o["class"] as? String == "TPV",
                (o["mode"] as? Int ?? 0) >= 2,
                o["time"] != nil, let lat = o["lat"] as? Double, let lon = o["lon"] as? Double,
                (o["eph"] as? Double ?? 0) <= maxErrorM
            else { continue }
            points.append(Coordinate(latitude: lat, longitude: lon))
        }
        guard let first = points.first, let last = points.last else { throw Malformed(description: "\(path): no fix") }
        return try GeodSolveTruth.distance(first, last)
    }

    /// A straight line as printed, with the two places it is measured between.
    struct Claim {
        var label: String
        var from: Coordinate
        var to: Coordinate
        var figureM: Double
    }

    static func place(_ o: Any?) -> Coordinate? {
        guard let o = o as? [String: Any], let lat = o["lat"] as? Double, let lon = o["lon"] as? Double else {
            return nil
        }
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// Each claim's figure is GeodSolve's geodesic between its places, to 0.1 m.
    static func checkGeodesics(_ claims: [Claim]) throws {
        let reference = try GeodSolveTruth.lengths(claims.map { [$0.from, $0.to] })
        for (claim, d) in zip(claims, reference) {
            #expect(abs(claim.figureM - d) <= 0.1, "\(claim.label): \(claim.figureM) m, GeodSolve \(d) m")
        }
    }

    /// Replays a capture; returns the summary and every trip end, checking the invariant.
    func replay(_ c: Capture, tripMode: String?) throws -> [String: Any] {
        try replay(
            path: Self.folder.appendingPathComponent("json/\(c.name).json").path, name: c.name, tripMode: tripMode)
    }

    /// Replays a gpsd log: the straight line within the traveled distance and the geodesic
    /// between its printed places, at the summary and every trip end.
    func replay(path: String, name: String, tripMode: String?) throws -> [String: Any] {
        var args = ["replay", path]
        if let tripMode {
            args.insert(
                contentsOf: [
                    "--config",
                    try ExecutableRunner.temporaryFile(
                        "odometer-\(name)-\(tripMode).conf",
                        contents: "trip_mode = \(tripMode)\n"),
                ], at: 1)
        }
        let r = try ExecutableRunner.run(args)
        try #require(r.status == 0, "\(name): \(r.stderr)")
        let lines = r.lines.compactMap(ExecutableRunner.json)
        let mode = tripMode ?? "default"
        var claims: [Claim] = []
        for e in lines where e["event"] as? String == "trip_end" {
            let traveled = try #require(e["traveled_m"] as? Double)
            let straight = try #require(e["straight_line_m"] as? Double)
            #expect(
                straight <= traveled + Self.rounding,
                "\(name) \(mode) trip_end: \(straight) m straight, \(traveled) m traveled")
            let from = try #require(Self.place(e["from"]), "\(name) trip_end: from")
            let to = try #require(Self.place(e["to"]), "\(name) trip_end: to")
            claims.append(Claim(label: "\(name) \(mode) trip_end", from: from, to: to, figureM: straight))
        }
        let s = try #require(lines.last?["summary"] as? [String: Any], "\(name): no summary")
        let traveled = try #require(s["traveled_m"] as? Double)
        let straight = try #require(s["straight_line_m"] as? Double)
        #expect(
            straight <= traveled + Self.rounding, "\(name) \(mode): \(straight) m straight, \(traveled) m traveled")
        if let from = Self.place(s["start"]), let to = Self.place(s["end"]) {
            claims.append(Claim(label: "\(name) \(mode) summary", from: from, to: to, figureM: straight))
        } else {
            #expect(straight == 0, "\(name) \(mode): a straight line without its places")
        }
        try Self.checkGeodesics(claims)
        return s
    }

    @Test func everyCaptureTravelsWhatItMoved() throws {
        let captures = try Self.captures()
        #expect(
            captures.filter { $0.kind == "MOVING" }.count >= 7
                && captures.filter { $0.kind == "STATIONARY" }.count >= 12)
        for c in captures {
            let auto = try replay(c, tripMode: nil)
            _ = try replay(c, tripMode: "manual")
            let traveled = try #require(auto["traveled_m"] as? Double)
            if c.kind == "STATIONARY" {
                #expect(traveled == 0, "\(c.name): \(traveled) m while standing")
                #expect(auto["trips"] as? Int == 0, "\(c.name): a trip while standing")
            } else {
                let reference = max(try Self.netDisplacement(c), c.filteredM)
                #expect(abs(traveled / reference - 1) <= 0.10, "\(c.name): \(traveled) m, reference \(reference) m")
            }
        }
    }

    /// The bundled sample day, in both trip modes, by the same rule.
    @Test func theSampleDaysStraightLineIsTheGeodesicBetweenItsPlaces() throws {
        let sample = ExecutableRunner.packageRoot.appendingPathComponent("samples/walk-and-drive.gpsd.json").path
        for mode in [nil, "manual"] {
            let s = try replay(path: sample, name: "sample", tripMode: mode)
            #expect((s["straight_line_m"] as? Double ?? 0) > 1000, "the sample goes somewhere")
        }
    }
}
