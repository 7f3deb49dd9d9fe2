import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Issue 28's "must show": a live daemon plays a seeded day (three trips, `trip_mode = auto`,
/// the guard, three fences, MQTT to mosquitto) with `metrics_file` in a directory a real
/// node_exporter's textfile collector reads; its HTTP scrape, in the last stop and after the
/// feed, has every series the issue lists, with the day's figures, and promtool accepts the
/// daemon's text.
@Suite(.serialized)
struct MetricsDayTests {
    /// The series issue 28 lists (item 2 and its Names), in its words' order: written from the
    /// issue, not from the daemon's output.
    static let issueSeries = [
        "gpstrackd_fix_mode", "gpstrackd_fix_age_seconds", "gpstrackd_fix_error_meters",
        "gpstrackd_satellites_used", "gpstrackd_satellites_seen", "gpstrackd_dop",
        "gpstrackd_fixes_total", "gpstrackd_odometer_meters", "gpstrackd_distance_today_meters",
        "gpstrackd_motion", "gpstrackd_trip_open", "gpstrackd_trips_total", "gpstrackd_fences",
        "gpstrackd_events_total",
        "gpstrackd_guard", "gpstrackd_gpsd_connected", "gpstrackd_gpsd_reconnects_total",
        "gpstrackd_storage_degraded", "gpstrackd_storage_dropped_total",
        "gpstrackd_outbox_messages", "gpstrackd_outbox_oldest_age_seconds", "gpstrackd_uplink_last_success_seconds",
        "gpstrackd_clock_offset_seconds", "gpstrackd_start_time_seconds", "gpstrackd_build_info",
    ]
    /// Those that are a receiver's: they carry its `device` label.
    static let deviceSeries = [
        "gpstrackd_fix_mode", "gpstrackd_fix_age_seconds", "gpstrackd_fix_error_meters",
        "gpstrackd_satellites_used", "gpstrackd_satellites_seen", "gpstrackd_dop",
    ]

    static func scrape(_ port: Int) -> String {
        (try? ExecutableRunner.run(
            [
                "-c",
                "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen("
                    + "'http://127.0.0.1:\(port)/metrics', timeout=5).read().decode())",
            ], executable: "/usr/bin/python3"
        ).stdout) ?? ""
    }

    static func v(_ text: String, _ name: String, _ labels: String = "") -> Double? {
        MetricsTests.value(text, name, labels)
    }

