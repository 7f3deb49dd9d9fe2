import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The Traccar uplink (OsmAnd protocol) against a real HTTP server on loopback
/// (Tests/http/uplink_server.py), the daemon fed by gpsfake.
@Suite(.serialized, .needs([.gpsfake, .journal, .tool("/usr/bin/python3", package: "python3")]))
struct TraccarUplinkTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// The test server: every request a JSON line in `log`; `mode` says how it answers; `tls`
    /// (a certificate and key, and a CA for client certificates) makes it speak HTTPS.
    final class Server {
        let process = Process()
        let port: Int, log: String, modeFile: String
        init(port: Int, dir: String, mode: String? = nil, tls: [String] = []) throws {
            self.port = port
            log = dir + "/requests.jsonl"
            modeFile = dir + "/mode"
            if let mode { try self.mode(mode) }
            let script = ExecutableRunner.packageRoot.appendingPathComponent("Tests/http/uplink_server.py").path
            LiveHarness.unmasked(process, "/usr/bin/python3", [script, String(port), log, modeFile] + tls)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try LiveHarness.waitFor("the HTTP server", timeout: 20) { LiveHarness.onLoopback(port, connect) }
        }
        func mode(_ m: String) throws { try m.write(toFile: modeFile, atomically: true, encoding: .utf8) }
        /// Every request so far, with its query's fields.
        func requests() -> [(entry: [String: Any], fields: [String: String])] {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                guard let e = ExecutableRunner.json(String(line)) else { return nil }
                var fields: [String: String] = [:]
                for pair in (e["query"] as? String ?? "").split(separator: "&") {
                    let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    if kv.count == 2 { fields[kv[0]] = kv[1].removingPercentEncoding }
                }
                return (e, fields)
            }
        }
        /// The positions the server took (answered 200), in arrival order.
        func accepted() -> [[String: String]] { requests().filter { $0.entry["status"] as? Int == 200 }.map(\.fields) }
        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        deinit { stop() }
    }

    static func directory(_ name: String) throws -> String {
        let dir = NSTemporaryDirectory() + "gpstrackd-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A trace dated from now on: an uplink sends no fix a day away from the clock.
    static func now(_ trace: SimulatedTrace) -> [Fix] {
        let shift = Date().timeIntervalSince1970.rounded() - (trace.fixes.first?.time ?? 0)
        return trace.fixes.map {
            var f = $0
            f.time = f.time.map { $0 + shift }
            return f
        }
    }

    static func traccarStatus(_ daemon: LiveHarness.DaemonProcess) throws -> [String: Any] {
        let reply = try #require(try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#))
        return try #require((reply["uplinks"] as? [String: Any])?["traccar"] as? [String: Any], "status: \(reply)")
    }

    static func config(_ port: Int) -> String {
        "traccar_url = http://127.0.0.1:\(port)/\ntraccar_device_id = box 25\ntraccar_min_interval_s = 5\ntraccar_min_distance_m = 0\n"
    }

    /// A seeded day (two drives and a walk between parks): every position the server takes is
    /// a fix gpsd reported, with its fields by value; all arrive once, in order; the server
    /// stopped for ten minutes of the drive and back: nothing lost, nothing doubled.
    @Test func aSeededDayArrivesOnceInOrderAcrossAnOutage() throws {
        let dir = try Self.directory("traccar")
        let httpPort = LiveHarness.freePort()
        var server = try Server(port: httpPort, dir: dir, mode: "200")
        let day = DayScenario.make(
            seed: 25, firstDriveM: 4000, walkM: 400, secondDriveM: 3000, shortPark: 300, longPark: 600, lastPark: 200)
        let fixes = FixQuality.qualified(Self.now(Simulator.run(day.scenario, seed: 25)))
        let quality = FixQuality.byTime(fixes)
        // 10 s without a fix first: gpspipe (below) watches before the first fix.
        let log = try LiveHarness.nmeaFile(
            "traccar.nmea", fixes: fixes, padding: LiveHarness.epochs(lasting: 10, cycle: 0.002))
        let gpsPort = LiveHarness.freePort()
        // Every fix accepted (the parks' poor ones too), so that every 5 s of fixes has a position.
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"],
            extraConfig: Self.config(httpPort) + "max_horizontal_error_m = 10000\nassumed_error_m = 17\n")
        try daemon.waitFor("started")
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.002)
        defer { feed.stop() }
        let gpsd = try TPVRecorder(port: gpsPort, file: dir + "/tpv.txt")
        try LiveHarness.waitFor("20 positions", timeout: 120) { server.accepted().count >= 20 }
        server.stop()
        // Ten minutes of fix time at one position per 5 s: 120 wait in the outbox.
        try LiveHarness.waitFor("120 positions queued", timeout: 120) {
            (try Self.traccarStatus(daemon)["queued"] as? Int ?? 0) >= 120
        }
        let down = try Self.traccarStatus(daemon)
        #expect(down["connected"] as? Bool == false && (down["oldest_age_s"] as? Double ?? -1) >= 0, "\(down)")
        #expect((down["last_error"] as? String)?.isEmpty == false, "the refused connection is the last error: \(down)")
        try daemon.waitFor("uplink_lost", timeout: 30)
        let backAt = Date().timeIntervalSince1970
        server = try Server(port: httpPort, dir: dir)
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        try LiveHarness.waitFor("the outbox drained", timeout: 600) {
            try Self.traccarStatus(daemon)["queued"] as? Int == 0
        }
        try daemon.waitFor("uplink_recovered", timeout: 30)
        #expect(try daemon.entries("uplink_lost").count == 1, "one entry per outage")

        let positions = server.accepted()
        let times = positions.compactMap { $0["timestamp"].flatMap { Int($0) } }
        #expect(times.count == positions.count && positions.count > 200, "\(positions.count) positions")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "once each, oldest first")
        // Nothing lost: with no minimum distance, one position per 5 s of fixes, the outage's too.
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        let status = try #require(try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#))
        #expect(gaps.allSatisfy { $0 <= 12 }, "largest gap \(gaps.max() ?? 0) s; \(status["counters"] ?? "")")
        let after = server.requests().map(\.entry).filter { ($0["time"] as? Double ?? 0) >= backAt }.compactMap {
            $0["time"] as? Double
        }
        if let first = after.first, let last = after.last, last > first {
            print(
                "traccar drain: \(after.count) requests in \(String(format: "%.2f", last - first)) s = \(String(format: "%.1f", Double(after.count) / (last - first))) per s"
            )
        }
        let reported = gpsd.fixes()
        let firstReported = try #require(reported.keys.min(), "gpspipe recorded no fix")
        func num(_ text: String?) -> Double { text.flatMap(Double.init) ?? .nan }
        var compared = 0
        var withQuality = 0
        var neighbours = 0
        var wrong: [String] = []
        var firstEpochs = 0
        var unknownSat = 0
        var odometer = 0.0
        for p in positions {
            #expect(p["id"] == "box 25")
            let odo = try #require(p["odometer"].flatMap(Double.init), "\(p)")
            #expect(odo >= odometer, "the odometer never goes back: \(p)")
            odometer = odo
            #expect(p["motion"] == "true" || p["motion"] == "false", "\(p)")
            guard let t = p["timestamp"].flatMap(Int.init), t >= firstReported, let fix = reported[t] else { continue }
            compared += 1
            #expect(abs(num(p["lat"]) - (fix["lat"] as? Double ?? .nan)) < 1e-7, "\(p) from \(fix)")
            #expect(abs(num(p["lon"]) - (fix["lon"] as? Double ?? .nan)) < 1e-7, "\(p) from \(fix)")
            let knots = (fix["speed"] as? Double ?? .nan) * 3600 / 1852
            #expect(abs(num(p["speed"]) - knots) < 0.0006, "speed in knots: \(p) from \(fix)")
            if let track = fix["track"] as? Double {
                #expect(abs(num(p["bearing"]) - track) < 0.051, "\(p) from \(fix)")
            }
            if let alt = fix["altMSL"] as? Double {
                #expect(abs(num(p["altitude"]) - alt) < 0.051, "\(p)")
            }
            // gpsd's eph in whole metres; the configured assumed error for an epoch without one.
            let eph = fix["eph"] as? Double ?? 17
            #expect(p["accuracy"] == String(max(1, Int(eph.rounded()))), "accuracy: \(p) from \(fix)")
            // The HDOP and satellites the feed gave gpsd for this second (gpsd reports them in SKY).
            if let q = quality[t] {
                let m = FixQuality.match(num(p["hdop"]), p["sat"].flatMap { Int($0) }, at: t, in: quality)
                if m == .wrong { wrong.append("\(p), the feed gave \(q)") }
                if m == .neighbour { neighbours += 1 }
                if m == .firstEpoch { firstEpochs += 1 }
                if m == .satUnknown { unknownSat += 1 }
                withQuality += 1
            }
        }
        #expect(compared >= positions.count - 5, "\(compared) of \(positions.count) compared with gpsd's fixes")
        #expect(withQuality >= compared - 5, "\(withQuality) of \(compared) with hdop and sat checked")
        #expect(
            neighbours <= max(1, withQuality / 20), "\(neighbours) of \(withQuality) with a neighbouring second's SKY")
        // gpsd's SKY about the feed's start and its gaps, now and then: at most 1%, each shown.
        #expect(wrong.count <= max(1, withQuality / 100), "unlike the feed: \(wrong)")
        #expect(daemon.stop() == 0)
    }

    /// A 404 (a device the server does not know) is logged once at warning with the status and
    /// the server's text, the messages kept; registering the device recovers without a restart.
    @Test func aRefusalIsLoggedOnceAndRecoversWhenTheDeviceIsRegistered() throws {
        let dir = try Self.directory("traccar404")
        let httpPort = LiveHarness.freePort()
        let server = try Server(port: httpPort, dir: dir, mode: "404")
        let fixes = Self.now(LiveDaemonTests.walk(seconds: 200, seed: 26))
        let log = try LiveHarness.nmeaFile("traccar404.nmea", fixes: fixes, padding: 60)
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"], extraConfig: Self.config(httpPort))
        try daemon.waitFor("started")
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.03)
        defer { feed.stop() }
        try LiveHarness.waitFor("three refused requests", timeout: 120) { server.requests().count >= 3 }
        let refusals = try daemon.entries("uplink_refused")
        #expect(refusals.count == 1, "one entry per spell, not per retry: \(refusals.count)")
        let entry = try #require(refusals.first)
        #expect(entry["PRIORITY"] as? String == "4" && entry["GPSTRACK_HTTP_STATUS"] as? String == "404", "\(entry)")
        #expect(
            (entry["MESSAGE"] as? String)?.contains("Unknown device: not registered") == true,
            "the server's text: \(entry)")
        #expect((try Self.traccarStatus(daemon)["last_error"] as? String)?.hasPrefix("HTTP 404") == true)
        let firstRefused = try #require(server.requests().first?.fields)
        try server.mode("200")
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        try LiveHarness.waitFor("the outbox drained", timeout: 600) {
            try Self.traccarStatus(daemon)["queued"] as? Int == 0
        }
        try daemon.waitFor("uplink_recovered", timeout: 30)
        let positions = server.accepted()
        #expect(positions.first == firstRefused, "the refused message was kept and sent first")
        let times = positions.compactMap { $0["timestamp"].flatMap(Int.init) }
        #expect(times.count > 20 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times)")
        #expect(try daemon.entries("uplink_refused").count == 1)
        #expect(daemon.stop() == 0)
    }

    /// `traccar_format = json`: the Traccar Client's body (Traccar 6.7+), speed in m/s, time in
    /// ISO 8601, each against the fix gpsd reported.
    @Test func theJSONFormCarriesTheFixInTheClientsShape() throws {
        let dir = try Self.directory("traccarjson")
        let httpPort = LiveHarness.freePort()
        let server = try Server(port: httpPort, dir: dir, mode: "200")
        let fixes = FixQuality.qualified(Self.now(LiveDaemonTests.walk(seconds: 150, seed: 27)))
        let quality = FixQuality.byTime(fixes)
        let log = try LiveHarness.nmeaFile(
            "traccarjson.nmea", fixes: fixes, padding: LiveHarness.epochs(lasting: 10, cycle: 0.01))
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"],
            extraConfig: Self.config(httpPort) + "traccar_format = json\nassumed_error_m = 17\n")
        try daemon.waitFor("started")
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.01)
        defer { feed.stop() }
        let gpsd = try TPVRecorder(port: gpsPort, file: dir + "/tpv.txt")
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        try LiveHarness.waitFor("the outbox drained", timeout: 600) {
            try Self.traccarStatus(daemon)["queued"] as? Int == 0
        }
        let requests = server.requests().map(\.entry)
        #expect(requests.count > 10)
        let reported = gpsd.fixes()
        var compared = 0
        var withQuality = 0
        var neighbours = 0
        var wrong: [String] = []
        var firstEpochs = 0
        var unknownSat = 0
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for r in requests {
            #expect(
                r["method"] as? String == "POST"
                    && (r["headers"] as? [String: String])?["Content-Type"] == "application/json", "\(r)")
            let body = try #require(ExecutableRunner.json(r["body"] as? String ?? ""), "\(r)")
            #expect(body["device_id"] as? String == "box 25")
            let location = try #require(body["location"] as? [String: Any])
            let coords = try #require(location["coords"] as? [String: Any])
            let stamp = try #require(location["timestamp"] as? String)
            let t = try #require(iso.date(from: stamp), "ISO 8601: \(stamp)").timeIntervalSince1970
            guard let fix = reported[Int(t)] else { continue }
            compared += 1
            #expect(
                abs((coords["latitude"] as? Double ?? .nan) - (fix["lat"] as? Double ?? .nan)) < 1e-7,
                "\(body) from \(fix)")
            #expect(
                abs((coords["longitude"] as? Double ?? .nan) - (fix["lon"] as? Double ?? .nan)) < 1e-7,
                "\(body) from \(fix)")
            #expect(
                abs((coords["speed"] as? Double ?? .nan) - (fix["speed"] as? Double ?? .nan)) < 0.0006,
                "speed in m/s: \(body) from \(fix)")
            #expect(
                coords["accuracy"] as? Int == max(1, Int((fix["eph"] as? Double ?? 17).rounded())),
                "\(body) from \(fix)")
            #expect(location["odometer"] is Double || location["odometer"] is Int, "\(body)")
            // Traccar 6.7+ takes `location.extras`' members as attributes of their names.
            let extras = location["extras"] as? [String: Any]
            if let q = quality[Int(t)] {
                let m = FixQuality.match(extras?["hdop"] as? Double, extras?["sat"] as? Int, at: Int(t), in: quality)
                if m == .wrong { wrong.append("\(body), the feed gave \(q)") }
                if m == .neighbour { neighbours += 1 }
                if m == .firstEpoch { firstEpochs += 1 }
                if m == .satUnknown { unknownSat += 1 }
                withQuality += 1
            }
        }
        #expect(withQuality >= compared - 5, "\(withQuality) of \(compared) with hdop and sat checked")
        #expect(
            neighbours <= max(1, withQuality / 20), "\(neighbours) of \(withQuality) with a neighbouring second's SKY")
        // gpsd's SKY about the feed's start and its gaps, now and then: at most 1%, each shown.
        #expect(wrong.count <= max(1, withQuality / 100), "unlike the feed: \(wrong)")
        #expect(compared >= requests.count - 5, "\(compared) of \(requests.count) compared")
        #expect(daemon.stop() == 0)
    }
}
