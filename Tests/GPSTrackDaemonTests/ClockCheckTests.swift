import Foundation
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The clock check against a live gpsfake feed: NMEA timed an hour before now makes one
/// `clock_offset` warning and an offset near 3,600 s in status and the metrics; a feed timed
/// now makes none. The in-line run also reads gpsd's SKY back from status.
@Suite(.serialized)
struct ClockCheckTests {
    /// The bound in these runs: far above a loaded machine's start-up delay (the feed's times
    /// are fixed when its file is written), far below an hour.
    static let bound = 60.0

    /// A walk whose first fix is timed `shift` seconds from now, played by gpsfake at about
    /// 2.5 epochs a second (4 sentences at 0.1 s); returns the status after the feed and the
    /// daemon's journal entries.
    static func run(shift: Double, name: String) throws
        -> (
            StatusReply, metrics: String, entries: [[String: Any]], sky: (StatusReply.SkyStatus, text: String),
            log: String
        )
    {
        try LiveHarness.ensureJournald()
        let trace = LiveDaemonTests.walk(seconds: 20, seed: 7)
        let padding = 10
        let t0 = Date().timeIntervalSince1970.rounded() + Double(padding) + shift
        let delta = t0 - (trace.fixes.first?.time ?? 0)
        let fixes = trace.fixes.map { f in
            var g = f
            g.time = f.time.map { $0 + delta }
            return g
        }
        let log = try withSatellitesInView(try LiveHarness.nmeaFile(name, fixes: fixes, padding: padding))
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port, cycle: 0.1)
        defer { feed.stop() }
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(port)"],
            extraConfig: "clock_offset_warn_s = \(Int(bound))\n")
        try daemon.waitFor("fix_acquired")
        // While the feed plays: gpsd's SKY (from the GSA sentences) in status, JSON and text.
        var sky: StatusReply.SkyStatus?
        var text = ""
        try LiveHarness.waitFor("the sky in status", timeout: 30) {
            let line = try ExecutableRunner.run(
                ["--socket", daemon.socketPath, "--json", "status"], executable: MetricsTests.ctl
            ).stdout
            sky =
                (try? ReplyDecoder.decode(
                    StatusReply.self, line: line.split(separator: "\n").first.map(String.init) ?? ""))?.sky
            text = try ExecutableRunner.run(["--socket", daemon.socketPath, "status"], executable: MetricsTests.ctl)
                .stdout
            return sky?.hdop != nil && sky?.satellitesUsed != nil
        }
        try daemon.waitFor("gpsd_lost", containing: "no report")
        let status = try ExecutableRunner.run(
            ["--socket", daemon.socketPath, "--json", "status"], executable: MetricsTests.ctl)
        let s = try ReplyDecoder.decode(
            StatusReply.self, line: status.stdout.split(separator: "\n").first.map(String.init) ?? "")
        let metrics = try ExecutableRunner.run(
            ["--socket", daemon.socketPath, "metrics"], executable: MetricsTests.ctl
        ).stdout
        #expect(daemon.stop() == 0)
        return (s, metrics, try daemon.entries(), (sky!, text), try String(contentsOfFile: log, encoding: .utf8))
    }

    /// The log with GSV sentences after each GSA (gpsd writes SKY only with satellites in
    /// view): the GSA's nine satellites and three more, twelve in view.
    static func withSatellitesInView(_ path: String) throws -> String {
        let prns = [5, 7, 9, 13, 15, 17, 19, 21, 23, 2, 4, 6]
        let gsv = (0..<3).map { k in
            let sats = prns[(k * 4)..<(k * 4 + 4)].map { String(format: "%02d,%02d,%03d,40", $0, 20 + $0, 10 * $0) }
                .joined(separator: ",")
            let body = "GPGSV,3,\(k + 1),12,\(sats)"
            let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            return "$" + body + "*" + String(format: "%02X", sum) + "\r"
        }
        let lines = lines(try String(contentsOfFile: path, encoding: .utf8)).flatMap {
            $0.hasPrefix("$GPGSA") ? [$0] + gsv : [$0]
        }
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The lines of an NMEA log, split at the line feed's byte ("\r\n" is one Character to Swift).
    static func lines(_ text: String) -> [String] {
        Array(text.utf8).split(separator: 10, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    static func events(_ entries: [[String: Any]], _ name: String) -> [[String: Any]] {
        entries.filter { $0["GPSTRACK_EVENT"] as? String == name }
    }

    @Test(.enabled(if: LiveHarness.available, "gpsd, gpsd-clients and systemd are installed by `make test`"))
    func aFeedAnHourBehindWarnsOnce() throws {
        let (s, metrics, entries, _, _) = try Self.run(shift: -3600, name: "clock-hour-behind.nmea")
        let warnings = Self.events(entries, "clock_offset")
        #expect(warnings.count == 1, "\(warnings.map { $0["MESSAGE"] ?? "" })")
        #expect(warnings.first?["PRIORITY"] as? String == "4", "a warning")
        #expect(Self.events(entries, "clock_in_line").isEmpty)
        let offset = try #require(s.clockOffsetS)
        #expect(abs(offset - 3600) < Self.bound, "offset \(offset) s")
        #expect(MetricsTests.value(metrics, "gpstrackd_clock_offset_seconds") == offset)
        #expect(s.eventsTotal.counts["clock_offset"] == 1)
        let text = warnings.first?["GPSTRACK_CLOCK_OFFSET_S"] as? String
        let logged = try #require(text.flatMap { Double($0) })
        #expect(abs(logged - 3600) < Self.bound, "the entry's offset \(logged) s")
    }

    @Test(.enabled(if: LiveHarness.available, "gpsd, gpsd-clients and systemd are installed by `make test`"))
    func aFeedTimedNowWarnsNot() throws {
        let (s, _, entries, sky, log) = try Self.run(shift: 0, name: "clock-now.nmea")
        #expect(
            Self.events(entries, "clock_offset").isEmpty && Self.events(entries, "clock_in_line").isEmpty,
            "\(Self.events(entries, "clock_offset").map { $0["MESSAGE"] ?? "" })")
        let offset = try #require(s.clockOffsetS, "a clock check was made")
        #expect(abs(offset) < Self.bound, "offset \(offset) s")
        #expect(s.counters.fixesAccepted >= 10, "\(s.counters)")
        // The feed's GSA sentences are the truth: nine satellites used, and one epoch's PDOP, HDOP, VDOP.
        #expect(sky.0.satellitesUsed == 9, "\(sky.0)")
        let written = Set(
            Self.lines(log).filter { $0.hasPrefix("$GPGSA,A,3") }.map { line in
                line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false)[15...17].map {
                    Double($0) ?? -1
                }
            })
        #expect(
            written.contains([sky.0.pdop ?? 0, sky.0.hdop ?? 0, sky.0.vdop ?? 0]),
            "\(sky.0) not among \(written.sorted { $0[1] < $1[1] })")
        #expect(sky.text.contains("sky       9 of "), "\(sky.text)")
    }
}
