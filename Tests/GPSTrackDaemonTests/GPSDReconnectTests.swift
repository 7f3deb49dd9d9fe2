import Foundation
import GPSTrackSim
import Testing

/// gpsd killed and another started on the same port (gpstrackd(8), GPSD): the daemon tries
/// again (the waits between tries are ReconnectBackoffTests'), one `gpsd_lost` and one
/// `gpsd_connected` for the outage, and sends its WATCH anew (a new gpsd reports nothing without
/// one).
@Suite(.serialized, .needsLiveParts)
struct GPSDReconnectTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// The daemon's accepted fixes so far (its status reply; -1 before its socket is there).
    static func accepted(_ daemon: LiveHarness.DaemonProcess) -> Int {
        let reply = try? SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#)
        return (reply?["counters"] as? [String: Any])?["fixes_accepted"] as? Int ?? -1
    }

    @Test func aKilledGpsdIsRetriedWithBackoffAndWatchedAgain() throws {
        let trace = LiveDaemonTests.walk(seconds: 400, seed: 13)
        let half = trace.fixes.count / 2
        let first = try LiveHarness.nmeaFile(
            "reconnect-a-\(getpid()).nmea", fixes: Array(trace.fixes[..<half]), padding: 30)
        let second = try LiveHarness.nmeaFile(
            "reconnect-b-\(getpid()).nmea", fixes: Array(trace.fixes[half...]), padding: 30)
        let port = LiveHarness.freePort()
        var feed = try LiveHarness.Feed(log: first, port: port, cycle: 0.02)
        defer { feed.stop() }
        // gpsd up first, so that the one outage is the kill (long before the feed's end).
        try LiveHarness.waitFor("gpsd on 127.0.0.1:\(port)", timeout: 30) { LiveHarness.onLoopback(port, connect) }
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(port)"], extraConfig: "pedometer = off\n")
        try LiveHarness.waitFor("fixes from the first gpsd", timeout: 60) { Self.accepted(daemon) >= 20 }
        feed.stop()  // gpsd killed, as a crash would
        try daemon.waitFor("gpsd_lost", timeout: 30)
        let lost = try daemon.entries("gpsd_lost").first?["MESSAGE"] as? String ?? ""
        #expect(lost.contains("gpsd closed the connection"), "the kill: \(lost)")

        // Attempts, seen by a listener on gpsd's port that hangs up at once (each a failure
        // like the first): the daemon keeps trying. How long it waits between attempts is the
        // policy's (ReconnectBackoffTests, without a clock), not measured here.
        let accepts = try ExecutableRunner.temporaryFile("reconnect-accepts-\(getpid()).txt", contents: "")
        let listener = try LiveHarness.hangingListener(port: port, file: accepts)
        defer {
            if listener.isRunning { listener.terminate() }
            listener.waitUntilExit()
        }
        // 0.5 + 1 + 2 s of backoff: 60 s is a referee.
        try LiveHarness.waitFor("three attempts after the kill", timeout: 60) {
            ((try? String(contentsOfFile: accepts, encoding: .utf8)) ?? "").split(separator: "\n").count >= 3
        }
        listener.terminate()
        listener.waitUntilExit()
        #expect(try daemon.entries("gpsd_lost").count == 1, "failed attempts are one outage")
        let before = Self.accepted(daemon)

        // A new gpsd on the same port (the stopped listener's gone: stop() waited); a next
        // attempt (at most 30 s on) finds it.
        feed = try LiveHarness.Feed(log: second, port: port, cycle: 0.02)
        try daemon.waitFor("gpsd_connected", count: 2, timeout: 90)
        try LiveHarness.waitFor("fixes from the new gpsd", timeout: 60) { Self.accepted(daemon) >= before + 20 }
        #expect(try daemon.entries("gpsd_lost").count == 1, "one entry per outage, not per retry")
        let again = try #require(try daemon.entries("gpsd_connected").last?["MESSAGE"] as? String)
        #expect(again.contains("again after"), "\(again)")
        #expect(daemon.stop() == 0)
    }
}
