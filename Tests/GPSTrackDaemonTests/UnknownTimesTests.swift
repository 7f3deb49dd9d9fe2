import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

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
        let row = Store.EventRow(
            seq: 1, time: nil, event: "fix_lost", fence: nil, json: #"{"event":"fix_lost","seq":1}"#)
        #expect(store.commit(events: [row], trip: Trip(), fences: [:], points: []))
        store.endTrip(at: nil)
        let trips = store.trips()
        #expect(trips.count == 1)
        #expect(
            trips.allSatisfy { $0.startedAt == nil && $0.endedAt == nil }, "\(trips.map { ($0.startedAt, $0.endedAt) })"
        )
    }

    /// The same through the daemon and gpstrackctl: the manual counter's trips (the table of
    /// stored trips), two of them ended by `start` before any fix. Neither shows 1970: both show
    /// null in the JSON and "-" for START and END in the table.
    @Test(.needs(.journal)) func theTripsTableShowsDashes() throws {
        try LiveHarness.ensureJournald()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(LiveHarness.freePort())"],
            extraConfig: "trip_mode = manual\n")
        defer { _ = daemon.stop() }
        try LiveHarness.waitFor("the control socket", timeout: 20) {
            FileManager.default.fileExists(atPath: daemon.socketPath)
        }
        for _ in 0..<3 {
            let r = try ControlSocketTests.run(["--socket", daemon.socketPath, "start"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let json = try ControlSocketTests.run(["--socket", daemon.socketPath, "--json", "trips"])
        let trips = try #require(ExecutableRunner.json(json.stdout)?["trips"] as? [[String: Any]])
        let timeless = trips.filter { $0["started_at"] is NSNull && $0["ended_at"] is NSNull }.compactMap {
            $0["id"] as? Int
        }
        #expect(timeless.count >= 2, "the trips ended by the 2nd and 3rd start, before any fix: \(trips)")
        #expect(!json.stdout.contains("1970"))
        let table = try ControlSocketTests.run(["--socket", daemon.socketPath, "trips"])
        #expect(
            table.status == 0 && table.lines.first?.hasPrefix("ID  STATE     START") == true,
            "the stored trips' table: \(table.stdout)")
        #expect(!table.stdout.contains("1970"))
        // ID, STATE, START, END, ...: each timeless trip's row shows "-" for both times.
        let rows = Dictionary(
            table.lines.dropFirst().map { $0.split(separator: " ").map(String.init) }.compactMap { f in
                Int(f.first ?? "").map { ($0, f) }
            }, uniquingKeysWith: { a, _ in a })
        for id in timeless {
            let row = try #require(rows[id], "trip \(id) in the table: \(table.stdout)")
            #expect(row.count > 3 && row[2] == "-" && row[3] == "-", "trip \(id): \(row)")
        }
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
