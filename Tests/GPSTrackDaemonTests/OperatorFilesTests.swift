import Foundation
import GPSTrackProtocol
import Testing

/// The operator's half shipped beside the metrics: the alerting rules pass Prometheus' own
/// checks and unit tests, and every gpstrackd series the rules and the Grafana dashboard use is
/// one the daemon writes.
@Suite struct OperatorFilesTests {
    static let contrib = ExecutableRunner.packageRoot.appendingPathComponent("contrib").path
    static let rules = contrib + "/prometheus/gpstrackd-alerts.yml"
    static let dashboard = contrib + "/grafana/gpstrackd-dashboard.json"

    /// Every family a status with all its parts renders.
    static var families: Set<String> {
        var s = StatusReply()
        s.fix = StatusReply.FixStatus()
        s.fix?.eph = 3
        s.fix?.ageS = 1
        s.motion = StatusReply.MotionStatus(state: "moving", since: nil)
        var g = GuardStatus()
        g.state = "armed"
        s.guard = g
        var m = StatusReply.MQTTStatus()
        m.lastSuccess = "2026-03-14T08:00:00.000Z"
        s.mqtt = m
        s.steps = PedometerStatus()
        s.tripsTotal = 0
        s.clockOffsetS = 0
        var sky = StatusReply.SkyStatus()
        (sky.satellitesUsed, sky.satellitesSeen, sky.hdop) = (1, 1, 1)
        s.sky = sky
        let text = Metrics.render(s, now: 0)
        return Set(
            text.split(separator: "\n").compactMap { line in
                line.hasPrefix("# TYPE ") ? line.split(separator: " ")[2].description : nil
            })
    }

    static func seriesNamed(in text: String) -> Set<String> {
        var names = Set<String>()
        var rest = Substring(text)
        while let r = rest.range(of: "gpstrackd_") {
            let name = rest[r.lowerBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            // gpstrackd_* in a file name (the textfile collector's) is not a series.
            if !rest[r.lowerBound...].dropFirst(name.count).hasPrefix(".") { names.insert(String(name)) }
            rest = rest[r.upperBound...]
        }
        return names
    }

    @Test(.needs(.tool("/usr/bin/promtool", package: "prometheus")))
    func theRulesPassPromtoolsCheckAndTheirUnitTests() throws {
        let check = try ExecutableRunner.run(["check", "rules", Self.rules], executable: "/usr/bin/promtool")
        #expect(check.status == 0 && check.stdout.contains("SUCCESS: 8 rules found"), "\(check.stdout)\(check.stderr)")
        let test = try ExecutableRunner.run(
            ["test", "rules", Self.contrib + "/prometheus/gpstrackd-alerts.test.yml"],
            executable: "/usr/bin/promtool")
        #expect(test.status == 0 && test.stdout.contains("SUCCESS"), "\(test.stdout)\(test.stderr)")
    }

    @Test func theRulesAndTheDashboardUseOnlySeriesTheDaemonWrites() throws {
        let families = Self.families
        // The families a family name stands for: a counter's samples end in _total.
        let known = families.union(families.map { $0 + "_total" })
        let rules = try String(contentsOfFile: Self.rules, encoding: .utf8)
        let board = try String(contentsOfFile: Self.dashboard, encoding: .utf8)
        let used = Self.seriesNamed(in: rules).union(Self.seriesNamed(in: board))
        #expect(used.count >= 10, "the files name the series: \(used.sorted())")
        #expect(used.subtracting(known).isEmpty, "not written by the daemon: \(used.subtracting(known).sorted())")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(board.utf8)) as? [String: Any])
        let panels = try #require(json["panels"] as? [[String: Any]])
        #expect(panels.count >= 8)
        for p in panels {
            let targets = p["targets"] as? [[String: Any]] ?? []
            #expect(
                !targets.isEmpty && targets.allSatisfy { ($0["expr"] as? String)?.contains("gpstrackd_") == true },
                "panel \(p["title"] ?? "?") queries gpstrackd's series")
        }
    }
}
