import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The live daemon against real parts: gpsd fed by gpsfake, systemd-journald, the built binary.
@Suite(.serialized, .needsLiveParts)
struct LiveDaemonTests {
    static let base = Coordinate(latitude: 47.3769, longitude: 8.5417)
    static let enterID = "0a71d53a713d4db5b432af356eec29da"

    init() throws {
        try LiveHarness.ensureJournald()
    }

    /// A walk east from `base` at 1.4 m/s, and a fences file with a 60 m circle 150 m along it.
    static func walk(seconds: Int, seed: UInt64) -> SimulatedTrace {
        let scenario = Scenario(
            name: "east", start: base, steps: Array(repeating: .init(speed: 1.4, heading: 90), count: seconds))
        var model = ReceiverModel()
        model.lyingJumpProbability = 0
        return Simulator.run(scenario, model: model, seed: seed)
    }

    static func fencesFile(_ name: String, extra: String = "") throws -> String {
        let center = Geodesic.destination(from: base, azimuth: 90, distance: 150)
        return try ExecutableRunner.temporaryFile(
            name,
            contents: """
                {"type":"FeatureCollection","features":[{"type":"Feature","id":"ring",
                 "properties":{"name":"Ring road","radius":60},
                 "geometry":{"type":"Point","coordinates":[\(center.longitude),\(center.latitude)]}}\(extra)]}
                """)
    }

    @Test func enterAndExitReachTheJournalWithTheirFields() throws {
        let trace = Self.walk(seconds: 230, seed: 1)
        let log = try LiveHarness.nmeaFile("walk1.nmea", fixes: trace.fixes, padding: 400)
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port)
        defer { feed.stop() }
        let gpsd = try TPVRecorder(port: port, file: try ExecutableRunner.temporaryFile("f1-tpv.txt", contents: ""))
        let daemon = try LiveHarness.DaemonProcess(arguments: [
            "--gpsd", "127.0.0.1:\(port)", "--fences", try Self.fencesFile("f1.geojson"),
        ])
        try daemon.waitFor("exit")
        // The feed is over when gpsd falls silent (no_data_timeout_s = 2).
        try daemon.waitFor("gpsd_lost", containing: "no report")
        #expect(daemon.stop() == 0)
        try daemon.waitFor("summary", timeout: 10)

        let enter = try #require(try daemon.entries("enter").first)
        #expect(enter["GPSTRACK_FENCE"] as? String == "ring")
        #expect(enter["GPSTRACK_FENCE_NAME"] as? String == "Ring road")
        #expect(enter["PRIORITY"] as? String == "5")
        #expect(enter["SYSLOG_IDENTIFIER"] as? String == "gpstrackd")
        #expect(enter["MESSAGE_ID"] as? String == Self.enterID)
        #expect((enter["MESSAGE"] as? String)?.contains("Ring road") == true)
        let exit = try #require(try daemon.entries("exit").first)
        // Hysteresis, live: entered at the first fix gpsd reported deep enough inside the 60 m
        // circle (hysteresis_m, 10 m, or the fix's eph when larger), left at the first far
        // enough outside; distances from the centre by GeodSolve.
        let center = Geodesic.destination(from: Self.base, azimuth: 90, distance: 150)  // as the fences file has it
        let reported = gpsd.fixes()
        func depth(at t: Int) throws -> (inside: Double, margin: Double)? {
            guard let f = reported[t], let lat = f["lat"] as? Double, let lon = f["lon"] as? Double else { return nil }
            let d = try GeodSolveTruth.distance(center, Coordinate(latitude: lat, longitude: lon))
            return (60 - d, max(10, f["eph"] as? Double ?? .infinity))
        }
        for (entry, entering) in [(enter, true), (exit, false)] {
            let t = Int(try #require(Timestamp.parse(entry["GPSTRACK_TIME"] as? String ?? "")).rounded(.down))
            let at = try #require(try depth(at: t), "gpsd reported no fix at \(entry["GPSTRACK_TIME"] ?? "-")")
            let lat = try #require(Double(entry["GPSTRACK_LAT"] as? String ?? ""))
            let d = try GeodSolveTruth.distance(
                center,
                Coordinate(latitude: lat, longitude: try #require(Double(entry["GPSTRACK_LON"] as? String ?? ""))))
            #expect(abs((60 - d) - at.inside) < 0.01, "the entry's position is that fix's")
            let before = try #require(try depth(at: t - 1), "gpsd reported no fix a second before \(t)")
            if entering {
                #expect(at.inside >= at.margin - 0.5, "entered \(at.inside) m inside, margin \(at.margin) m")
                #expect(
                    before.inside < before.margin + 0.5,
                    "the fix before was \(before.inside) m inside, margin \(before.margin) m: it would have entered")
            } else {
                #expect(-at.inside >= at.margin - 0.5, "left \(-at.inside) m outside, margin \(at.margin) m")
                #expect(
                    -before.inside < before.margin + 0.5,
                    "the fix before was \(-before.inside) m outside, margin \(before.margin) m: it would have left")
            }
        }
        let seqEnter = Int(enter["GPSTRACK_SEQ"] as? String ?? "") ?? -1
        let seqExit = Int(exit["GPSTRACK_SEQ"] as? String ?? "") ?? -1
        #expect(seqEnter > 0 && seqExit > seqEnter)
        #expect(try daemon.entries("enter").count == 1 && daemon.entries("exit").count == 1, "no flapping")

        let summary = try #require(try daemon.entries("summary").first)
        let traveled = try #require(Double(summary["GPSTRACK_TRAVELED_M"] as? String ?? ""))
        // The receiver fed to gpsd walked GeodSolve's length of the true path; the daemon may
        // miss a few epochs.
        let truth = try GeodSolveTruth.lengths([trace.truth])[0]
        #expect(traveled > 0.9 * truth && traveled < 1.05 * truth, "traveled \(traveled) vs GeodSolve \(truth)")
    }

