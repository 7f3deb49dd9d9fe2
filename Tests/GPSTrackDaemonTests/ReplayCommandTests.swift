import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// `gpstrackd replay` end to end through the built executable.
@Suite(.serialized) struct ReplayCommandTests {
    /// A walk written as gpspipe would record it, with SKY lines, per-sentence partial TPVs and
    /// two malformed lines (at known line numbers).
    static func walkLog() throws -> (path: String, trace: SimulatedTrace, malformedLines: [Int]) {
        var model = ReceiverModel()
        model.partialTPVs = true
        var rng = SeededRandom(seed: 21)
        let trace = Simulator.run(.walk(lengthM: 1000, rng: &rng), model: model, seed: 21)
        var lines = GPSDLogWriter.header
        var malformed: [Int] = []
        for (i, fix) in trace.fixes.enumerated() {
            lines.append(GPSDLogWriter.tpv(fix))
            if i % 50 == 0, let t = fix.time { lines.append(GPSDLogWriter.sky(time: t)) }
            if i == 100 || i == 400 {
                lines.append(#"{"class":"TPV","mode":3,"lat":48.85"#)
                malformed.append(lines.count)
            }
        }
        let path = try ExecutableRunner.temporaryFile("walk.json", contents: lines.joined(separator: "\n") + "\n")
        return (path, trace, malformed)
    }

    @Test func replaysALogToEventsAndSummary() throws {
        let (path, trace, malformed) = try Self.walkLog()
        let r = try ExecutableRunner.run(["replay", path])
        #expect(r.status == 0)
        let lines = r.lines
        // The first accepted fix's fix_acquired, with the first sequence number, then the trip.
        let first = try #require(ExecutableRunner.json(lines.first ?? ""))
        #expect(first["event"] as? String == "fix_acquired" && first["seq"] as? Int == 1)
        let second = try #require(ExecutableRunner.json(lines.dropFirst().first ?? ""))
        #expect(second["event"] as? String == "trip_start" && second["time"] as? String == first["time"] as? String)
        let summaryLine = try #require(ExecutableRunner.json(lines.last ?? ""))
        let summary = try #require(summaryLine["summary"] as? [String: Any])
        let traveled = try #require(summary["traveled_m"] as? Double)
        let truth = try GeodSolveTruth.lengths([trace.truth])[0]
        #expect(abs(traveled / truth - 1) <= 0.03, "traveled \(traveled) vs GeodSolve \(truth)")
        // One fix per simulated second, whatever the number of TPVs per epoch.
        #expect(summary["fixes_total"] as? Int == trace.truth.count)
        #expect(summary["tpv_total"] as? Int == trace.fixes.count)
        #expect(summary["lines_malformed"] as? Int == 2)
        let rejected = try #require(summary["fixes_rejected"] as? [String: Int])
        let noFix = trace.fixes.filter { $0.mode < 2 }.count
        #expect(rejected["no_fix"] == noFix)
        #expect(rejected["duplicate"] == nil)
        let start = try #require(summary["start"] as? [String: Any])
        #expect(start["time"] as? String != nil)
        for n in malformed {
            #expect(r.stderr.contains("walk.json:\(n): malformed line skipped"))
        }
    }

    @Test func readsStandardInput() throws {
        let (path, _, _) = try Self.walkLog()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let fromFile = try ExecutableRunner.run(["replay", path])
        let fromStdin = try ExecutableRunner.run(["replay", "-"], stdin: data)
        #expect(fromStdin.status == 0)
        #expect(fromStdin.lines.last == fromFile.lines.last)
    }

    @Test func flagsOverrideTheConfigFile() throws {
        let (path, _, _) = try Self.walkLog()
        let conf = try ExecutableRunner.temporaryFile(
            "c.conf", contents: "distance_filter_m = 50\nmax_horizontal_error_m = 40\n")
        let coarse = try ExecutableRunner.run(["replay", "--config", conf, path])
        let fine = try ExecutableRunner.run(["replay", "--config", conf, "--distance-filter", "10", path])
        let delivered = { (r: ExecutableRunner.Result) -> Int in
            let s = ExecutableRunner.json(r.lines.last ?? "")?["summary"] as? [String: Any]
            return s?["fixes_delivered"] as? Int ?? -1
        }
        #expect(coarse.status == 0 && fine.status == 0)
        // 1 km walked: about 20 deliveries 50 m apart, about 100 at 10 m.
        #expect((15...22).contains(delivered(coarse)))
        #expect((80...101).contains(delivered(fine)))
    }

    @Test func exitCodes() throws {
        #expect(try ExecutableRunner.run(["replay"]).status == 64)
        #expect(try ExecutableRunner.run(["replay", "--bogus", "x"]).status == 64)
        #expect(try ExecutableRunner.run(["replay", "--distance-filter", "-3", "x"]).status == 64)
        #expect(try ExecutableRunner.run(["frobnicate"]).status == 64)
        let missing = try ExecutableRunner.run(["replay", "/nonexistent/log.json"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/log.json"))
        let conf = try ExecutableRunner.temporaryFile("bad.conf", contents: "# ok\ndistance_filter_m = 10\nwat = 1\n")
        let bad = try ExecutableRunner.run(["replay", "--config", conf, "/nonexistent"])
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("bad.conf:3: unknown key 'wat'"))
        let help = try ExecutableRunner.run(["replay", "--help"])
        #expect(help.status == 0 && help.stdout.contains("usage: gpstrackd replay"))
    }

    @Test func hostileInputNeverCrashes() throws {
        var junk = "\u{0}\u{1}{{{{\n" + String(repeating: "x", count: 200_000) + "\n"
        junk += #"{"class":"TPV","mode":3,"time":"2026-03-14T08:02:38.000Z","lat":1e999,"lon":-1e999}"# + "\n"
        junk += #"{"class":"TPV","mode":99,"time":"2026-03-14T08:02:39.000Z","lat":91,"lon":0}"# + "\n"
        junk += #"{"class":"TPV","mode":3,"time":"9999-99-99T99:99:99Z","lat":10,"lon":10}"# + "\n"
        junk += "no newline at the end"
        let path = try ExecutableRunner.temporaryFile("junk.json", contents: junk)
        let r = try ExecutableRunner.run(["replay", path])
        #expect(r.status == 0)
        let summary = ExecutableRunner.json(r.lines.last ?? "")?["summary"] as? [String: Any]
        #expect(summary?["fixes_accepted"] as? Int == 0)
        #expect(summary?["lines_malformed"] as? Int == 3)
    }

    @Test func fencesProduceSequencedEventsAndCounts() throws {
        let root = ExecutableRunner.packageRoot
        let r = try ExecutableRunner.run([
            "replay", "--fences", root.appendingPathComponent("config/fences.geojson").path,
            root.appendingPathComponent("samples/walk-and-drive.gpsd.json").path,
        ])
        #expect(r.status == 0)
        let objects = r.lines.compactMap(ExecutableRunner.json)
        let events = objects.filter { $0["event"] != nil }
        let seqs = events.compactMap { $0["seq"] as? Int }
        #expect(seqs.count == events.count && seqs == Array(1...seqs.count))
        let kinds = Set(events.compactMap { $0["event"] as? String })
        #expect(kinds.isSuperset(of: ["enter", "exit", "dwell", "fences_determined"]))
        // Fences found outside are counted, never reported one by one (issue 11).
        #expect(!events.contains { $0["event"] as? String == "state" && $0["state"] as? String == "outside" })
        let determined = try #require(events.first { $0["event"] as? String == "fences_determined" })
        let total = ["inside", "outside", "unknown"].compactMap { determined[$0] as? Int }.reduce(0, +)
        #expect(total == 3, "config/fences.geojson has three fences")
        let enter = try #require(events.first { $0["event"] as? String == "enter" })
        #expect(enter["fence"] as? String == "gate" && enter["name"] as? String == "Brandenburg Gate")
        #expect(enter["lat"] is Double && enter["lon"] is Double && enter["time"] is String)
        let summary = try #require(objects.last?["summary"] as? [String: Any])
        let counts = try #require(summary["events"] as? [String: Int])
        #expect(counts["enter"] == events.filter { $0["event"] as? String == "enter" }.count)
        #expect(counts["dwell"] == 1)
    }

    @Test func badFencesFileExits78NamingTheFeature() throws {
        let fences = try ExecutableRunner.temporaryFile(
            "bad.geojson",
            contents: """
                {"type":"FeatureCollection","features":[
                 {"type":"Feature","id":"ok","properties":{"radius":10},"geometry":{"type":"Point","coordinates":[8,47]}},
                 {"type":"Feature","id":"bow","geometry":{"type":"Polygon","coordinates":[[[8,47],[8.1,47.1],[8.1,47],[8,47.1],[8,47]]]}}]}
                """)
        let (log, _, _) = try Self.walkLog()
        let r = try ExecutableRunner.run(["replay", "--fences", fences, log])
        #expect(r.status == 78)
        #expect(r.stderr.contains("bad.geojson: feature 1 (id \"bow\"): invalid polygon: Self-intersection"))
        #expect(r.stdout.isEmpty)
    }

    @Test func aCorridorWithoutAWidthExits78NamingTheFeature() throws {
        let fences = try ExecutableRunner.temporaryFile(
            "corridor.geojson",
            contents: """
                {"type":"FeatureCollection","features":[
                 {"type":"Feature","id":"route","properties":{"width_m":50},"geometry":{"type":"LineString","coordinates":[[8,47],[8.1,47]]}},
                 {"type":"Feature","id":"detour","properties":{},"geometry":{"type":"MultiLineString","coordinates":[[[8,47],[8.1,47.1]]]}}]}
                """)
        let (log, _, _) = try Self.walkLog()
        let r = try ExecutableRunner.run(["replay", "--fences", fences, log])
        #expect(r.status == 78)
        #expect(
            r.stderr.contains(
                "corridor.geojson: feature 1 (id \"detour\"): a MultiLineString fence (corridor) needs properties.width_m"
            ))
        #expect(r.stdout.isEmpty)
    }
}
