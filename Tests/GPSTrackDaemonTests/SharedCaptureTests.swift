import Foundation
import Testing

/// Real receiver captures from gpsd's regression suite, in `../shared/gpsd-captures` beside the
/// checkout. These tests run only when that folder exists.
@Suite struct SharedCaptureTests {
    static let folder = ExecutableRunner.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/gpsd-captures")
    static let available = FileManager.default.fileExists(atPath: folder.appendingPathComponent("curated.tsv").path)

    struct Capture: Sendable, CustomTestStringConvertible {
        var name: String
        var kind: String
        /// The curated table's traveled distance after a 10 m filter and a 50 m eph cut.
        var filteredNaiveM: Double
        var testDescription: String { name }
    }

    static var captures: [Capture] {
        guard available, let text = try? String(contentsOf: folder.appendingPathComponent("curated.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count > 9, ["STATIONARY", "MOVING"].contains(f[1]), let naive = Double(f[9]) else { return nil }
            return Capture(name: f[0], kind: f[1], filteredNaiveM: naive)
        }
    }

    /// The replay's summary, and whether it left a jump uncounted (a `discontinuity` event
    /// with `counted: false`).
    func replay(_ c: Capture, tripMode: String = "auto") throws -> (summary: [String: Any], uncountedJump: Bool) {
        let config = try ExecutableRunner.temporaryFile("capture-\(c.name)-\(tripMode).conf", contents: "trip_mode = \(tripMode)\n")
        let r = try ExecutableRunner.run(["replay", "--config", config, Self.folder.appendingPathComponent("json/\(c.name).json").path])
        #expect(r.status == 0)
        let lines = r.lines.compactMap(ExecutableRunner.json)
        let uncounted = lines.contains { $0["event"] as? String == "discontinuity" && $0["counted"] as? Bool == false }
        return (try #require(lines.last?["summary"] as? [String: Any]), uncounted)
    }

    func summary(_ c: Capture) throws -> [String: Any] { try replay(c).summary }

    @Test(.enabled(if: available), arguments: captures)
    func replaysEveryCaptureSanely(_ c: Capture) throws {
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
            #expect(auto["trips"] as? Int == 0 && auto["traveled_m"] as? Double == 0, "\(c.name): \(auto["trips"] ?? "?") trips")
        }
    }

    @Test(.enabled(if: available))
    func boatTrackMatchesTheFilteredDistance() throws {
        // bundg_zeus_9: a boat at ~3 m/s on a nearly straight course; the 10 m-filtered sum
        // of its 148 epochs is 422.1 m (curated.tsv).
        let s = try summary(Capture(name: "bundg_zeus_9", kind: "MOVING", filteredNaiveM: 422.1))
        let traveled = try #require(s["traveled_m"] as? Double)
        #expect(abs(traveled / 422.1 - 1) < 0.05)
        #expect(s["fixes_total"] as? Int ?? 0 <= 151, "148 epochs and 3 timeless TPVs, not 2,484 TPVs")
    }
}
