import Foundation
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The metrics: Prometheus text that Prometheus' own `promtool` accepts, the same series from
/// `gpstrackctl metrics` and from `metrics_file`, read back through a real node_exporter's
/// textfile collector, with values checked against the status and the walk's GeodSolve truth.
@Suite(.serialized)
struct MetricsTests {
    static let promtool = "/usr/bin/promtool"
    static let nodeExporter = "/usr/bin/prometheus-node-exporter"
    static var ctl: String {
        URL(fileURLWithPath: ExecutableRunner.binary).deletingLastPathComponent().appendingPathComponent("gpstrackctl")
            .path
    }

    /// The sample lines of `name` as (labels, value).
    static func samples(_ text: String, _ name: String) -> [(labels: String, value: Double)] {
        text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), line.hasPrefix(name + "{") || line.hasPrefix(name + " ") else { return nil }
            let parts = line.split(separator: " ")
            guard let value = parts.last.flatMap({ Double($0) }) else { return nil }
            let head = String(parts.dropLast().joined(separator: " ").dropFirst(name.count))
            return (head, value)
        }
    }

    static func value(_ text: String, _ name: String, _ labels: String = "") -> Double? {
        samples(text, name).first { $0.labels == labels }?.value
    }

    static func promtoolAccepts(_ text: String) throws -> ExecutableRunner.Result {
        try ExecutableRunner.run(["check", "metrics"], stdin: Data(text.utf8), executable: promtool)
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: promtool),
            "promtool (prometheus) is installed by `make test`"))
    func theTextIsWhatPromtoolAcceptsWithTheStatusValues() throws {
        var s = StatusReply()
        s.version = "0.2.0"
        s.uptimeS = 100
        s.gpsd.connected = true
        s.gpsd.address = "localhost:2947"
        s.gpsd.device = #"/dev/tty"USB0\"#
        var fix = StatusReply.FixStatus()
        fix.mode = 3
        fix.eph = 4.5
        fix.ageS = 0.7
        s.fix = fix
        s.counters.fixesAccepted = 40
        s.counters.fixesRejected = NamedCounts(["low_accuracy": 2, "outlier_jump": 1])
        s.trip.traveledM = 1234.5
        var inside = FenceReport()
        inside.state = "inside"
        var outside = FenceReport()
        outside.state = "outside"
        s.fences = [inside, outside, outside]
        s.storage.state = "degraded"
        s.eventsTotal = NamedCounts(["trip_end": 2, "fix_lost": 1])
        s.tripsTotal = 5
        s.gpsd.reconnects = 3
        var sky = StatusReply.SkyStatus()
        sky.device = "/dev/ttyACM0"
        (sky.satellitesUsed, sky.satellitesSeen, sky.hdop, sky.pdop) = (8, 16, 1.01, 1.71)
        s.sky = sky
        s.clockOffsetS = -0.25
        let text = Metrics.render(s, now: 1_000_000)
        let r = try Self.promtoolAccepts(text)
        #expect(r.status == 0, "promtool check metrics:\n\(r.stdout)\(r.stderr)\n\(text)")
        #expect(Self.value(text, "gpstrackd_start_time_seconds") == 999_900)
        #expect(
            Self.value(text, "gpstrackd_fix_mode", #"{device="/dev/tty\"USB0\\"}"#) == 3,
            "the device label escaped:\n\(text)")
        #expect(Self.value(text, "gpstrackd_fix_error_meters", #"{device="/dev/tty\"USB0\\"}"#) == 4.5)
        #expect(Self.value(text, "gpstrackd_fixes_total", #"{outcome="accepted",reason=""}"#) == 40)
        #expect(Self.value(text, "gpstrackd_fixes_total", #"{outcome="rejected",reason="low_accuracy"}"#) == 2)
        #expect(Self.value(text, "gpstrackd_fixes_total", #"{outcome="rejected",reason="outlier_jump"}"#) == 1)
        #expect(Self.value(text, "gpstrackd_odometer_meters") == 1234.5)
        #expect(Self.value(text, "gpstrackd_fences", #"{state="inside"}"#) == 1)
        #expect(Self.value(text, "gpstrackd_fences", #"{state="outside"}"#) == 2)
        #expect(Self.value(text, "gpstrackd_storage_degraded") == 1)
        #expect(Self.value(text, "gpstrackd_build_info", #"{version="0.2.0"}"#) == 1)
        #expect(Self.value(text, "gpstrackd_events_total", #"{kind="trip_end"}"#) == 2)
        #expect(Self.value(text, "gpstrackd_events_total", #"{kind="fix_lost"}"#) == 1)
        #expect(
            Self.value(text, "gpstrackd_events_total", #"{kind="guard_breach"}"#) == 0,
            "an alert's kind is there before it happens")
        #expect(Self.value(text, "gpstrackd_trips_total") == 5)
        #expect(Self.value(text, "gpstrackd_clock_offset_seconds") == -0.25)
        #expect(Self.value(text, "gpstrackd_satellites_used", #"{device="/dev/ttyACM0"}"#) == 8)
        #expect(Self.value(text, "gpstrackd_satellites_seen", #"{device="/dev/ttyACM0"}"#) == 16)
        #expect(Self.value(text, "gpstrackd_dop", #"{device="/dev/ttyACM0",kind="hdop"}"#) == 1.01)
        #expect(Self.value(text, "gpstrackd_dop", #"{device="/dev/ttyACM0",kind="pdop"}"#) == 1.71)
        #expect(Self.samples(text, "gpstrackd_dop").count == 2, "no VDOP from gpsd, no VDOP series")
        #expect(Self.value(text, "gpstrackd_gpsd_reconnects_total") == 3)
        // Each receiver by its device; one without an error estimate has no error series.
        s.receivers = [
            .init(path: "/dev/ttyACM0", followed: true, mode: 3, eph: 4.5, lastFix: nil, ignored: 0),
            .init(path: "/dev/ttyUSB1", followed: false, mode: 2, eph: nil, lastFix: nil, ignored: 17),
        ]
        let two = Metrics.render(s, now: 1_000_000)
        #expect(try Self.promtoolAccepts(two).status == 0)
        #expect(Self.value(two, "gpstrackd_receiver_followed", #"{device="/dev/ttyACM0"}"#) == 1)
        #expect(Self.value(two, "gpstrackd_receiver_followed", #"{device="/dev/ttyUSB1"}"#) == 0)
        #expect(Self.value(two, "gpstrackd_receiver_fix_mode", #"{device="/dev/ttyUSB1"}"#) == 2)
        #expect(Self.value(two, "gpstrackd_receiver_ignored_fixes_total", #"{device="/dev/ttyUSB1"}"#) == 17)
        #expect(Self.samples(two, "gpstrackd_receiver_error_meters").map(\.labels) == [#"{device="/dev/ttyACM0"}"#])
        // A receiver gone from the list takes its series with it.
        s.receivers.removeLast()
        #expect(!Metrics.render(s, now: 1_000_000).contains("ttyUSB1"))
        s.receivers = []
        // Without a fix, no age or error series (they would be stale), and mode 0.
        s.fix = nil
        let idle = Metrics.render(s, now: 1_000_000)
        #expect(
            Self.samples(idle, "gpstrackd_fix_age_seconds").isEmpty
                && Self.samples(idle, "gpstrackd_fix_error_meters").isEmpty)
        #expect(Self.value(idle, "gpstrackd_fix_mode", #"{device="/dev/tty\"USB0\\"}"#) == 0)
    }

    @Test(
        .enabled(
            if: LiveHarness.available && FileManager.default.isExecutableFile(atPath: nodeExporter)
                && FileManager.default.isExecutableFile(atPath: promtool),
            "gpsd, gpsd-clients, systemd, prometheus and prometheus-node-exporter are installed by `make test`"))
    func aLiveWalksMetricsReachNodeExporter() throws {
        try LiveHarness.ensureJournald()
        let trace = LiveDaemonTests.walk(seconds: 230, seed: 28)
        let log = try LiveHarness.nmeaFile("metrics-walk.nmea", fixes: trace.fixes, padding: 400)
        let textfiles = FileManager.default.temporaryDirectory.appendingPathComponent("gpstrackd-metrics-\(getpid())")
            .path
        try FileManager.default.createDirectory(atPath: textfiles, withIntermediateDirectories: true)
        let file = textfiles + "/gpstrackd.prom"
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port)
        defer { feed.stop() }
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(port)", "--fences", try LiveDaemonTests.fencesFile("metrics.geojson")],
            extraConfig: "metrics_file = \(file)\nmetrics_interval_s = 1\n")
        try daemon.waitFor("exit")
        try daemon.waitFor("gpsd_lost", containing: "no report")

        let status = try ExecutableRunner.run(
            ["--socket", daemon.socketPath, "--json", "status"], executable: Self.ctl)
        let s = try ReplyDecoder.decode(
            StatusReply.self, line: status.stdout.split(separator: "\n").first.map(String.init) ?? "")
        let metrics = try ExecutableRunner.run(["--socket", daemon.socketPath, "metrics"], executable: Self.ctl)
        #expect(metrics.status == 0, "\(metrics.stderr)")
        let checked = try Self.promtoolAccepts(metrics.stdout)
        #expect(checked.status == 0, "promtool check metrics:\n\(checked.stdout)\(checked.stderr)")
        // The walk's figures: GeodSolve's length of the true path, the ring passed and left.
        let truth = try GeodSolveTruth.lengths([trace.truth])[0]
        let odometer = try #require(Self.value(metrics.stdout, "gpstrackd_odometer_meters"))
        #expect(odometer > 0.9 * truth && odometer < 1.05 * truth, "odometer \(odometer) m, GeodSolve \(truth) m")
        #expect(odometer == s.trip.traveledM)
        let accepted = try #require(
            Self.value(metrics.stdout, "gpstrackd_fixes_total", #"{outcome="accepted",reason=""}"#))
        #expect(accepted == Double(s.counters.fixesAccepted) && accepted > 200, "accepted \(accepted)")
        // After the feed (gpsd silent) every fence is unknown, as status says.
        #expect(s.fences.map(\.state) == ["unknown"])
        #expect(Self.value(metrics.stdout, "gpstrackd_fences", #"{state="unknown"}"#) == 1)
        #expect(Self.value(metrics.stdout, "gpstrackd_gpsd_connected", #"{address="127.0.0.1:\#(port)"}"#) == 0)
        // Events by kind: what the journal holds of this daemon is the truth.
        for kind in ["gpsd_connected", "gpsd_lost", "fix_acquired", "fences_determined", "enter", "exit"] {
            let n = s.eventsTotal.counts[kind] ?? 0
            try LiveHarness.waitFor("\(n) '\(kind)' entries in the journal", timeout: 30) {
                try daemon.entries(kind).count == n
            }
            #expect(n >= 1, "\(kind): \(s.eventsTotal.counts)")
            #expect(Self.value(metrics.stdout, "gpstrackd_events_total", #"{kind="\#(kind)"}"#) == Double(n))
        }

        // The file the daemon keeps replacing reaches the same count (the walk is over).
        try LiveHarness.waitFor("the metrics file with \(Int(accepted)) accepted fixes", timeout: 30) {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            return Self.value(text, "gpstrackd_fixes_total", #"{outcome="accepted",reason=""}"#) == accepted
        }
        #expect(!FileManager.default.fileExists(atPath: file + ".tmp"), "the temporary file is renamed, not left")

        // A real node_exporter reads the file and serves its series over HTTP.
        let webPort = LiveHarness.freePort()
        let exporter = Process()
        exporter.executableURL = URL(fileURLWithPath: Self.nodeExporter)
        exporter.arguments = [
            "--web.listen-address=127.0.0.1:\(webPort)", "--collector.disable-defaults",
            "--collector.textfile", "--collector.textfile.directory=\(textfiles)",
        ]
        exporter.standardOutput = FileHandle.nullDevice
        exporter.standardError = FileHandle.nullDevice
        try exporter.run()
        defer {
            exporter.terminate()
            exporter.waitUntilExit()
        }
        var scraped = ""
        try LiveHarness.waitFor("node_exporter serving gpstrackd's series", timeout: 30) {
            scraped =
                (try? ExecutableRunner.run(
                    [
                        "-c",
                        "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen("
                            + "'http://127.0.0.1:\(webPort)/metrics', timeout=5).read().decode())",
                    ], executable: "/usr/bin/python3"
                ).stdout) ?? ""
            return scraped.contains("gpstrackd_odometer_meters")
        }
        #expect(Self.value(scraped, "gpstrackd_fixes_total", #"{outcome="accepted",reason=""}"#) == accepted)
        #expect(Self.value(scraped, "gpstrackd_odometer_meters") == odometer)
        #expect(Self.value(scraped, "gpstrackd_fences", #"{state="unknown"}"#) == 1)
        #expect(
            Self.value(scraped, "node_textfile_scrape_error") == 0, "node_exporter could not read the file:\n\(scraped)"
        )
        #expect(daemon.stop() == 0)
    }
}