    /// Three circles: 150 m round the last stop (inside), 100 m round the day's start and
    /// 50 m 5 km north of it (outside); the expected states from GeodSolve.
    static func fences(end: Coordinate, start: Coordinate) throws -> (path: String, inside: Int, outside: Int) {
        let circles = [
            ("home", end, 150.0), ("start", start, 100.0),
            ("far", Geodesic.destination(from: start, azimuth: 0, distance: 5000), 50.0),
        ]
        var inside = 0
        var outside = 0
        for (id, center, radius) in circles {
            let d = try GeodSolveTruth.distance(center, end)
            try #require(abs(d - radius) > 40, "\(id): the last stop \(d) m from the centre is clear of the edge")
            if d < radius { inside += 1 } else { outside += 1 }
        }
        let features = circles.map { id, c, r in
            #"{"type":"Feature","id":"\#(id)","properties":{"radius":\#(r)},"geometry":{"type":"Point","coordinates":[\#(c.longitude),\#(c.latitude)]}}"#
        }
        let path = try ExecutableRunner.temporaryFile(
            "metrics-day.geojson",
            contents: #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
        return (path, inside, outside)
    }

    @Test(
        .enabled(
            if: LiveHarness.available && FileManager.default.isExecutableFile(atPath: MetricsTests.nodeExporter)
                && FileManager.default.isExecutableFile(atPath: MetricsTests.promtool)
                && FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto"),
            "gpsd, gpsd-clients, systemd, mosquitto, prometheus and prometheus-node-exporter are installed by `make test`"
        ))
    func aSeededDayThroughNodeExporter() throws {
        try LiveHarness.ensureJournald()
        let began = Date().timeIntervalSince1970
        // LiveTripTests' short day, its last stop 30 min long (the guard arms after 10).
        let day = DayScenario.make(
            seed: 28, firstDriveM: 2000, walkM: 600, secondDriveM: 2000,
            shortPark: 420, longPark: 900, lastPark: 1800)
        let trace = Simulator.run(day.scenario, seed: 28)
        let t0 = try #require(trace.fixes.first?.time)
        let tLast = try #require(trace.fixes.last?.time)
        try #require(
            Calendar.current.isDate(Date(timeIntervalSince1970: t0), inSameDayAs: Date(timeIntervalSince1970: tLast)),
            "the day is one local day")
        let fed = trace.fixes.filter { $0.mode == 3 }.count
        let truths = try GeodSolveTruth.lengths(day.trips.map { Array(trace.truth[$0.start...$0.end]) })
        let truth = truths.reduce(0, +)
        let fences = try Self.fences(end: try #require(trace.truth.last), start: day.scenario.start)

        let dir = NSTemporaryDirectory() + "gpstrackd-metrics-day-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir + "/textfile", withIntermediateDirectories: true)
        let mqttPort = LiveHarness.freePort()
        let broker = try MQTTTests.Broker(port: mqttPort, dir: dir)
        defer { broker.stop() }
        let webPort = LiveHarness.freePort()
        let exporter = Process()
        exporter.executableURL = URL(fileURLWithPath: MetricsTests.nodeExporter)
        exporter.arguments = [
            "--web.listen-address=127.0.0.1:\(webPort)", "--collector.disable-defaults",
            "--collector.textfile", "--collector.textfile.directory=\(dir)/textfile",
        ]
        exporter.standardOutput = FileHandle.nullDevice
        exporter.standardError = FileHandle.nullDevice
        try exporter.run()
        defer {
            exporter.terminate()
            exporter.waitUntilExit()
        }

        let log = try ClockCheckTests.withSatellitesInView(
            try LiveHarness.nmeaFile("metrics-day.nmea", fixes: trace.fixes, padding: 400))
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port)
        defer { feed.stop() }
        let gpsd = try TPVRecorder(
            port: port, file: try ExecutableRunner.temporaryFile("metrics-day-tpv.txt", contents: ""))
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(port)", "--fences", fences.path],
            extraConfig:
                "trip_mode = auto\nguard = on\nmetrics_file = \(dir)/textfile/gpstrackd.prom\nmetrics_interval_s = 1\n"
                + "mqtt_host = 127.0.0.1\nmqtt_port = \(mqttPort)\nmqtt_topic = owntracks/fleet/day\n")

