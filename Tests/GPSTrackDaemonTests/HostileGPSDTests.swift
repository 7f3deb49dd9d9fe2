import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

@testable import GPSTrackDaemon

/// Lines that libgps's parser cannot survive never reach it, in replay and live.
@Suite(.serialized) struct HostileGPSDTests {
    /// Two DEVICE objects joined by a bare CR: `gps_unpack` of libgps 3.22 loops for ever on it.
    static let crJoined =
        #"{"class":"DEVICE","path":"/dev/pts/5","activated":0}"# + "\r"
        + #"{"class":"DEVICE","path":"/dev/pts/5","activated":0}"# + "\r\n"

    /// How long a replay or a stop may take before it counts as hung: a referee. A hang is for
    /// ever; the debug binary starts, replays these few lines and exits in about 0.1 s here,
    /// and 30 s is far over ten times that on a loaded machine.
    static let hung = 30.0

    /// Runs `gpstrackd replay` on `path`; the process is killed (and the test fails) if it
    /// has not ended within `limit` seconds.
    static func replay(_ path: String, limit: Double = hung) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExecutableRunner.binary)
        process.arguments = ["replay", path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(limit)
        while process.isRunning && Date() < deadline { usleep(10_000) }  // polls the exit
        let hung = process.isRunning
        if hung { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(!hung, "replay still running after \(limit) s")
        return (
            process.terminationStatus,
            String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        )
    }

    @Test func theCRJoinedDeviceLineIsMalformedAndReplayEnds() throws {
        #expect(Array(Self.crJoined.utf8).count == 107)
        let path = try ExecutableRunner.temporaryFile("cr-joined.json", contents: Self.crJoined)
        let (status, stdout, stderr) = try Self.replay(path)
        #expect(status == 0)
        let summary = try #require(
            ExecutableRunner.json(stdout.split(separator: "\n").last.map(String.init) ?? "")?["summary"]
                as? [String: Any])
        #expect(summary["lines_malformed"] as? Int == 1)
        #expect(stderr.contains("cr-joined.json:1: malformed line skipped: more than one JSON object"))
    }

    /// Found by the gpsd-line fuzzer: well-formed, but libgps's schema refuses the two-letter
    /// parity, and gps_unpack (which stops only on status -1) loops for ever on it.
    static let longParity = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/x","parity":"NO"}]}"#

    @Test func theLongParityLineFoundByFuzzingDoesNotHang() throws {
        let tpv = #"{"class":"TPV","mode":3,"time":"2026-03-14T08:00:00.000Z","lat":52.5,"lon":13.4,"eph":3.0}"#
        let path = try ExecutableRunner.temporaryFile("parity.json", contents: Self.longParity + "\n" + tpv + "\n")
        let (status, stdout, _) = try Self.replay(path)
        #expect(status == 0)
        let summary = try #require(
            ExecutableRunner.json(stdout.split(separator: "\n").last.map(String.init) ?? "")?["summary"]
                as? [String: Any])
        #expect(summary["tpv_total"] as? Int == 1, "the report after it is read")
        // A TPV that libgps's schema refuses is malformed (it would have hung gps_unpack too).
        let bad = try ExecutableRunner.temporaryFile(
            "bad-tpv.json", contents: #"{"class":"TPV","mode":3,"device":"/dev/x","status":"high"}"# + "\n")
        let r = try Self.replay(bad)
        #expect(r.status == 0 && r.stderr.contains("libgps refused the TPV report"), "\(r.stderr)")
    }

    @Test func jsonDumpsStyleReplaysToTheSameFiguresAsCompact() throws {
        let (compact, _, _) = try ReplayCommandTests.walkLog()
        let spaced = compact.replacingOccurrences(of: ".json", with: "-spaced.json")
        // Python's json.dumps writes ", " and ": " by default; indent=1 spreads objects out
        // (not one line per object then, so only the default style is compared).
        let script =
            "import json,sys\nfor l in open(sys.argv[1]):\n l=l.strip()\n try: print(json.dumps(json.loads(l)))\n except ValueError: print(l)\n"
        let converted = try ExecutableRunner.run(["-c", script, compact], executable: "/usr/bin/python3")
        try #require(converted.status == 0)
        #expect(converted.stdout.contains(#"{"class": "TPV", "device": "/dev/ttySIM0", "mode": "#))
        try converted.stdout.write(toFile: spaced, atomically: true, encoding: .utf8)
        let a = try ExecutableRunner.run(["replay", compact])
        let b = try ExecutableRunner.run(["replay", spaced])
        #expect(a.status == 0 && b.status == 0)
        #expect(a.lines.count > 1)
        #expect(a.lines == b.lines, "events and summary differ")
        let summary = try #require(ExecutableRunner.json(b.lines.last ?? "")?["summary"] as? [String: Any])
        #expect(summary["lines_malformed"] as? Int == 2, "only the two truncated lines of the log")
    }

    @Test func theLiveDaemonLogsTheLineAndKeepsTracking() throws {
        try LiveHarness.ensureJournald()
        let trace = LiveDaemonTests.walk(seconds: 230, seed: 3)
        var lines = [Self.crJoined]
        for fix in trace.fixes { lines.append(GPSDLogWriter.tpv(fix) + "\r\n") }
        let gpsd = try FakeGPSD(lines: lines, gap: 0.004)
        defer { gpsd.stop() }
        let daemon = try LiveHarness.DaemonProcess(arguments: [
            "--gpsd", "127.0.0.1:\(gpsd.port)",
            "--fences", try LiveDaemonTests.fencesFile("hostile.geojson"),
        ])
        try daemon.waitFor("malformed", timeout: 30)
        // Reports after the line are tracked: the walk enters and leaves the fence.
        try daemon.waitFor("enter", timeout: 30)
        try daemon.waitFor("exit", timeout: 30)
        #expect(daemon.stop() == 0)
        let entry = try #require(try daemon.entries("malformed").first)
        #expect((entry["MESSAGE"] as? String)?.contains("more than one JSON object") == true)
        #expect(entry["GPSTRACK_REASON"] as? String != nil)
    }

    /// gpsd's deactivation report: the receiver that went away is named, even when the report
    /// carries no path (as a USB receiver pulled out may leave it).
    @Test(arguments: [#"{"class":"DEVICE","path":"/dev/ttyACM3","activated":0}"#, #"{"class":"DEVICE","activated":0}"#])
    func aRemovedReceiverIsNamed(_ removal: String) throws {
        try LiveHarness.ensureJournald()
        let trace = LiveDaemonTests.walk(seconds: 20, seed: 5)
        var lines = [
            #"{"class":"DEVICE","path":"/dev/ttyACM3","driver":"u-blox","activated":"2026-03-14T08:00:00.000Z"}"#
                + "\r\n"
        ]
        // The receiver's TPVs name it, as gpsd's do.
        for var fix in trace.fixes {
            fix.device = "/dev/ttyACM3"
            lines.append(GPSDLogWriter.tpv(fix) + "\r\n")
        }
        lines.append(removal + "\r\n")
        let gpsd = try FakeGPSD(lines: lines, gap: 0.01)
        defer { gpsd.stop() }
        let daemon = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)"])
        try daemon.waitFor("device_removed", timeout: 30)
        #expect(daemon.stop() == 0)
        let entry = try #require(try daemon.entries("device_removed").first)
        #expect(entry["MESSAGE"] as? String == "GPS receiver /dev/ttyACM3 removed")
        #expect(entry["GPSTRACK_DEVICE"] as? String == "/dev/ttyACM3")
    }

    /// A second receiver that reported and is removed while the followed one goes on: logged at
    /// info, and the fix is not lost. A real gpsd (gpsfake, one pty a receiver) removes it
    /// through its control socket, as when it is unplugged.
    @Test(.needs(.gpsfake)) func aRemovedReceiverThatIsNotFollowedLosesNothing() throws {
        let (feed, daemon, _) = try TwoReceiverLiveTests.start("removed")
        defer { feed.stop() }
        // Both report a position and the better one (the smaller eph) is followed (a referee
        // timeout). A mode alone was not enough: gpsd reports the first epoch's GSA (mode 3,
        // no position yet) before its GGA, the daemon moved to the other receiver at its first
        // position (the followed one had none), and the test removed the followed one.
        var followed = ""
        var other = ""
        try LiveHarness.waitFor("two receivers with a fix, the better one followed", timeout: 60) {
            let r = TwoReceiverLiveTests.receivers(TwoReceiverLiveTests.status(daemon))
            guard r.count == 2, let f = r.first(where: { $0["followed"] as? Bool == true }),
                let o = r.first(where: { $0["followed"] as? Bool != true }), f["mode"] as? Int == 3,
                f["last_fix"] as? String != nil, o["last_fix"] as? String != nil
            else { return false }
            followed = f["path"] as? String ?? ""
            other = o["path"] as? String ?? ""
            return (f["eph"] as? Double ?? 99) < (o["eph"] as? Double ?? 0)
        }
        try TwoReceiverLiveTests.control(feed, "-" + other)
        try daemon.waitFor("device_removed", timeout: 30)
        // The followed one goes on: more accepted fixes after the removal.
        func accepted() -> Int {
            ((TwoReceiverLiveTests.status(daemon)?["counters"] as? [String: Any])?["fixes_accepted"] as? Int) ?? 0
        }
        let atRemoval = accepted()
        try LiveHarness.waitFor("fixes after the removal", timeout: 60) { accepted() >= atRemoval + 10 }
        #expect(daemon.stop() == 0)
        let entry = try #require(try daemon.entries("device_removed").first)
        #expect(entry["PRIORITY"] as? String == "6" && entry["GPSTRACK_DEVICE"] as? String == other, "\(entry)")
        let lost = try daemon.entries("fix_lost")
        #expect(lost.isEmpty, "the followed receiver \(followed) goes on reporting: \(lost)")
    }
}

