import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Issue 37: a Traccar server down for five minutes in the middle of a walk gets the whole
/// backlog, in order, once each, soon after it is back: the transports' one retry policy
/// doubles to at most 60 s (`ReconnectBackoff.transport`, tested against no clock in
/// ReconnectBackoffTests); before it, HTTP waited up to 5 minutes. A suite of its own: it
/// lasts about seven minutes, most of them waiting: scripts/test-counts.py gives it a shard
/// of its own (SOLO_SUITES).
@Suite(.serialized, .needs([.gpsfake, .journal, .tool("/usr/bin/python3", package: "python3")]))
struct TraccarOutageTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func aFiveMinuteOutageMidWalkIsSentWhole() throws {
        let dir = try TraccarUplinkTests.directory("traccar-outage")
        let httpPort = LiveHarness.freePort()
        var server = try TraccarUplinkTests.Server(port: httpPort, dir: dir, mode: "200")
        // 650 s of walking fed in about 390 s (0.15 s a sentence, about 0.6 s a fix): fixes come
        // all through the outage and for a minute after it.
        let cycle = 0.15
        let fixes = TraccarUplinkTests.now(LiveDaemonTests.walk(seconds: 650, seed: 37))
        let log = try LiveHarness.nmeaFile(
            "traccar-outage.nmea", fixes: fixes, padding: LiveHarness.epochs(lasting: 10, cycle: cycle))
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"],
            extraConfig: TraccarUplinkTests.config(httpPort) + "max_horizontal_error_m = 10000\nassumed_error_m = 17\n")
        try daemon.waitFor("started")
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: cycle)
        defer { feed.stop() }
        try LiveHarness.waitFor("5 positions", timeout: 120) { server.accepted().count >= 5 }
        server.stop()
        // Down: the port hangs up on every connection (a server whose service died), so that
        // each of the daemon's tries is seen, with its time.
        let tries = dir + "/tries.txt"
        _ = FileManager.default.createFile(atPath: tries, contents: nil)
        let down = try LiveHarness.hangingListener(port: httpPort, file: tries)
        defer { if down.isRunning { down.terminate() } }
        let downAt = Date().timeIntervalSince1970
        try daemon.waitFor("uplink_lost", timeout: 60)
        // Five minutes down, by the wall clock: the outage is the server's, not the fixes'.
        try LiveHarness.waitFor("five minutes of outage", timeout: 330) {
            Date().timeIntervalSince1970 - downAt >= 300
        }
        down.terminate()
        down.waitUntilExit()
        let tried = ((try? String(contentsOfFile: tries, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            Double($0)
        }
        let waits = zip(tried, tried.dropFirst()).map { $1 - $0 }
        print("traccar outage: \(tried.count) tries in 300 s, the longest wait \(Int(waits.max() ?? 0)) s")
        // The policy doubles to 60 s (a wait drawn between 30 and 60 s once there); the old
        // HTTP cap of 5 minutes would wait 150 to 300 s. 75 s leaves a loaded machine its slack.
        #expect(tried.count >= 8 && waits.allSatisfy { $0 <= 75 }, "waits between tries: \(waits)")
        let backlog = try TraccarUplinkTests.traccarStatus(daemon)["queued"] as? Int ?? 0
        #expect(backlog >= 60, "five minutes of a walk at one position per 5 s of fixes: \(backlog) queued")
        let before = server.accepted().count
        let backAt = Date().timeIntervalSince1970
        server = try TraccarUplinkTests.Server(port: httpPort, dir: dir)
        // The backlog is the `backlog` positions queued when the server came back.
        try LiveHarness.waitFor("the backlog sent", timeout: 600) { server.accepted().count >= before + backlog }
        let accepted = server.requests().filter { $0.entry["status"] as? Int == 200 }
        let sentAt = try #require(accepted[before + backlog - 1].entry["time"] as? Double)
        print("traccar outage: \(backlog) positions queued over 300 s, all sent \(Int(sentAt - backAt)) s after return")
        // The policy's bound is 60 s; the referee is twice it, for a loaded machine.
        #expect(sentAt - backAt < 120, "the backlog sent \(sentAt - backAt) s after the server came back")
        try daemon.waitFor("uplink_recovered", timeout: 60)
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 600)
        try LiveHarness.waitFor("the outbox drained", timeout: 300) {
            try TraccarUplinkTests.traccarStatus(daemon)["queued"] as? Int == 0
        }
        #expect(try daemon.entries("uplink_lost").count == 1, "one entry per outage")
        let times = server.accepted().compactMap { $0["timestamp"].flatMap { Int($0) } }
        #expect(times.count == server.accepted().count && times.count >= 120, "\(times.count) positions")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "once each, oldest first")
        // Nothing lost: one position per 5 s of fixes, the outage's too.
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { $0 <= 12 }, "largest gap \(gaps.max() ?? 0) s")
        #expect(daemon.stop() == 0)
    }
}
