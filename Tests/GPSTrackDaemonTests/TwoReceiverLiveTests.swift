import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Two receivers on one real gpsd (gpsfake feeding two logs, one pty each): a shared walk, one
/// receiver with a 4 m error, the other with 12 m, a 15 m bias and its fixes half a second
/// later. The better one is followed; unplugged mid-walk through gpsd's control socket, the
/// daemon fails over to the other without losing the fix, and back once it returns.
@Suite(.serialized) struct TwoReceiverLiveTests {
    static let base = Coordinate(latitude: 52.52, longitude: 13.405)

    /// The walk as each receiver reports it, and its true length (GeodSolve).
    static func walk() throws -> (good: [Fix], biased: [Fix], truthM: Double) {
        var rng = SeededRandom(seed: 23)
        let still = Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 20)
        let scenario = Scenario(
            name: "shared walk", start: base, steps: still + Scenario.walk(lengthM: 800, rng: &rng).steps + still)
        var model = ReceiverModel()
        model.honestJumpProbability = 0
        model.lyingJumpProbability = 0
        model.noFixProbability = 0
        let a = Simulator.run(scenario, model: model, seed: 23)
        let b = Simulator.run(scenario, model: model, seed: 24)
        let good = a.fixes.map { f -> Fix in
            var f = f
            f.eph = 4
            return f
        }
        let biased = b.fixes.map { f -> Fix in
            var g = f
            let p = Geodesic.destination(from: f.coordinate, azimuth: 0, distance: 15)
            g.latitude = p.latitude
            g.longitude = p.longitude
            g.eph = 12
            g.time = f.time.map { $0 + 0.5 }
            return g
        }
        return (good, biased, try GeodSolveTruth.lengths([a.truth])[0])
    }

    /// The daemon's status; nil until its control socket answers.
    static func status(_ d: LiveHarness.DaemonProcess) -> [String: Any]? {
        (try? SocketClient(path: d.socketPath))?.request(#"{"cmd":"status"}"#)
    }

    static func receivers(_ s: [String: Any]?) -> [[String: Any]] { s?["receivers"] as? [[String: Any]] ?? [] }

    static func traveled(_ s: [String: Any]?) -> Double {
        (s?["trip"] as? [String: Any])?["traveled_m"] as? Double ?? 0
    }

    /// `gpstrackctl metrics`.
    static func metrics(_ d: LiveHarness.DaemonProcess) -> String {
        (try? ExecutableRunner.run(["--socket", d.socketPath, "metrics"], executable: MetricsTests.ctl).stdout) ?? ""
    }

    /// The walk's two receivers on one gpsd (gpsfake, a pty each; `name` names their logs) and
    /// the daemon following it; the walk's true length.
    static func start(_ name: String) throws -> (
        feed: LiveHarness.Feed, daemon: LiveHarness.DaemonProcess, truthM: Double
    ) {
        try LiveHarness.ensureJournald()
        let (good, biased, truth) = try walk()
        let logs = [
            try LiveHarness.nmeaFile("\(name)-good.nmea", fixes: good, padding: 20),
            try LiveHarness.nmeaFile("\(name)-biased.nmea", fixes: biased, padding: 20),
        ]
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(logs: logs, port: port, cycle: 0.02)
        do {
            return (feed, try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(port)"]), truth)
        } catch {
            feed.stop()
            throw error
        }
    }

    /// Sends one command to gpsd's control socket.
    static func control(_ feed: LiveHarness.Feed, _ command: String) throws {
        let c = try SocketClient(path: feed.controlSocket)
        c.send(command + "\r\n\u{0}")
        _ = c.readLine()
    }

    @Test func theFollowedReceiverUnpluggedFailsOverAndBackWithoutLosingTheFix() throws {
        let (feed, daemon, truth) = try Self.start("two")
        defer { feed.stop() }
        // Both receivers report, and the better one (the smaller eph) is followed. (Referee
        // timeouts: each wait bounds a hang, it measures nothing.)
        var followed = ""
        try LiveHarness.waitFor("two receivers, the better one followed", timeout: 60) {
            let r = Self.receivers(Self.status(daemon))
            guard r.count == 2, let f = r.first(where: { $0["followed"] as? Bool == true }),
                let other = r.first(where: { $0["followed"] as? Bool != true }),
                let e1 = f["eph"] as? Double, let e2 = other["eph"] as? Double, e1 < e2
            else { return false }
            followed = f["path"] as? String ?? ""
            return f["mode"] as? Int == 3 && f["last_fix"] as? String != nil
        }
        let other = try #require(
            Self.receivers(Self.status(daemon)).first { $0["path"] as? String != followed }?["path"] as? String)
        try LiveHarness.waitFor("a third of the walk", timeout: 60) { Self.traveled(Self.status(daemon)) > truth / 3 }
        let unplugged = Date()
        let both = Self.metrics(daemon)
        #expect(
            both.contains(#"gpstrackd_receiver_followed{device="\#(followed)"} 1"#)
                && both.contains(#"gpstrackd_receiver_followed{device="\#(other)"} 0"#),
            "both receivers' series:\n\(both)")
        try Self.control(feed, "-" + followed)
        try daemon.waitFor("failover", containing: "instead of \(followed)", timeout: 30)
        // The metrics' receiver series go with the receiver gpsd no longer reports.
        let one = Self.metrics(daemon)
        #expect(
            !one.contains(#"device="\#(followed)""#) && one.contains(#"gpstrackd_fix_mode{device="\#(other)"} 3"#)
                && one.contains(#"gpstrackd_receiver_followed{device="\#(other)"} 1"#),
            "the unplugged one's series gone:\n\(one)")
        // Back at once: gpsfake goes on writing to the removed receiver's pty, and stalls
        // every feed once that pty's buffer is full.
        try Self.control(feed, "+" + followed)
        try daemon.waitFor("failover", containing: "\(followed) instead of \(other)", timeout: 30)
        // The feed's end: gpsfake removes a receiver when its log ends (the second removal, after
        // the unplug), and the daemon has taken in every fix before it says so.
        try daemon.waitFor("device_removed", count: 2, timeout: 90)
        #expect(daemon.stop() == 0)
        try daemon.waitFor("summary", timeout: 10)

        // gpsfake removes each receiver when its log ends: the second removal is the feed's end,
        // and what follows it is not judged.
        func at(_ e: [String: Any]) -> Double {
            (e["__REALTIME_TIMESTAMP"] as? String).flatMap(Double.init).map { $0 / 1e6 } ?? 0
        }
        let removals = try daemon.entries("device_removed")
        try #require(removals.count >= 2, "the unplug and the feed's end")
        let feedEnd = at(removals[1])
        let failovers = try daemon.entries("failover").filter {
            at($0) >= unplugged.timeIntervalSince1970 && at($0) < feedEnd
        }
        let away = failovers.filter {
            $0["GPSTRACK_PREVIOUS_DEVICE"] as? String == followed && $0["GPSTRACK_DEVICE"] as? String == other
        }
        let back = failovers.filter {
            $0["GPSTRACK_PREVIOUS_DEVICE"] as? String == other && $0["GPSTRACK_DEVICE"] as? String == followed
        }
        #expect(
            away.count == 1 && back.count == 1 && failovers.count == 2,
            "one failover each way: \(failovers.map { $0["MESSAGE"] ?? "" })")
        let lost = try daemon.entries("fix_lost").filter { at($0) < feedEnd }
        #expect(lost.isEmpty, "the fix is not lost while another receiver reports: \(lost.map { $0["MESSAGE"] ?? "" })")
        #expect(removals[0]["GPSTRACK_DEVICE"] as? String == followed && removals[0]["PRIORITY"] as? String == "4")
        let acquired = try #require(try daemon.entries("fix_acquired").first)
        #expect(acquired["GPSTRACK_DEVICE"] as? String != nil, "fix_acquired names the receiver")
        let summary = try #require(try daemon.entries("summary").first)
        let traveled = try #require(Double(summary["GPSTRACK_TRAVELED_M"] as? String ?? ""))
        // The walk's tolerance, as for one receiver (LiveDaemonTests): a failover's 15 m offset
        // is no jump in the odometer.
        #expect(traveled > 0.9 * truth && traveled < 1.05 * truth, "\(traveled) m of \(truth) m")
    }
}