/// `replay` ends at once on SIGTERM and SIGINT, even when started with them blocked (as a
/// child of this test process, whose worker threads block signals).
@Suite struct ReplaySignalTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func replayEndsAtOnceOnSignal(_ sig: Int32) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExecutableRunner.binary)
        process.arguments = ["replay", "-"]
        let input = Pipe()
        process.standardInput = input  // held open: replay waits in read(2) for ever
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { try? input.fileHandleForWriting.close() }
        let pid = process.processIdentifier
        input.fileHandleForWriting.write(Data((GPSDLogWriter.header.joined(separator: "\n") + "\n").utf8))
        // Waiting in read(2) for more: state S in /proc/PID/stat, running our binary.
        try LiveHarness.waitFor("replay waiting for input", timeout: 10) {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let cmd = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            return cmd.contains("replay") && stat.split(separator: ")").last?.split(separator: " ").first == "S"
        }
        kill(pid, sig)
        let deadline = Date().addingTimeInterval(HostileGPSDTests.hung)
        while process.isRunning && Date() < deadline { usleep(5_000) }  // polls the exit
        let running = process.isRunning
        if running { kill(pid, SIGKILL) }
        process.waitUntilExit()
        #expect(!running, "replay still running \(HostileGPSDTests.hung) s after signal \(sig)")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == sig)
    }
}
