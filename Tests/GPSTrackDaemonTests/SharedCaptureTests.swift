import Foundation
import Testing

/// Real receiver captures from gpsd's regression suite, in `../shared/gpsd-captures` beside the
/// checkout. The folder is required (CI's machine has it): missing, lacking a capture, or with a
/// table row they cannot read, it fails these tests, as it fails CaptureOdometerTests; neither
/// skips.
@Suite struct SharedCaptureTests {
    static let folder = ExecutableRunner.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/gpsd-captures")

    struct Capture: Sendable, CustomTestStringConvertible {
        var name: String
        var kind: String
        /// The curated table's traveled distance after a 10 m filter and a 50 m eph cut.
        var filteredNaiveM: Double
        var testDescription: String { name }
    }

    /// The 24 captures of the folder's README, by name and class (the EXTRA rows are classed
    /// STATIONARY), in the table's order.
    static let expected: [(name: String, kind: String)] = [
        ("quectel-eg25-g", "STATIONARY"), ("sirf2", "STATIONARY"), ("ublox-glo", "STATIONARY"),
        ("meinberg-gps164", "STATIONARY"),
        ("sirfstarv", "STATIONARY"), ("ublox-zed-f9p_hpg1.11", "STATIONARY"), ("motorola-t805", "STATIONARY"),
        ("rx210", "STATIONARY"),
        ("navisys-gr8013", "STATIONARY"), ("ublox-8", "STATIONARY"), ("telit-he910", "STATIONARY"),
        ("ais-nmea", "STATIONARY"),
        ("bundg_zeus_9", "MOVING"), ("haicom-305N", "MOVING"), ("rst39", "MOVING"), ("humminbird-M37", "MOVING"),
        ("bt451", "MOVING"), ("nl2008u", "MOVING"), ("garmin15x", "MOVING"),
        ("ublox-lea-4h", "STATIONARY"), ("sl869", "STATIONARY"), ("skytraq-bin", "STATIONARY"),
        ("blumax-gps009", "STATIONARY"),
        ("myguide-3100", "STATIONARY"),
    ]

    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) is missing or unreadable (the shared captures are required)" }
    }

    struct BadRow: Error, CustomStringConvertible {
        var line: Int
        var problem: String
        var description: String { "curated.tsv:\(line): \(problem)" }
    }

    /// Every capture row of `curated.tsv`. Blank lines, `#` comments, `[SECTION]` titles and the
    /// `name` header rows are the only other lines; anything else is an error naming its line.
    static func table() throws -> [Capture] {
        let path = folder.appendingPathComponent("curated.tsv").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Missing(path: path)
        }
        var rows: [Capture] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("[") || line.hasPrefix("name\t") { continue }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 17 else { throw BadRow(line: i + 1, problem: "\(f.count) fields, not 17") }
            guard ["STATIONARY", "MOVING"].contains(f[1]) else { throw BadRow(line: i + 1, problem: "class \(f[1])") }
            guard let naive = Double(f[9]) else { throw BadRow(line: i + 1, problem: "filt10_acc50_dist_m \(f[9])") }
            rows.append(Capture(name: f[0], kind: f[1], filteredNaiveM: naive))
        }
        return rows
    }

    /// The row of one expected capture, read from the table (not from `expected`).
    static func capture(_ name: String) throws -> Capture {
        try #require(try table().first { $0.name == name }, "\(name) has no row in curated.tsv")
    }

    @Test func theTableHoldsTheExpectedCaptures() throws {
        let rows = try Self.table()
        #expect(rows.count == 24)
        #expect(rows.map(\.name) == Self.expected.map(\.name))
        #expect(rows.map(\.kind) == Self.expected.map(\.kind))
        for c in Self.expected {
            let json = Self.folder.appendingPathComponent("json/\(c.name).json").path
            let bytes = (try? FileManager.default.attributesOfItem(atPath: json)[.size] as? Int) ?? 0
            #expect(bytes > 0, "\(json) is missing or empty")
        }
    }

    /// The replay's summary, and whether it left a jump uncounted (a `discontinuity` event
    /// with `counted: false`).
    func replay(_ c: Capture, tripMode: String = "auto") throws -> (summary: [String: Any], uncountedJump: Bool) {
        let config = try ExecutableRunner.temporaryFile(
            "capture-\(c.name)-\(tripMode).conf", contents: "trip_mode = \(tripMode)\n")
        let r = try ExecutableRunner.run([
            "replay", "--config", config, Self.folder.appendingPathComponent("json/\(c.name).json").path,
        ])
        #expect(r.status == 0)
        let lines = r.lines.compactMap(ExecutableRunner.json)
        let uncounted = lines.contains { $0["event"] as? String == "discontinuity" && $0["counted"] as? Bool == false }
        return (try #require(lines.last?["summary"] as? [String: Any]), uncounted)
    }

    func summary(_ c: Capture) throws -> [String: Any] { try replay(c).summary }

    @Test(arguments: expected.map(\.name))
    func replaysEveryCaptureSanely(_ name: String) throws {
        let c = try Self.capture(name)
        // The odometer itself: one manual trip over the whole capture.
        let (s, uncountedJump) = try replay(c, tripMode: "manual")
        let traveled = try #require(s["traveled_m"] as? Double)
        let straight = try #require(s["straight_line_m"] as? Double)
        // An uncounted jump moves the position without adding to the traveled distance.
        #expect(uncountedJump || straight <= traveled + 0.01, "triangle inequality")
        #expect(s["lines_malformed"] as? Int == 0, "gpsd 3.22's own output is never malformed")
        if c.kind == "STATIONARY" {
            // Standing still: at most 15 m, the target for a parked receiver, also for the
            // receivers whose positions jump by tens of metres (quectel-eg25-g, whose
            // accuracy-filtered naive sum is 343.6 m).
            #expect(traveled <= 15, "\(c.name): \(traveled) m while standing")
            // Automatic trips: a receiver standing still makes none, however it jumps.
            let auto = try replay(c).summary
            #expect(
                auto["trips"] as? Int == 0 && auto["traveled_m"] as? Double == 0,
                "\(c.name): \(auto["trips"] ?? "?") trips")
        }
    }

    @Test
    func boatTrackMatchesTheFilteredDistance() throws {
        // bundg_zeus_9: a boat at ~3 m/s on a nearly straight course; the 10 m-filtered sum
        // of its 148 epochs is 422.1 m (curated.tsv).
        let boat = try Self.capture("bundg_zeus_9")
        #expect(boat.kind == "MOVING" && boat.filteredNaiveM == 422.1)
        let s = try summary(boat)
        let traveled = try #require(s["traveled_m"] as? Double)
        #expect(abs(traveled / 422.1 - 1) < 0.05)
        #expect(s["fixes_total"] as? Int ?? 0 <= 151, "148 epochs and 3 timeless TPVs, not 2,484 TPVs")
    }
}
