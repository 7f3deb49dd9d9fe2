import Foundation
import GPSTrackDaemon
import Testing

/// A gpsd host that drops packets (a dead link, a firewall): the daemon runs in a network
/// namespace of its own where nftables drops everything sent to one documentation address, so
/// a TCP connect there neither succeeds nor fails. The daemon must still stop at once when
/// asked, say within its connect timeout that gpsd does not answer, and keep trying.
@Suite(.serialized, .needs([.gpsfake, .journal, .root] + Need.nft))
struct GPSDConnectTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// Starts the daemon, gpsd at an address whose packets are dropped.
    func start(_ name: String) throws -> (Process, Pipe, Date) {
        let silent = "192.0.2.30"
        let conf = try ExecutableRunner.temporaryFile(
            "\(name).conf",
            contents: """
                gpsd = \(silent):2947
                no_data_timeout_s = 2
                pedometer = off
                """)
        return try LiveHarness.daemonInNetworkNamespace(config: conf, addresses: [silent], dropped: silent)
    }

    /// Entries of this run's daemon with GPSTRACK_EVENT `event`.
    func entries(_ process: Process, _ event: String, since: Date) throws -> [[String: Any]] {
        try LiveHarness.journal(["_PID=\(process.processIdentifier)"], since: since).filter {
            $0["GPSTRACK_EVENT"] as? String == event
        }
    }

    /// Whether a TCP connect to the silent gpsd (192.0.2.30:2947) is under way in the daemon's
    /// network namespace: a SYN_SENT socket (state 02) in its /proc/PID/net/tcp, the address as
    /// the kernel prints it (little-endian hex).
    func connecting(_ process: Process) -> Bool {
        !LiveHarness.connectsUnderWay(process.processIdentifier, to: "1E0200C0:0B83").isEmpty
    }

    /// Stops with SIGTERM and returns how long the exit took.
    func stop(_ process: Process) -> Double {
        let asked = Date()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        return Date().timeIntervalSince(asked)
    }

    /// A referee, not a measure: the stop takes 0.1 to 0.3 s here (a debug build; 0.5 s beside
    /// `make test-repeat`'s CPU hog); 5 s is ten times that, and half the 10 s for which the
    /// connect used to hold it.
    static let stopReferee = 5.0

    /// An entry's time as the journal received it, in seconds since 1970.
    static func realtime(_ entry: [String: Any]) -> Double? {
        (entry["__REALTIME_TIMESTAMP"] as? String).flatMap(Double.init).map { $0 / 1e6 }
    }

    @Test func aStopDuringTheConnectIsPrompt() throws {
        let (process, errors, started) = try start("connect-stop-\(UInt32.random(in: 0..<UInt32.max))")
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        // Up and waiting for gpsd: the control socket's journal entry says it listens.
        try LiveHarness.waitFor("the daemon to start", timeout: 20) {
            try !LiveHarness.journal(["_PID=\(process.processIdentifier)"], since: started).isEmpty
        }
        // Whichever attempt it is (beside a CPU hog the journal may be read after the first
        // one's 10 s are over, and its gpsd_lost said: make test-repeat found that), a connect
        // is under way when the stop comes.
        try LiveHarness.waitFor("the connect to gpsd under way", timeout: 20) { connecting(process) }
        let took = stop(process)
        #expect(
            took < Self.stopReferee, "the stop took \(took) s (the connect used to hold it until the 10 s deadline)")
        #expect(
            process.terminationStatus == 0,
            "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        #expect(try entries(process, "stop_deadline", since: started).isEmpty)
    }

    @Test func aSilentHostIsReportedAndRetried() throws {
        let (process, errors, started) = try start("connect-silent-\(UInt32.random(in: 0..<UInt32.max))")
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        // The kernel gives up on a SYN after about two minutes (127 s): 110 s is a referee of
        // ten times the 10 s connect timeout that still tells the two apart.
        try LiveHarness.waitFor("the gpsd_lost entry", timeout: 110) {
            try !entries(process, "gpsd_lost", since: started).isEmpty
        }
        let lost = try entries(process, "gpsd_lost", since: started)
        let message = lost.first?["MESSAGE"] as? String ?? ""
        #expect(message.contains("192.0.2.30:2947") && message.contains("no answer in 10 s"), "\(message)")
        // The journal's own times, not when this test looked: the daemon's first entry comes
        // before its first connect, so the report comes at least the connect timeout later.
        let all = try LiveHarness.journal(["_PID=\(process.processIdentifier)"], since: started)
        let first = all.compactMap(Self.realtime).min() ?? .infinity
        let reported = lost.first.flatMap(Self.realtime) ?? -.infinity
        #expect(reported - first >= 9.9, "reported after the 10 s connect timeout, not before: \(reported - first) s")
        // The next attempt is under way (backoff 0.5 s; the first one's socket closed before
        // its failure was said): the stop still ends it at once.
        try LiveHarness.waitFor("the next connect to gpsd under way", timeout: 20) { connecting(process) }
        let took = stop(process)
        #expect(took < Self.stopReferee, "the stop took \(took) s (a referee, as above)")
        #expect(
            process.terminationStatus == 0,
            "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        #expect(try entries(process, "gpsd_lost", since: started).count == 1, "an outage is reported once")
    }
}
