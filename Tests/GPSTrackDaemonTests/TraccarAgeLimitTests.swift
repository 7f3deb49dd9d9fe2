import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// `traccar_max_age_s` live: a walk sent while the server answers 503, then drained. What
/// arrives of the backlog is its last minute of fix time, the trip messages and the message in
/// flight (which the limit never drops); `status` counts the rest as expired, and they add up
/// to what the walk made.
@Suite(.serialized, .needs([.gpsfake, .journal, .tool("/usr/bin/python3", package: "python3")]))
struct TraccarAgeLimitTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func aBacklogKeepsItsLastMinuteAndItsTrips() throws {
        let dir = try TraccarUplinkTests.directory("traccarage")
        let httpPort = LiveHarness.freePort()
        let server = try TraccarUplinkTests.Server(port: httpPort, dir: dir, mode: "503")
        let fixes = TraccarUplinkTests.now(LiveDaemonTests.walk(seconds: 240, seed: 34))
        // The daemon starts before gpsd and waits between connects: it must hear every fix, or
        // fewer locations are made than the walk's (a loaded hunt run lost 13 s of them).
        let log = try LiveHarness.nmeaFile("traccarage.nmea", fixes: fixes, padding: LiveHarness.epochsPastBackoff)
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"],
            extraConfig: TraccarUplinkTests.config(httpPort) + "traccar_max_age_s = 60\n")
        try daemon.waitFor("started")
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.01)
        defer { feed.stop() }
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        let down = try TraccarUplinkTests.traccarStatus(daemon)
        let expired = try #require(down["expired"] as? Int, "status counts the expired: \(down)")
        let queued = try #require(down["queued"] as? Int)
        #expect(expired > 20, "\(down)")
        try server.mode("200")
        // The sender's backoff after a minute of 503s is up to 64 s: a referee of ten times that.
        try LiveHarness.waitFor("the outbox drained", timeout: 640) {
            try TraccarUplinkTests.traccarStatus(daemon)["queued"] as? Int == 0
        }
        let times = server.accepted().compactMap { $0["timestamp"].flatMap { Int($0) } }
        #expect(times.count == queued, "what waited arrived: \(times.count) of \(queued)")
        let newest = try #require(times.max())
        let trips = try daemon.entries("trip_start").count + daemon.entries("trip_end").count
        // Older than the limit: the trip messages, and the first, in flight (refused) all along.
        let older = times.filter { $0 < newest - 60 }
        #expect(older.first == times.first, "the message in flight stays: \(older)")
        #expect(older.count <= trips + 1, "only trip messages besides: \(older), \(trips) trip events")
        // One location per 5 s of the walk's 240 s, sent or expired (and the trip messages).
        #expect(abs(times.count + expired - 48) <= trips + 2, "\(times.count) sent + \(expired) expired")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "in order: \(times)")
        #expect(daemon.stop() == 0)
    }
}
