import Foundation
import Testing
import GPSTrackCore

/// No timestamp is printed for a time that is not known; the tools answer -h and --version.
@Suite(.serialized, .enabled(if: LiveHarness.available, "gpsd, gpsd-clients and systemd are installed by `make test`"))
struct UnknownTimesTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func aTripThatNeverStartedHasNoTimes() throws {
        // No gpsd answers: not a single fix, and two trips counted anew.
        let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(LiveHarness.freePort())"])
        defer { _ = daemon.stop() }
        try LiveHarness.waitFor("the control socket", timeout: 20) { FileManager.default.fileExists(atPath: daemon.socketPath) }
        for _ in 0..<2 {
            let r = try ControlSocketTests.run(["--socket", daemon.socketPath, "start"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let json = try ControlSocketTests.run(["--socket", daemon.socketPath, "--json", "trips"])
        let trips = try #require(ExecutableRunner.json(json.stdout)?["trips"] as? [[String: Any]])
        #expect(trips.count >= 2)
        for t in trips {
            #expect(t["started_at"] is NSNull, "\(t)")
            #expect(t["ended_at"] is NSNull, "\(t)")
            #expect(t["duration_s"] == nil || t["duration_s"] is NSNull, "\(t)")
        }
        #expect(!json.stdout.contains("1970"))
        let table = try ControlSocketTests.run(["--socket", daemon.socketPath, "trips"])
        let rows = table.lines.dropFirst()
        #expect(rows.count == trips.count)
        for row in rows {
            let cells = row.split(separator: " ", omittingEmptySubsequences: true)
            #expect(cells.count >= 4 && cells[2] == "-" && cells[3] == "-", "\(row)")
        }
        #expect(!table.stdout.contains("1970"))
    }

    @Test func helpAndVersionExitZero() throws {
        for args in [["-h"], ["--help"]] {
            let r = try ControlSocketTests.run(args)
            #expect(r.status == 0 && r.stdout.hasPrefix("usage: gpstrackctl"), "\(args)")
        }
        let v = try ControlSocketTests.run(["--version"])
        #expect(v.status == 0 && v.stdout.hasPrefix("gpstrackctl ") && v.stdout.split(separator: " ").count == 2)
        let d = try ExecutableRunner.run(["-h"])
        #expect(d.status == 0 && d.stdout.hasPrefix("usage: gpstrackd"))
        let bad = try ControlSocketTests.run(["--frobnicate"])
        #expect(bad.status == 64)
    }
}
