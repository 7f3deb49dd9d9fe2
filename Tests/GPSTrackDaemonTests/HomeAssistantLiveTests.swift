import Foundation
import GPSTrackCore
import GPSTrackSim
import Testing

/// Home Assistant's MQTT discovery against a running Home Assistant (2024.1.6, its MQTT
/// integration on a real mosquitto), gpstrackd following a walk through two fences on gpsfake:
/// what HA made of the payloads is read from HA's own states (its statestream) and registries.
@Suite(
    .serialized,
    .needs(
        [.gpsfake, .journal, .tool("/usr/bin/chromium", package: "chromium")] + Need.mosquitto))
struct HomeAssistantLiveTests {
    init() throws { try LiveHarness.ensureJournald() }

    static let objects = [
        "device_tracker": ["tracker"],
        "sensor": [
            "odometer_km", "today_km", "trip_km", "trip_s", "speed_kmh", "satellites", "hdop", "fix_age_s",
            "fence_ring",
            "fence_yard",
        ],
        "binary_sensor": ["moving", "fix", "guard_armed", "guard_breach", "anchor_alarm", "overspeed"],
        "button": ["guard_ack", "anchor_ack"],
    ]

    @Test func theBoxIsADeviceWithEveryEntityThroughRestartsAndBadInput() throws {
        try HomeAssistantRig.waitForVenv()
        let dir = NSTemporaryDirectory() + "gpstrackd-ha-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer {
            if ProcessInfo.processInfo.environment["GPSTRACK_KEEP"] == nil {
                try? FileManager.default.removeItem(atPath: dir)
            }
        }
        let port = LiveHarness.freePort()
        let broker = try MQTTTests.Broker(port: port, dir: dir)
        defer { broker.stop() }
        let sub = try HomeAssistantRig.Messages(port: port, file: dir + "/messages.txt")
        defer { sub.stop() }
        let ha = try HomeAssistantRig.HA(folder: dir + "/ha", brokerPort: port, sub: sub)
        defer { ha.stop() }

        // The walk: 322 m east; the ring (60 m) 150 m along it, the yard (70 m) at 290 m, where
        // the walk ends, 30 m inside.
        let node = "van\(getpid())"
        let trace = LiveDaemonTests.walk(seconds: 230, seed: 42)
        let yard = Geodesic.destination(from: LiveDaemonTests.base, azimuth: 90, distance: 290)
        let yardFeature =
            #",{"type":"Feature","id":"yard","properties":{"name":"Yard","radius":70},"geometry":{"type":"Point","coordinates":[\#(yard.longitude),\#(yard.latitude)]}}"#
        let twoFences = try LiveDaemonTests.fencesFile("ha-\(node).geojson", extra: yardFeature)
        let gpsPort = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(
            log: try LiveHarness.nmeaFile("ha-\(node).nmea", fixes: trace.fixes, padding: 5), port: gpsPort, cycle: 0.05
        )
        defer { feed.stop() }
        let config =
            "mqtt_host = 127.0.0.1\nmqtt_port = \(port)\nmqtt_topic = owntracks/test/\(node)\nmqtt_commands = on\n"
            + "mqtt_command_allow = status,guard,anchor\nha_discovery = on\nha_node_id = \(node)\nha_min_interval_s = 1\n"
        func daemon(fences: String) throws -> LiveHarness.DaemonProcess {
            try LiveHarness.DaemonProcess(
                arguments: ["--gpsd", "127.0.0.1:\(gpsPort)", "--fences", fences], extraConfig: config,
                stateDirectory: dir + "/state")
        }
        var d = try daemon(fences: twoFences)
        func entity(_ component: String, _ object: String) -> String { "\(component).gpstrackd_\(node)_\(object)" }
        let every = Self.objects.flatMap { c, objects in objects.map { entity(c, $0) } }.sorted()

