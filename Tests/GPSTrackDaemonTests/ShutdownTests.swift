import Foundation
import Testing
import GPSTrackCore
import GPSTrackSim
@testable import GPSTrackDaemon

/// The graceful stop (issue 13): within its deadline, below the unit's TimeoutStopSec, whatever
/// the watchers and the broker do.
@Suite(.serialized, .enabled(if: LiveHarness.available, "gpsd, gpsd-clients and systemd are installed by `make test`"))
struct ShutdownTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func theDeadlineIsBelowTheUnitsTimeoutStopSec() throws {
        let unit = try String(contentsOf: ExecutableRunner.packageRoot.appendingPathComponent("systemd/gpstrackd.service"), encoding: .utf8)
        let line = unit.split(separator: "\n").map(String.init).first { $0.hasPrefix("TimeoutStopSec=") }
        let digits = String((line ?? "").dropFirst("TimeoutStopSec=".count).filter { $0.isNumber || $0 == "." })
        let seconds = try #require(Double(digits), "TimeoutStopSec= in the unit: \(line ?? "none")")
        #expect(ShutdownDeadline.seconds < seconds, "the daemon ends its stop before systemd's SIGKILL")
    }

    @Test func aStopEndsInTimeWithAStalledWatcherAndADeadBroker() throws {
        let trace = LiveDaemonTests.walk(seconds: 400, seed: 11)
        let log = try LiveHarness.nmeaFile("shutdown.nmea", fixes: trace.fixes, padding: 400)
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port, cycle: 0.004)
        defer { feed.stop() }
        let deadBroker = LiveHarness.freePort()   // nothing listens there
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(port)", "--fences", try LiveDaemonTests.fencesFile("shutdown.geojson")],
            extraConfig: "mqtt_host = 127.0.0.1\nmqtt_port = \(deadBroker)\nwatch_queue_bytes = 4096\n")
        try daemon.waitFor("gpsd_connected", timeout: 30)
        let stalled = try SocketClient(path: daemon.socketPath)
        stalled.send("{\"cmd\":\"watch\"}\n")   // and never reads
        try daemon.waitFor("enter", timeout: 60)
        let asked = Date()
        let status = daemon.stop()
        let took = Date().timeIntervalSince(asked)
        #expect(status == 0, "a graceful stop")
        #expect(took < ShutdownDeadline.seconds, "stopped in \(took) s")
        #expect(try daemon.entries("summary").count == 1, "the stop ran to its end: the trip's summary is logged")
        #expect(try daemon.entries("stop_deadline").isEmpty)
    }
}
