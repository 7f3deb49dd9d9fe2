import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

/// An uplink's server misbehaving on purpose (Tests/http/uplink_server.py's modes): a reply
/// too long, bytes that are no HTTP, a reply that trickles past the timeout, a redirect. Each
/// is a clear last error, the message kept, nothing stuck: the server mended, all arrive.
@Suite(.serialized, .needs([.gpsfake, .journal, .tool("/usr/bin/python3", package: "python3")]))
struct HostileServerTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func eachMisbehaviourIsAnErrorAndTheMessagesWaitForTheServerMended() throws {
        let dir = try TraccarUplinkTests.directory("hostile")
        let httpPort = LiveHarness.freePort()
        let server = try TraccarUplinkTests.Server(port: httpPort, dir: dir, mode: "huge")
        let fixes = TraccarUplinkTests.now(LiveDaemonTests.walk(seconds: 200, seed: 30))
        let log = try LiveHarness.nmeaFile("hostile.nmea", fixes: fixes, padding: 60)
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"],
            extraConfig: TraccarUplinkTests.config(httpPort) + "traccar_timeout_s = 2\n")
        try daemon.waitFor("started")
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.05)
        defer { feed.stop() }
        func lastError() throws -> String {
            try TraccarUplinkTests.traccarStatus(daemon)["last_error"] as? String ?? ""
        }

        try daemon.waitFor("uplink_lost", containing: "reply longer than 65536 bytes", timeout: 120)
        let huge = try lastError()
        #expect(huge.hasSuffix("reply longer than 65536 bytes"), "\(huge)")
        for (mode, expected) in [("malformed", "HTTP/0.9"), ("slow", "timed out"), ("302", "HTTP 302")] {
            try server.mode(mode)
            let seen = server.requests().count
            // The next attempt after the mode changed, whatever the backoff by then (5 min at most).
            try LiveHarness.waitFor("an attempt in mode \(mode)", timeout: 400) {
                let error = try lastError()
                return server.requests().count > seen && error.contains(expected)
            }
            #expect(try TraccarUplinkTests.traccarStatus(daemon)["queued"] as? Int ?? 0 > 0, "the messages kept")
        }
        let first = try #require(server.requests().first?.fields)
        try server.mode("200")
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        try LiveHarness.waitFor("the outbox drained", timeout: 600) {
            try TraccarUplinkTests.traccarStatus(daemon)["queued"] as? Int == 0
        }
        try daemon.waitFor("uplink_recovered", timeout: 30)
        #expect(try daemon.entries("uplink_lost").count == 1, "one spell, one entry")
        let positions = server.accepted()
        #expect(positions.first == first, "the message that met every misbehaviour was kept and sent first")
        let times = positions.compactMap { $0["timestamp"].flatMap(Int.init) }
        #expect(times.count > 20 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times)")
        #expect(daemon.stop() == 0)
    }

    /// The outbox is the state database's: positions queued while no server answered survive a
    /// stop and go, in order, once, from the next start.
    @Test func theOutboxSurvivesARestart() throws {
        let dir = try TraccarUplinkTests.directory("restart")
        let httpPort = LiveHarness.freePort()
        let fixes = TraccarUplinkTests.now(LiveDaemonTests.walk(seconds: 150, seed: 31))
        // The feed first, 10 s without a fix, then the daemon: a daemon started first was
        // refused, backed off, and came back after most of the walk (5 positions queued, beside
        // make test-repeat's CPU hog).
        let log = try LiveHarness.nmeaFile(
            "restart.nmea", fixes: fixes, padding: LiveHarness.epochs(lasting: 10, cycle: 0.01))
        let gpsPort = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.01)
        defer { feed.stop() }
        let first = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"], extraConfig: TraccarUplinkTests.config(httpPort))
        try first.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        let queued = try #require(try TraccarUplinkTests.traccarStatus(first)["queued"] as? Int)
        #expect(queued >= 20, "\(queued) positions queued with no server")
        #expect(first.stop() == 0)
        let server = try TraccarUplinkTests.Server(port: httpPort, dir: dir, mode: "200")
        let second = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:1"], extraConfig: TraccarUplinkTests.config(httpPort),
            stateDirectory: first.stateDirectory)
        try second.waitFor("started")
        try LiveHarness.waitFor("the kept positions", timeout: 120) {
            try TraccarUplinkTests.traccarStatus(second)["queued"] as? Int == 0
        }
        let times = server.accepted().compactMap { $0["timestamp"].flatMap(Int.init) }
        #expect(times.count == queued, "every kept position, once: \(times.count) of \(queued)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "oldest first")
        #expect(second.stop() == 0)
    }
}
