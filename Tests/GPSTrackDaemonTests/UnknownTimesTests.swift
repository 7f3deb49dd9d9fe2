import Foundation
import Testing
import GPSTrackCore
@testable import GPSTrackDaemon

/// No timestamp is printed for a time that is not known; the tools answer -h and --version.
@Suite(.serialized)
struct UnknownTimesTests {

    /// A trip row that never started and was ended before any fix (`endTrip(at: nil)` marks it
    /// with 0): the history answers null for both times, not 1970.
    @Test func aTripThatNeverStartedHasNoTimes() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-unknown-times-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = Store(directory: dir, journal: Journal(target: .stderr))
        let row = Store.EventRow(seq: 1, time: nil, event: "fix_lost", fence: nil, json: #"{"event":"fix_lost","seq":1}"#)
        #expect(store.commit(events: [row], trip: Trip(), fences: [:], points: []))
        store.endTrip(at: nil)
        let trips = store.trips()
        #expect(trips.count == 1)
        #expect(trips.allSatisfy { $0.startedAt == nil && $0.endedAt == nil }, "\(trips.map { ($0.startedAt, $0.endedAt) })")
    }

    /// The same through the daemon and gpstrackctl: whatever trips exist, none shows 1970, and
    /// a trip without a start shows "-" in the table.
    @Test(.needs(.journal)) func theTripsTableShowsDashes() throws {
        try LiveHarness.ensureJournald()
        let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(LiveHarness.freePort())"])
        defer { _ = daemon.stop() }
        try LiveHarness.waitFor("the control socket", timeout: 20) { FileManager.default.fileExists(atPath: daemon.socketPath) }
        for _ in 0..<2 {
            let r = try ControlSocketTests.run(["--socket", daemon.socketPath, "start"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let json = try ControlSocketTests.run(["--socket", daemon.socketPath, "--json", "trips"])
        let trips = try #require(ExecutableRunner.json(json.stdout)?["trips"] as? [[String: Any]])
        for t in trips where t["started_at"] is NSNull {
            #expect(t["ended_at"] is NSNull, "\(t)")
        }
        #expect(!json.stdout.contains("1970"))
        let table = try ControlSocketTests.run(["--socket", daemon.socketPath, "trips"])
        #expect(table.status == 0 && table.lines.first?.hasPrefix("ID") == true)
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