        // In the last stop, with a fix: the third trip has ended and the scrape says so.
        try daemon.waitFor("trip_end", count: 3, timeout: 300)
        var stop = ""
        try LiveHarness.waitFor("node_exporter serving three trips", timeout: 30) {
            stop = Self.scrape(webPort)
            return Self.v(stop, "gpstrackd_trips_total") == 3
        }
        let missing = Self.issueSeries.filter { MetricsTests.samples(stop, $0).isEmpty }
        #expect(missing.isEmpty, "series the issue lists missing from the scrape: \(missing)\n\(stop)")
        #expect(Self.v(stop, "node_textfile_scrape_error") == 0, "node_exporter could not read the file")
        let devices = Set(
            Self.deviceSeries.flatMap { name in
                MetricsTests.samples(stop, name).map {
                    $0.labels.replacingOccurrences(of: #",kind="[a-z]+""#, with: "", options: .regularExpression)
                }
            })
        #expect(
            devices.count == 1 && devices.first?.hasPrefix(#"{device="/dev/pts/"#) == true,
            "one receiver, gpsfake's pty: \(devices)")
        let device = devices.first ?? ""
        #expect(Self.v(stop, "gpstrackd_fix_mode", device) == 3)
        // A bracket, not a bound on speed: a fix of this feed is no older than the test (a fix's
        // own time, March 2026, against the system clock would be months).
        let age = try #require(Self.v(stop, "gpstrackd_fix_age_seconds", device))
        #expect(age >= 0 && age <= Date().timeIntervalSince1970 - began, "a fix of the feed: \(age) s")
        // The written GSA: nine satellites used; the GSV: twelve seen; PDOP 1.6 and VDOP 1.2 x HDOP.
        #expect(Self.v(stop, "gpstrackd_satellites_used", device) == 9)
        #expect(Self.v(stop, "gpstrackd_satellites_seen", device) == 12)
        let dop = { (kind: String) in Self.v(stop, "gpstrackd_dop", device.dropLast() + #",kind="\#(kind)"}"#) ?? .nan }
        // The GSA writes each DOP to one decimal: each is off by up to 0.05, so k x HDOP by up to
        // k x 0.05 (VDOP: 0.11 in all, PDOP: 0.13); 0.14 bounds both (vdop 1.3 at hdop 1.0 was
        // once 0.1000000000000001 off and failed a bound of 0.1).
        #expect(
            abs(dop("pdop") - 1.6 * dop("hdop")) <= 0.14 && abs(dop("vdop") - 1.2 * dop("hdop")) <= 0.14,
            "pdop \(dop("pdop")), vdop \(dop("vdop")), hdop \(dop("hdop"))")
        #expect(Self.v(stop, "gpstrackd_fences", #"{state="inside"}"#) == Double(fences.inside))
        #expect(Self.v(stop, "gpstrackd_fences", #"{state="outside"}"#) == Double(fences.outside))
        #expect(Self.v(stop, "gpstrackd_fences", #"{state="unknown"}"#) == 0)
        #expect(
            Self.v(stop, "gpstrackd_trip_open") == 0 && Self.v(stop, "gpstrackd_motion", #"{state="stopped"}"#) == 1)
        #expect(Self.v(stop, "gpstrackd_gpsd_connected", #"{address="127.0.0.1:\#(port)"}"#) == 1)
        let checkedStop = try MetricsTests.promtoolAccepts(
            try String(contentsOfFile: dir + "/textfile/gpstrackd.prom", encoding: .utf8))
        #expect(
            checkedStop.status == 0, "promtool check metrics on the file:\n\(checkedStop.stdout)\(checkedStop.stderr)")

        // After the feed: every fix counted, the day's distance, the outbox emptied.
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        let text = try ExecutableRunner.run(["--socket", daemon.socketPath, "metrics"], executable: MetricsTests.ctl)
            .stdout
        let checked = try MetricsTests.promtoolAccepts(text)
        #expect(checked.status == 0, "promtool check metrics:\n\(checked.stdout)\(checked.stderr)")
        var end = ""
        // A referee: beside make test-repeat's CPU hog, 60 s ran out once (run 2 of 3).
        try LiveHarness.waitFor("node_exporter serving the feed's end with the outbox empty", timeout: 300) {
            end = Self.scrape(webPort)
            return Self.v(end, "gpstrackd_gpsd_connected", #"{address="127.0.0.1:\#(port)"}"#) == 0
                && Self.v(end, "gpstrackd_outbox_messages", #"{uplink="mqtt"}"#) == 0
        }
        let judged = MetricsTests.samples(end, "gpstrackd_fixes_total").filter {
            !$0.labels.contains(#"reason="no_fix""#)
        }
        #expect(
            judged.map(\.value).reduce(0, +) == Double(fed), "every fix of the feed judged once: \(judged), fed \(fed)")
        let accepted = Self.v(end, "gpstrackd_fixes_total", #"{outcome="accepted",reason=""}"#) ?? 0
        // The fixes whose error gpsd puts above max_horizontal_error_m's 50 m (mostly the poor
        // sky's, by gpsd's own reports beside the daemon) are rejected, and few others.
        let vague = gpsd.fixes().values.filter { tpv in
            let eph = (tpv["eph"] as? Double) ?? hypot(tpv["epx"] as? Double ?? 0, tpv["epy"] as? Double ?? 0)
            return tpv["mode"] as? Int == 3 && eph > 50
        }.count
        let low = Self.v(end, "gpstrackd_fixes_total", #"{outcome="rejected",reason="low_accuracy"}"#) ?? 0
        #expect(
            vague > 100 && abs(low - Double(vague)) <= 0.01 * Double(fed),
            "low_accuracy \(low), the feed's eph > 50 m: \(vague)")
        #expect(accepted >= Double(fed - vague) - 0.01 * Double(fed), "accepted \(accepted) of \(fed): \(judged)")
        let odometer = try #require(Self.v(end, "gpstrackd_odometer_meters"))
        #expect(abs(odometer / truth - 1) <= 0.03, "odometer \(odometer) m, GeodSolve \(truth) m over the trips")
        let today = try #require(Self.v(end, "gpstrackd_distance_today_meters"))
        #expect(
            abs(today / truth - 1) <= 0.03 && abs(today - odometer) <= 0.01, "today \(today) m, odometer \(odometer) m")
        #expect(Self.v(end, "gpstrackd_trips_total") == Double(day.trips.count))
        #expect(Self.v(end, "gpstrackd_events_total", #"{kind="trip_start"}"#) == Double(day.trips.count))
        #expect(Self.v(end, "gpstrackd_events_total", #"{kind="trip_end"}"#) == Double(day.trips.count))
        // The 15 min park armed the guard and driving off breached it; nobody acknowledged, so the
        // 30 min park does not arm (gpstrackd(8), PARKED GUARD): refused once, the guard waiting.
        #expect(Self.v(end, "gpstrackd_guard", #"{state="waiting"}"#) == 1, "a breach latched: not armed again")
        #expect(Self.v(end, "gpstrackd_events_total", #"{kind="guard_armed"}"#) == 1)
        #expect(Self.v(end, "gpstrackd_events_total", #"{kind="guard_breach"}"#) ?? 0 >= 1)
        #expect(Self.v(end, "gpstrackd_events_total", #"{kind="guard_arm_refused"}"#) == 1)
        #expect(Self.v(end, "gpstrackd_fences", #"{state="unknown"}"#) == 3, "gpsd silent: every fence unknown")
        #expect(MetricsTests.samples(end, "gpstrackd_fix_age_seconds").isEmpty, "no fix, no fix age")
        // The journal holds the truth of connections and events (it may lag the scrape a little):
        // a connection made again is logged "again after" (the first may be refused while
        // gpsfake's gpsd starts).
        let reconnects = try #require(Self.v(end, "gpstrackd_gpsd_reconnects_total"))
        try LiveHarness.waitFor("\(Int(reconnects)) gpsd_connected entries 'again after'", timeout: 30) {
            try daemon.entries("gpsd_connected", containing: "again after").count == Int(reconnects)
        }
        #expect(
            Self.v(stop, "gpstrackd_gpsd_reconnects_total") == reconnects, "no connection made again after the feed")
        for kind in ["enter", "exit", "fences_determined", "clock_offset", "guard_armed"] {
            let n = try #require(Self.v(end, "gpstrackd_events_total", #"{kind="\#(kind)"}"#))
            try LiveHarness.waitFor("\(Int(n)) '\(kind)' entries", timeout: 30) {
                try daemon.entries(kind).count == Int(n)
            }
            #expect(n >= 1, "\(kind) happened on the day")
        }
        #expect(Self.v(end, "gpstrackd_storage_degraded") == 0)
        #expect(Self.v(end, "gpstrackd_storage_dropped_total", #"{kind="event"}"#) == 0)
        #expect(Self.v(end, "gpstrackd_storage_dropped_total", #"{kind="point"}"#) == 0)
        #expect(Self.v(end, "gpstrackd_outbox_oldest_age_seconds", #"{uplink="mqtt"}"#) == 0)
        let now = Date().timeIntervalSince1970
        let success = try #require(Self.v(end, "gpstrackd_uplink_last_success_seconds", #"{uplink="mqtt"}"#))
        #expect(
            success >= began.rounded(.down) && success <= now + 1, "the broker confirmed during the test: \(success)")
        let started = try #require(Self.v(end, "gpstrackd_start_time_seconds"))
        #expect(started >= began.rounded(.down) - 1 && started <= now + 1)
        // The system clock against the feed's times (March 2026): now minus a fix's time.
        let offset = try #require(Self.v(end, "gpstrackd_clock_offset_seconds"))
        #expect(offset >= began - tLast - 1 && offset <= now - t0 + 1, "offset \(offset) s")
        let version = try ExecutableRunner.run(["--version"], executable: ExecutableRunner.binary).stdout
        let built = MetricsTests.samples(end, "gpstrackd_build_info")
        #expect(
            built.count == 1 && built.first?.value == 1
                && built.first.map { version.contains($0.labels.dropFirst(10).dropLast(2)) } == true,
            "\(built) against \(version)")
        #expect(daemon.stop() == 0)
    }
}
