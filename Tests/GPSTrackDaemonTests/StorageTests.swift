import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Durable history against a real SQLite file, a real gpsd (gpsfake) and the built daemon.
@Suite(.serialized, .needsLiveParts)
struct StorageTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// Runs the daemon over a whole feed; with `killAfter`, SIGKILLs it once that event is
    /// logged and starts it again on the same state directory. Returns the last daemon (still
    /// running, the feed over) and the first one.
    static func run(_ trace: SimulatedTrace, name: String, killAfter: String? = nil) throws
        -> (LiveHarness.DaemonProcess, LiveHarness.DaemonProcess, LiveHarness.Feed)
    {
        let log = try LiveHarness.nmeaFile("\(name).nmea", fixes: trace.fixes, padding: 400)
        let fences = try LiveDaemonTests.fencesFile("\(name).geojson")
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port, cycle: 0.01)
        let first = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(port)", "--fences", fences])
        guard let killAfter else {
            try first.waitFor("gpsd_lost", containing: "no report", timeout: 90)
            return (first, first, feed)
        }
        try first.waitFor(killAfter, timeout: 90)
        first.signal(SIGKILL)
        first.process.waitUntilExit()
        let second = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(port)", "--fences", fences],
            stateDirectory: first.stateDirectory)
        try second.waitFor("gpsd_lost", containing: "no report", timeout: 90)
        return (second, first, feed)
    }

    @Test func sigkillMidRunLosesNothingReported() throws {
        let trace = LiveDaemonTests.walk(seconds: 300, seed: 11)
        let (whole, _, feedA) = try Self.run(trace, name: "whole")
        defer { feedA.stop() }
        let wholeStatus = try #require(try SocketClient(path: whole.socketPath).request(#"{"cmd":"status"}"#))
        let (after, before, feedB) = try Self.run(trace, name: "killed", killAfter: "enter")
        defer { feedB.stop() }
        let client = try SocketClient(path: after.socketPath)
        let status = try #require(client.request(#"{"cmd":"status"}"#))
        let a = try #require((wholeStatus["trip"] as? [String: Any])?["traveled_m"] as? Double)
        let b = try #require((status["trip"] as? [String: Any])?["traveled_m"] as? Double)
        // At risk: one batch of track points (5 s of fix time, 7 m at 1.4 m/s) and a filter step.
        #expect(abs(a - b) < 20, "uninterrupted \(a) m, killed and restarted \(b) m")
        let restored = try after.entries("restored")
        #expect(restored.count == 1)
        // The fix counters carry on from what was committed before the kill.
        let restoredTotal = Int(restored.first?["GPSTRACK_FIXES_TOTAL"] as? String ?? "") ?? 0
        let finalTotal = try #require((status["counters"] as? [String: Any])?["fixes_total"] as? Int)
        #expect(
            restoredTotal > 0 && finalTotal > restoredTotal, "restored \(restoredTotal) fixes, \(finalTotal) at the end"
        )

        // Events: every one stored once, in growing sequence; one enter and one exit in all.
        let events = try #require(client.request(#"{"cmd":"events"}"#)?["events"] as? [[String: Any]])
        let seqs = events.compactMap { $0["seq"] as? Int }
        #expect(seqs.count == events.count && seqs == seqs.sorted() && Set(seqs).count == seqs.count)
        #expect(events.filter { $0["event"] as? String == "enter" }.count == 1)
        #expect(events.filter { $0["event"] as? String == "exit" }.count == 1)
        #expect(
            try before.entries("enter").count == 1 && after.entries("enter").isEmpty,
            "no second enter after the restart")
        let firstSeqAfter =
            try after.entries().filter { $0["GPSTRACK_EVENT"] as? String != "restored" }
            .compactMap { Int($0["GPSTRACK_SEQ"] as? String ?? "") }.min() ?? 0
        let lastSeqBefore = try before.entries().compactMap { Int($0["GPSTRACK_SEQ"] as? String ?? "") }.max() ?? 0
        #expect(firstSeqAfter > lastSeqBefore, "sequence numbers carry on")

        // GPX of the trip, read back by real consumers.
        let trips = try #require(client.request(#"{"cmd":"trips"}"#)?["trips"] as? [[String: Any]])
        #expect(trips.count == 1)
        let export = try ControlSocketTests.run(["--socket", after.socketPath, "export", "--gpx", "--trip", "1"])
        #expect(export.status == 0)
        let gpx = try ExecutableRunner.temporaryFile("trip.gpx", contents: export.stdout)
        #expect(try Self.tool("/usr/bin/xmllint", ["--noout", gpx]).0 == 0)
        // The track points alone: the document has the stops and events as waypoints too.
        let (rc, csv) = try Self.tool(
            "/usr/bin/gpsbabel", ["-i", "gpx", "-f", gpx, "-x", "nuketypes,waypoints", "-o", "csv", "-F", "-"])
        #expect(rc == 0)
        let delivered = try #require((status["counters"] as? [String: Any])?["fixes_delivered"] as? Int)
        let stored = csv.split(separator: "\n").count  // one line per point, no header
        // The restarted daemon delivered `delivered`; the stored trip holds those and the
        // points committed before the kill.
        let xmlPoints = export.stdout.components(separatedBy: "<trkpt ").count - 1
        #expect(stored == xmlPoints, "gpsbabel read \(stored) of \(xmlPoints) points")
        #expect(
            stored >= delivered && stored > 10,
            "gpsbabel read \(stored) points; the restarted daemon delivered \(delivered)")
        #expect(after.stop() == 0 && whole.stop() == 0)
    }

    static func tool(_ path: String, _ args: [String]) throws -> (Int32, String) {
        let r = try ExecutableRunner.run(args, executable: path)
        return (r.status, r.stdout)
    }

    @Test(arguments: ["garbage", "truncated"])
    func aDamagedDatabaseIsMovedAside(_ damage: String) throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-damaged-\(damage)-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let db = dir + "/gpstrackd.db"
        if damage == "garbage" {
            try Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: db))
        } else {
            // A real database, cut in half.
            let healthy = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"], stateDirectory: dir)
            try healthy.waitFor("started", timeout: 20)
            _ = try SocketClient(path: healthy.socketPath).request(#"{"cmd":"stop"}"#)
            #expect(healthy.stop() == 0)
            let data = try Data(contentsOf: URL(fileURLWithPath: db))
            try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: db))
            try? FileManager.default.removeItem(atPath: db + "-wal")
        }
        let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"], stateDirectory: dir)
        try daemon.waitFor("started", timeout: 20)
        let status = try #require(try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#))
        #expect((status["storage"] as? [String: Any])?["state"] as? String == "ok")
        let moved = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
            $0.hasPrefix("gpstrackd.db.corrupt-")
        }
        #expect(moved.count == 1, "moved aside, not deleted: \(moved)")
        #expect(try daemon.entries("storage_corrupt").count == 1)
        #expect(daemon.stop() == 0)
    }

    @Test(.needs(.root)) func aReadOnlyStateDirectoryDegradesAndSaysSo() throws {
        // The daemon runs as nobody; the state directory belongs to root (0755).
        let base = NSTemporaryDirectory() + "gpstrackd-ro-\(getpid())"
        try? FileManager.default.removeItem(atPath: base)
        try FileManager.default.createDirectory(atPath: base + "/state", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/run", withIntermediateDirectories: true)
        chmod(base, 0o755)
        chmod(base + "/state", 0o755)
        chmod(base + "/run", 0o777)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        p.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", ExecutableRunner.binary, "--config", "/dev/null",
            "--gpsd", "127.0.0.1:1", "--log", "journal", "--state-dir", base + "/state", "--socket",
            base + "/run/s.sock",
        ]
        p.standardError = FileHandle.nullDevice
        let started = Date()
        try p.run()
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGTERM) }
            p.waitUntilExit()
        }
        try LiveHarness.waitFor("the control socket", timeout: 20) {
            FileManager.default.fileExists(atPath: base + "/run/s.sock")
        }
        let status = try #require(try SocketClient(path: base + "/run/s.sock").request(#"{"cmd":"status"}"#))
        let storage = try #require(status["storage"] as? [String: Any])
        #expect(storage["state"] as? String == "degraded")
        #expect((storage["reason"] as? String)?.contains("gpstrackd.db") == true)
        try LiveHarness.waitFor("the storage_degraded entry", timeout: 20) {
            try !LiveHarness.journal(
                ["_PID=\(p.processIdentifier)", "GPSTRACK_EVENT=storage_degraded"], since: started
            ).isEmpty
        }
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
    }
}