    @Test func startsBeforeGpsdAndLogsTheOutageOnce() throws {
        let trace = Self.walk(seconds: 230, seed: 2)
        let log = try LiveHarness.nmeaFile("walk2.nmea", fixes: trace.fixes, padding: 400)
        let port = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(arguments: [
            "--gpsd", "127.0.0.1:\(port)", "--fences", try Self.fencesFile("f2.geojson"),
        ])
        try daemon.waitFor("gpsd_lost", timeout: 20)
        // Retries, seen: a listener that hangs up at once takes two more attempts (backoff 0.5,
        // 1, 2 s), each failing like the first, within the same outage; then gpsd comes.
        let accepted = try ExecutableRunner.temporaryFile("retries-\(port).txt", contents: "")
        let listener = try LiveHarness.hangingListener(port: port, file: accepted)
        defer {
            if listener.isRunning { listener.terminate() }
            listener.waitUntilExit()
        }
        try LiveHarness.waitFor("two more connection attempts", timeout: 30) {
            ((try? String(contentsOfFile: accepted, encoding: .utf8)) ?? "").split(separator: "\n").count >= 2
        }
        listener.terminate()
        listener.waitUntilExit()
        let feed = try LiveHarness.Feed(log: log, port: port)
        defer { feed.stop() }
        try daemon.waitFor("enter")
        #expect(try daemon.entries("gpsd_lost").count == 1, "one entry per outage, not per retry")
        #expect(try daemon.entries("gpsd_connected").count == 1)
        #expect(daemon.stop() == 0)
    }

    @Test func reconnectsAfterGpsdRestartAndTheTripGoesOn() throws {
        let trace = Self.walk(seconds: 400, seed: 3)
        let half = trace.fixes.count / 2
        let first = try LiveHarness.nmeaFile("walk3a.nmea", fixes: Array(trace.fixes[..<half]), padding: 400)
        let second = try LiveHarness.nmeaFile("walk3b.nmea", fixes: Array(trace.fixes[half...]), padding: 400)
        let port = LiveHarness.freePort()
        var feed = try LiveHarness.Feed(log: first, port: port)
        let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(port)"])
        // gpsd falls silent at the end of the first half; then it is killed, and another gpsd
        // started on the same port with the second half.
        try daemon.waitFor("trip_start")
        try daemon.waitFor("gpsd_lost", containing: "no report")
        feed.stop()
        feed = try LiveHarness.Feed(log: second, port: port)
        defer { feed.stop() }
        try daemon.waitFor("gpsd_connected", count: 2)
        try daemon.waitFor("gpsd_lost", containing: "no report", count: 2)
        #expect(daemon.stop() == 0)
        try daemon.waitFor("summary", timeout: 10)
        let summary = try #require(try daemon.entries("summary").first)
        let traveled = try #require(Double(summary["GPSTRACK_TRAVELED_M"] as? String ?? ""))
        let truth = try GeodSolveTruth.lengths([trace.truth])[0]
        #expect(
            traveled > 0.9 * truth && traveled < 1.05 * truth,
            "\(traveled) m of GeodSolve's \(truth) m: the trip went on across the restart")
        #expect(try daemon.entries("trip_start").count == 1)
    }

    @Test func reloadKeepsTheOldFencesWhenTheNewFileIsBad() throws {
        let fences = try Self.fencesFile("f4.geojson")
        let port = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(port)", "--fences", fences])
        try daemon.waitFor("started", timeout: 20)
        try "{ not json".write(toFile: fences, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitFor("fences_reload_failed", timeout: 20)
        let failure = try #require(try daemon.entries("fences_reload_failed").first)
        #expect((failure["MESSAGE"] as? String)?.contains("f4.geojson: not valid JSON") == true)
        // The old fences are in force: the daemon names the ring, as loaded at start...
        let reply = try #require(try SocketClient(path: daemon.socketPath).request(#"{"cmd":"fences"}"#))
        let inForce = try #require(reply["fences"] as? [[String: Any]], "\(reply)")
        #expect(inForce.map { $0["id"] as? String } == ["ring"], "\(inForce)")
        #expect(inForce.first?["name"] as? String == "Ring road")
        // ...and acts on it: a walk through the ring, fed after the refused reload, enters it.
        let trace = Self.walk(seconds: 150, seed: 4)
        let feed = try LiveHarness.Feed(
            log: try LiveHarness.nmeaFile("walk4.nmea", fixes: trace.fixes, padding: 400), port: port)
        defer { feed.stop() }
        try daemon.waitFor("enter")
        #expect(try daemon.entries("enter").map { $0["GPSTRACK_FENCE"] as? String } == ["ring"])
        _ = try Self.fencesFile(
            "f4.geojson",
            extra:
                #",{"type":"Feature","id":"two","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[8,47]}}"#
        )
        daemon.signal(SIGHUP)
        try daemon.waitFor("fences_reloaded", timeout: 20)
        #expect(try daemon.entries("fences_reloaded").first?["GPSTRACK_FENCES"] as? String == "2")
        #expect(daemon.stop() == 0)
    }
}

