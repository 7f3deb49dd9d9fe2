import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

@testable import GPSTrackDaemon

/// The graceful stop (issue 13): within its deadline, below the unit's TimeoutStopSec, whatever
/// the watchers and the broker do. The deadline is armed as under systemd (INVOCATION_ID set),
/// so a stop that took too long ends in the daemon's own `stop_deadline` entry and exit 70.
@Suite(.serialized)
struct ShutdownTests {

    @Test func theDeadlineIsBelowTheUnitsTimeoutStopSec() throws {
        let unit = try String(
            contentsOf: ExecutableRunner.packageRoot.appendingPathComponent("systemd/gpstrackd.service"),
            encoding: .utf8)
        let line = unit.split(separator: "\n").map(String.init).first { $0.hasPrefix("TimeoutStopSec=") }
        let digits = String((line ?? "").dropFirst("TimeoutStopSec=".count).filter { $0.isNumber || $0 == "." })
        let seconds = try #require(Double(digits), "TimeoutStopSec= in the unit: \(line ?? "none")")
        #expect(ServiceGroup.deadlineS < seconds, "the daemon ends its stop before systemd's SIGKILL")
    }

    @Test(.needsLiveParts) func aStopEndsInTimeWithAStalledWatcherAndADeadBroker() throws {
        try LiveHarness.ensureJournald()
        let trace = LiveDaemonTests.walk(seconds: 400, seed: 11)
        let log = try LiveHarness.nmeaFile("shutdown.nmea", fixes: trace.fixes, padding: 400)
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port, cycle: 0.004)
        defer { feed.stop() }
        let deadBroker = LiveHarness.freePort()  // nothing listens there
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(port)", "--fences", try LiveDaemonTests.fencesFile("shutdown.geojson")],
            extraConfig: "mqtt_host = 127.0.0.1\nmqtt_port = \(deadBroker)\nwatch_queue_bytes = 4096\n",
            environment: ["INVOCATION_ID": StalledDaemon.invocationID])
        try daemon.waitFor("gpsd_connected", timeout: 30)
        let stalled = try SocketClient(path: daemon.socketPath)
        stalled.send("{\"cmd\":\"watch\"}\n")  // and never reads
        try daemon.waitFor("enter", timeout: 60)
        // Within the armed deadline: past it the daemon would log stop_deadline and exit 70.
        #expect(daemon.stop() == 0, "a graceful stop")
        #expect(try daemon.entries("stop_deadline").isEmpty, "the deadline was not hit")
        // The daemon wrote it before it exited; journald may index it a moment later.
        try daemon.waitFor("summary", timeout: 30)
        #expect(try daemon.entries("summary").count == 1, "the stop ran to its end: the trip's summary is logged")
    }

    /// The daemon on gpsd fed by gpsfake, with its tracker told to hang at the first fix
    /// (GPSTRACKD_TEST_STALL, see Liveness): its graceful stop cannot finish.
    final class StalledDaemon {
        let process = Process()
        let feed: LiveHarness.Feed
        let stderrPath: String
        let dir: String

        init(_ name: String) throws {
            dir = NSTemporaryDirectory() + "gpstrackd-\(name)-\(getpid())"
            try? FileManager.default.removeItem(atPath: dir)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let trace = LiveDaemonTests.walk(seconds: 600, seed: 7)
            let port = LiveHarness.freePort()
            feed = try LiveHarness.Feed(
                log: try LiveHarness.nmeaFile("\(name)-\(getpid()).nmea", fixes: trace.fixes), port: port, cycle: 0.02)
            stderrPath = dir + "/stderr"
            _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
            // No pedometer: its "no device" report goes to the tracker too, and when it comes
            // after the stall the stop waits there first ("stopping the pedometer"), a race.
            let config = dir + "/gpstrackd.conf"
            try "pedometer = off\n".write(toFile: config, atomically: true, encoding: .utf8)
            process.executableURL = URL(fileURLWithPath: ExecutableRunner.binary)
            process.arguments = [
                "--config", config, "--gpsd", "127.0.0.1:\(port)", "--log", "stderr",
                "--socket", dir + "/control", "--state-dir", dir + "/state",
            ]
            // As systemd runs it (INVOCATION_ID set): the stop's deadline is armed.
            process.environment = ["GPSTRACKD_TEST_STALL": "tracker", "INVOCATION_ID": Self.invocationID]
            process.standardError = FileHandle(forWritingAtPath: stderrPath)
            try process.run()
            // The tracker took gpsd's first report; the first TPV behind it hangs it.
            try LiveHarness.waitFor("the connection to gpsd", timeout: 30) { stderr.contains("Receiving from gpsd") }
        }

        var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

        /// As systemd sets it: the daemon then arms its stop deadline.
        static let invocationID = "0123456789abcdef0123456789abcdef"

        func signal(_ s: Int32) { kill(process.processIdentifier, s) }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            feed.stop()
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    /// A SIGTERM sent as the control socket appears (systemd stopping a unit still starting)
    /// stops the daemon: its signal sources exist before anything shows it running. When they
    /// were made after the socket, such a SIGTERM met SIG_IGN and the daemon ran on (20 of 20
    /// starts here, scripted, before the fix).
    @Test(.needs(.journal)) func aSIGTERMDuringTheStartStopsIt() throws {
        for attempt in 1...3 {
            let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1"])
            let appears = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: daemon.socketPath), daemon.process.isRunning,
                Date() < appears
            {
                usleep(500)  // polls closely: the signal must follow the socket at once
            }
            daemon.signal(SIGTERM)
            do {
                try LiveHarness.waitFor("the daemon's exit after SIGTERM (attempt \(attempt))", timeout: 60) {
                    !daemon.process.isRunning
                }
            } catch {
                daemon.signal(SIGKILL)  // the deinit's SIGTERM would wait for ever
                throw error
            }
            #expect(
                daemon.process.terminationReason == .exit && daemon.process.terminationStatus == 0,
                "attempt \(attempt): exit status \(daemon.process.terminationStatus)")
        }
    }

    @Test(.needs(.gpsfake)) func aSecondSIGTERMExitsAtOnce() throws {
        let daemon = try StalledDaemon("second-sigterm")
        daemon.signal(SIGTERM)
        try LiveHarness.waitFor("the graceful stop to begin", timeout: 10) {
            daemon.stderr.contains("Stopping on signal 15")
        }
        daemon.signal(SIGTERM)
        daemon.process.waitUntilExit()
        #expect(
            daemon.process.terminationReason == .exit && daemon.process.terminationStatus == 0,
            "exit status \(daemon.process.terminationStatus)")
        #expect(daemon.stderr.contains("Second stop signal: exiting at once"))
        #expect(!daemon.stderr.contains("Stopping took over"), "the deadline did not have to end it")
        #expect(!daemon.stderr.contains("Trip: "), "the stalled tracker never finished: the exit did not wait for it")
    }

    @Test(.needs(.gpsfake)) func aStalledStopEndsAtTheDeadline() throws {
        let daemon = try StalledDaemon("stop-deadline")
        daemon.signal(SIGINT)
        daemon.process.waitUntilExit()
        #expect(
            daemon.process.terminationReason == .exit && daemon.process.terminationStatus == 70,
            "exit status \(daemon.process.terminationStatus)")
        let entry = daemon.stderr.split(separator: "\n").first { $0.contains("Stopping took over") } ?? ""
        #expect(entry.contains("<err>") && entry.contains("stopping the gpsd source"), "names the stage: \(entry)")
    }
}