        // The walk's end: the fix is lost once the feed is over.
        try d.waitFor("fix_lost", timeout: 240)
        let status = try #require(SocketClient(path: d.socketPath).request(#"{"cmd":"status"}"#))
        let odometerKm = (status["odometer_m"] as? Double ?? -1) / 1000
        #expect(odometerKm > 0.25, "\(status)")
        try LiveHarness.waitFor("HA's odometer at the daemon's \(odometerKm) km", timeout: 60) {
            sub.state(entity("sensor", "odometer_km")).flatMap(Double.init).map { abs($0 - odometerKm) <= 0.01 } == true
        }
        for e in every {
            let state = sub.state(e)
            #expect(state != nil && state != "unavailable", "\(e): \(state ?? "no state")")
        }
        // The tracker: in the yard's zone, at the last fix accepted (its time in `fix_lost`, its
        // place read off the trace).
        #expect(sub.state(entity("device_tracker", "tracker")) == "Yard")
        let lostAt = try #require(try d.entries("fix_lost").first?["GPSTRACK_TIME"] as? String)
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let lastTime = try #require(iso.date(from: lostAt)?.timeIntervalSince1970)
        let last = try #require(trace.fixes.first { abs(($0.time ?? 0) - lastTime) < 0.5 }, "no fix at \(lostAt)")
        let lat = sub.attribute(entity("device_tracker", "tracker"), "latitude").flatMap(Double.init)
        let lon = sub.attribute(entity("device_tracker", "tracker"), "longitude").flatMap(Double.init)
        #expect(lat.map { abs($0 - last.latitude) < 1e-5 } == true, "latitude \(lat ?? .nan) against \(last.latitude)")
        #expect(
            lon.map { abs($0 - last.longitude) < 1e-5 } == true, "longitude \(lon ?? .nan) against \(last.longitude)")
        #expect(sub.attribute(entity("device_tracker", "tracker"), "source_type") == #""gps""#)
        #expect(sub.attribute(entity("sensor", "odometer_km"), "unit_of_measurement") == #""km""#)
        #expect(sub.attribute(entity("sensor", "odometer_km"), "state_class") == #""total_increasing""#)
        #expect(sub.attribute(entity("binary_sensor", "guard_breach"), "device_class") == #""tamper""#)
        // Moving, the fences and the guard as the daemon has them at the end.
        let motion = (status["motion"] as? [String: Any])?["state"] as? String
        #expect(sub.state(entity("binary_sensor", "moving")) == (motion == "moving" ? "on" : "off"), "\(motion ?? "-")")
        // Each fence's states in HA, repeats aside: the ring entered and left, the yard entered, and
        // both unknown once the fix is lost, as the daemon has them.
        // (HA's own "unavailable" and "unknown" before the first state left out.)
        func history(_ object: String) -> [String] {
            let all = sub.all("hastate/sensor/gpstrackd_\(node)_\(object)/state")
            return all.drop { $0 == "unavailable" || $0 == "unknown" }.reduce(into: []) { h, s in
                if h.last != s { h.append(s) }
            }
        }
        #expect(history("fence_ring") == ["outside", "inside", "outside", "unknown"], "\(history("fence_ring"))")
        #expect(history("fence_yard") == ["outside", "inside", "unknown"], "\(history("fence_yard"))")
        let fences = status["fences"] as? [[String: Any]] ?? []
        #expect(fences.map { $0["state"] as? String } == ["unknown", "unknown"], "\(fences)")
        let guardState = (status["guard"] as? [String: Any])?["state"] as? String
        #expect(sub.state(entity("binary_sensor", "guard_armed")) == (guardState == "armed" ? "on" : "off"))

        // Bad input on HA's status and the state topic: nothing changes, each is counted.
        let stateTopic = "gpstrackd/\(node)/state"
        let odometerBefore = sub.state(entity("sensor", "odometer_km"))
        for (topic, payload) in [
            ("homeassistant/status", "{not json"), (stateTopic, String(repeating: "x", count: 100_000)),
            (stateTopic, "not json"),
        ] {
            let r = try ExecutableRunner.run(
                ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-m", payload],
                executable: "/usr/bin/mosquitto_pub")
            #expect(r.status == 0)
        }
        func haStatus(_ d: LiveHarness.DaemonProcess) -> [String: Any] {
            ((try? SocketClient(path: d.socketPath))?.request(#"{"cmd":"status"}"#)?["ha"] as? [String: Any]) ?? [:]
        }
        try LiveHarness.waitFor("3 bad messages counted", timeout: 30) { haStatus(d)["bad_messages"] as? Int == 3 }
        try LiveHarness.waitFor("the state put back", timeout: 30) {
            let last = sub.all(stateTopic).last.flatMap(ExecutableRunner.json)
            return last?["odometer_km"] as? Double == odometerKm.rounded(decimals: 3)
                && sub.state(entity("sensor", "odometer_km")) == odometerBefore
        }
        #expect(try d.entries("ha_bad_message").count >= 1)

        // HA restarted with the broker's retained configs gone: its birth brings them back.
        ha.stop()
        let devices = ha.registry("core.device_registry", "devices").filter {
            ($0["identifiers"] as? [[String]])?.contains(["mqtt", "gpstrackd_\(node)"]) == true
        }
        #expect(devices.count == 1)
        let device = devices.first ?? [:]
        #expect(device["manufacturer"] as? String == "gpstrackd" && device["name"] as? String == node, "\(device)")
        #expect(device["sw_version"] as? String == status["version"] as? String, "\(device)")
        let uniqueIDs = Set(ha.registry("core.entity_registry", "entities").compactMap { $0["unique_id"] as? String })
        for (_, objects) in Self.objects {
            for o in objects { #expect(uniqueIDs.contains("gpstrackd_\(node)_\(o)"), "\(o)") }
        }
        for (component, objects) in Self.objects {
            for o in objects {
                _ = try ExecutableRunner.run(
                    [
                        "-h", "127.0.0.1", "-p", String(port), "-r", "-n", "-t",
                        "homeassistant/\(component)/\(node)/\(o)/config",
                    ],
                    executable: "/usr/bin/mosquitto_pub")
            }
        }
        let births = haStatus(d)["births"] as? Int ?? 0
        let mark = sub.lines().count
        try ha.start(sub: sub)
        try LiveHarness.waitFor("every entity back after HA's restart", timeout: 90) {
            let since = sub.lines().dropFirst(mark)
            return every.allSatisfy { e in
                let topic = "hastate/" + e.replacingOccurrences(of: ".", with: "/") + "/state"
                return since.last { $0.0 == topic }.map { $0.1 != "unavailable" } == true
            }
        }
        #expect(haStatus(d)["births"] as? Int ?? 0 > births)

        // The device page, as HA's own frontend draws it.
        if let id = device["id"] as? String {
            let shot = ProcessInfo.processInfo.environment["GPSTRACK_DOCS_HA_SCREENSHOT"] ?? dir + "/device.png"
            let script = ExecutableRunner.packageRoot.appendingPathComponent("Tests/ha/ha_screenshot.py").path
            let r = try ExecutableRunner.run(
                [
                    script, "http://127.0.0.1:\(ha.httpPort)/config/devices/device/\(id)", shot, "Odometer",
                    "Guard breach",
                    "Fence Yard", "Acknowledge guard alarm",
                ],
                executable: HomeAssistantRig.python)
            #expect(r.status == 0, "\(r.stderr)")
        }

        // gpstrackd stops: every entity unavailable.
        let stopped = sub.lines().count
        #expect(d.stop() == 0)
        try LiveHarness.waitFor("every entity unavailable", timeout: 30) {
            let since = sub.lines().dropFirst(stopped)
            return every.allSatisfy { e in
                let topic = "hastate/" + e.replacingOccurrences(of: ".", with: "/") + "/state"
                return since.last { $0.0 == topic }?.1 == "unavailable"
            }
        }

        // Restarted with the yard alone: the ring's entity is removed (an empty retained config),
        // and HA no longer has it.
        let yardOnly = try ExecutableRunner.temporaryFile(
            "ha-\(node)-yard.geojson",
            contents: #"{"type":"FeatureCollection","features":["# + yardFeature.dropFirst() + "]}")
        let restarted = sub.lines().count
        d = try daemon(fences: yardOnly)
        let ringTopic = "homeassistant/sensor/\(node)/fence_ring/config"
        try LiveHarness.waitFor("the ring's config removed", timeout: 60) {
            sub.lines().dropFirst(restarted).contains { $0.0 == ringTopic && $0.1.isEmpty }
        }
        try LiveHarness.waitFor("the yard's entity available again", timeout: 60) {
            sub.lines().dropFirst(restarted).last { $0.0 == "hastate/sensor/gpstrackd_\(node)_fence_yard/state" }
                .map { $0.1 != "unavailable" } == true
        }
        #expect(d.stop() == 0)
        ha.stop()
        let after = Set(ha.registry("core.entity_registry", "entities").compactMap { $0["unique_id"] as? String })
        #expect(!after.contains("gpstrackd_\(node)_fence_ring") && after.contains("gpstrackd_\(node)_fence_yard"))
    }
}