/// Startup errors and the unit file: no gpsd needed.
@Suite struct DaemonStartupTests {
    @Test func startupErrorsHaveTheirExitCodes() throws {
        let conf = try ExecutableRunner.temporaryFile(
            "d.conf", contents: "gpsd = localhost:2947\nmax_speed_mps = fast\n")
        let bad = try ExecutableRunner.run(["--config", conf])
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("d.conf:2: max_speed_mps: expected a number"))
        #expect(try ExecutableRunner.run(["--config", "/nonexistent.conf"]).status == 78)
        #expect(try ExecutableRunner.run(["--gpsd", "nowhere:port"]).status == 64)
        #expect(try ExecutableRunner.run(["--log", "loudly"]).status == 64)
        #expect(try ExecutableRunner.run(["--bogus"]).status == 64)
        let fences = try ExecutableRunner.temporaryFile("d.geojson", contents: #"{"type":"Feature"}"#)
        let refused = try ExecutableRunner.run(["--config", "/dev/null", "--fences", fences])
        #expect(refused.status == 78 && refused.stderr.contains("d.geojson: not a GeoJSON FeatureCollection"))
        let version = try ExecutableRunner.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("gpstrackd "))
        #expect(try ExecutableRunner.run(["--help"]).stdout.contains("--gpsd HOST:PORT"))
    }

    static let analyze = "/usr/bin/systemd-analyze"

    @Test(.needs(.tool(analyze, package: "systemd")))
    func unitVerifiesAndIsHardened() throws {
        let unit = try String(
            contentsOf: ExecutableRunner.packageRoot.appendingPathComponent("systemd/gpstrackd.service"),
            encoding: .utf8
        )
        .replacingOccurrences(of: "/usr/local/bin/gpstrackd", with: ExecutableRunner.binary)
        let path = try ExecutableRunner.temporaryFile("gpstrackd.service", contents: unit)
        // verify runs man on Documentation=: the pages as built from man/*.scd.
        let manpath = try ManPages.render().path + ":"
        func analyze(_ args: [String]) throws -> (Int32, String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Self.analyze)
            p.arguments = args
            p.environment = ProcessInfo.processInfo.environment.merging(["MANPATH": manpath]) { $1 }
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try p.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, text)
        }
        let (rc, text) = try analyze(["verify", path])
        #expect(rc == 0 && text.isEmpty, "\(text)")
        let (_, security) = try analyze(["security", "--offline=true", path])
        let line = try #require(security.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let score = try #require(line.split(separator: " ").compactMap { Double($0) }.first)
        #expect(score <= 2.0, "\(line)")
    }
}

/// sd_notify against a real datagram socket standing in for systemd's NOTIFY_SOCKET.
@Suite struct NotifyProtocolTests {
    @Test func readyStatusWatchdogAndStopping() throws {
        let notify = try NotifySocket("notify")
        let path = notify.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExecutableRunner.binary)
        process.arguments = [
            "--config", "/dev/null", "--gpsd", "127.0.0.1:\(LiveHarness.freePort())", "--log", "stderr",
            "--socket", path + ".control", "--state-dir", path + ".state",
        ]
        // WatchdogSec=2s, as systemd would pass it.
        process.environment = ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        var messages: [String] = []
        func receive(until: (String) -> Bool) throws {
            try LiveHarness.waitFor("a notification", timeout: 20) {
                guard let text = notify.receive() else { return false }
                messages.append(text)
                return until(text)
            }
        }
        try receive { $0.contains("READY=1") }
        try receive { $0.contains("WATCHDOG=1") }
        kill(process.processIdentifier, SIGTERM)
        try receive { $0.contains("STOPPING=1") }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(messages.contains { $0.hasPrefix("STATUS=") && $0.contains("waiting for gpsd") })
    }
}
