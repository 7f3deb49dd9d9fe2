import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// OwnTracks over MQTT against a real mosquitto broker on a free loopback port.
@Suite(.serialized, .needs([.gpsfake, .journal] + Need.mosquitto))
struct MQTTTests {
    init() throws { try LiveHarness.ensureJournald() }

    final class Broker {
        let process = Process()
        let port: Int
        let dir: String
        /// `extra`: more lines of mosquitto.conf.
        init(port: Int, dir: String, passwordFile: String? = nil, extra: String = "") throws {
            self.port = port
            // Run as root, mosquitto drops to its own user, which cannot write the session store
            // in `dir`: a restarted broker would forget the subscriber's session and whatever
            // waited for it (CI's stop 48: an enter lost across the restart). It stays root here.
            var conf = "listener \(port) 127.0.0.1\npersistence true\npersistence_location \(dir)/\n" + extra
            if getuid() == 0 { conf += "user root\n" }
            self.dir = dir
            conf += passwordFile.map { "allow_anonymous false\npassword_file \($0)\n" } ?? "allow_anonymous true\n"
            try conf.write(toFile: dir + "/mosquitto.conf", atomically: true, encoding: .utf8)
            LiveHarness.unmasked(process, "/usr/sbin/mosquitto", ["-c", dir + "/mosquitto.conf"])
            process.standardOutput = FileHandle.nullDevice
            _ = FileManager.default.createFile(atPath: dir + "/mosquitto.log", contents: nil)
            process.standardError = FileHandle(forWritingAtPath: dir + "/mosquitto.log")
            try process.run()
            try LiveHarness.waitFor("the broker", timeout: 10) { Self.listening(port) }
        }
        /// Whether the stopped broker saved its sessions (mosquitto.db), and its log if not.
        func saved() -> (Bool, String) {
            let log = (try? String(contentsOfFile: dir + "/mosquitto.log", encoding: .utf8)) ?? ""
            return (FileManager.default.fileExists(atPath: dir + "/mosquitto.db"), log)
        }
        static func listening(_ port: Int) -> Bool { LiveHarness.onLoopback(port, connect) }
        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        deinit { stop() }
    }

    /// A broker on a free port keeping its files in `dir`, and a subscriber on `owntracks/#`
    /// ready behind it: how most MQTT tests begin. The caller stops the broker.
    static func brokerWithSubscriber(dir: String) throws -> (port: Int, broker: Broker, sub: Subscriber) {
        let port = LiveHarness.freePort()
        let broker = try Broker(port: port, dir: dir)
        return (port, broker, try Subscriber(port: port, file: dir + "/sub.txt"))
    }

    /// A persistent-session subscriber (QoS 1), so messages wait for it across a broker restart.
    /// Ready when made: its subscription has carried a probe (`_type: probe`) back through the
    /// broker; a process that exists may not have subscribed yet.
    final class Subscriber {
        let process = Process()
        let output: String
        init(port: Int, file: String) throws {
            output = file
            _ = FileManager.default.createFile(atPath: file, contents: nil)
            LiveHarness.unmasked(
                process, "/usr/bin/mosquitto_sub",
                [
                    "-h", "127.0.0.1", "-p", String(port), "-c", "-i", "gpstrackd-test-\(port)", "-q", "1", "-v", "-t",
                    "owntracks/#",
                ])
            process.standardOutput = FileHandle(forWritingAtPath: file)
            process.standardError = FileHandle.nullDevice
            self.port = port
            try process.run()
            try probe()
        }
        let port: Int
        private var probes = 0
        /// Sends a probe (`_type: probe`) through the broker until one comes back: one sent
        /// before the subscription is lost. Made again later, it also shows that what was
        /// published before it has been delivered.
        func probe() throws {
            probes += 1
            let topic = "owntracks/probe/\(port)-\(getpid())-\(probes)"
            try LiveHarness.waitFor("the subscriber's probe through the broker", timeout: 30) {
                if messages().contains(where: { $0.0 == topic }) { return true }
                let probe = try ExecutableRunner.run(
                    ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-m", #"{"_type":"probe"}"#],
                    executable: "/usr/bin/mosquitto_pub")
                return probe.status == 0 && messages().contains { $0.0 == topic }
            }
        }
        /// (topic, payload) pairs received so far.
        func messages() -> [(String, [String: Any])] {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line -> (String, [String: Any])? in
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, let json = ExecutableRunner.json(String(parts[1])) else { return nil }
                return (String(parts[0]), json)
            }
        }
        /// Ends the subscriber; its session stays with the broker.
        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        deinit { stop() }
    }

    @Test func payloadsAndNothingLostAcrossABrokerRestart() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-mqtt-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let mqttPort = LiveHarness.freePort()
        var broker = try Broker(port: mqttPort, dir: dir)
        let sub = try Subscriber(port: mqttPort, file: dir + "/sub.txt")

        let trace = LiveDaemonTests.walk(seconds: 230, seed: 21)
        let log = try LiveHarness.nmeaFile("mqtt.nmea", fixes: trace.fixes, padding: 100)
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)", "--fences", try LiveDaemonTests.fencesFile("mqtt.geojson")],
            extraConfig:
                "mqtt_host = 127.0.0.1\nmqtt_port = \(mqttPort)\nmqtt_topic = owntracks/fleet/box1\nmqtt_min_interval_s = 5\nmqtt_min_distance_m = 5\n"
        )
        try daemon.waitFor("mqtt_connected", timeout: 20)
        let started = Int(Date().timeIntervalSince1970)
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.03)
        defer { feed.stop() }
        let gpsd = try TPVRecorder(port: gpsPort, file: dir + "/tpv.txt")
        // The first location is out: stop the broker while the walk goes on towards the fence.
        try LiveHarness.waitFor("a location", timeout: 60) {
            sub.messages().contains { $0.1["_type"] as? String == "location" }
        }
        broker.stop()
        let (saved, brokerLog) = broker.saved()
        try #require(saved, "the broker kept the subscriber's session for its restart: \(brokerLog)")
        try daemon.waitFor("mqtt_lost", timeout: 20)
        try daemon.waitFor("enter", timeout: 60)
        broker = try Broker(port: mqttPort, dir: dir)
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 120)
        try LiveHarness.waitFor("the leave transition", timeout: 60) {
            sub.messages().contains { $0.1["event"] as? String == "leave" }
        }
        #expect(try daemon.entries("mqtt_lost").count == 1, "one entry per outage")

        let messages = sub.messages()
        let transitions = messages.filter { $0.1["_type"] as? String == "transition" }
        #expect(
            transitions.map { $0.1["event"] as? String ?? "" } == ["enter", "leave"], "every transition, in order, once"
        )
        // Each message against the fix it came from, as gpsd reported it (gpspipe beside the
        // daemon), and the fence's geometry measured with GeodSolve.
        let reported = gpsd.fixes()
        // gpspipe connects about when the daemon does: it may miss the first fixes, no later one.
        let firstReported = try #require(reported.keys.min(), "gpspipe recorded no fix")
        // As the fences file has it.
        let center = Geodesic.destination(from: LiveDaemonTests.base, azimuth: 90, distance: 150)
        func from(_ m: [String: Any]) throws -> (fix: [String: Any], centreM: Double) {
            let fix = try #require(
                reported[m["tst"] as? Int ?? -1], "gpsd reported no fix at tst \(m["tst"] ?? "-"): \(m)")
            let lat = try #require(fix["lat"] as? Double)
            let lon = try #require(fix["lon"] as? Double)
            #expect(
                abs((m["lat"] as? Double ?? .nan) - lat) < 1e-7 && abs((m["lon"] as? Double ?? .nan) - lon) < 1e-7,
                "\(m) from \(fix)")
            // OwnTracks acc: gpsd's eph in whole metres.
            #expect(m["acc"] as? Int == max(1, Int(try #require(fix["eph"] as? Double).rounded())), "\(m) from \(fix)")
            #expect(m["tid"] as? String == tid, "OwnTracks' tid: the device's (the host name's) last two characters")
            return (fix, try GeodSolveTruth.distance(center, Coordinate(latitude: lat, longitude: lon)))
        }
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        let tid = String(host.filter { $0.isLetter || $0.isNumber }.suffix(2)).lowercased()
        // hysteresis_m (10 m), or the fix's error estimate when larger, beyond the 60 m radius.
        func margin(_ fix: [String: Any]) -> Double { max(10, fix["eph"] as? Double ?? .infinity) }
        let waypoints = try #require(messages.first { $0.1["_type"] as? String == "waypoints" })
        let loadedAt = try #require((waypoints.1["waypoints"] as? [[String: Any]])?.first?["tst"] as? Int)
        #expect(
            loadedAt >= started - 60 && loadedAt <= Int(Date().timeIntervalSince1970),
            "the fences' load time, by the wall clock")
        for (topic, t) in transitions {
            #expect(topic == "owntracks/fleet/box1/event")
            #expect(t["desc"] as? String == "Ring road" && t["rid"] as? String == "ring" && t["t"] as? String == "c")
            #expect(t["wtst"] as? Int == loadedAt, "wtst: when the fence was loaded, as the waypoint says")
            let (fix, d) = try from(t)
            if t["event"] as? String == "enter" {
                #expect(d <= 60 - margin(fix) + 0.5, "entered \(d) m from the centre, eph \(fix["eph"] ?? "-")")
            } else {
                #expect(d >= 60 + margin(fix) - 0.5, "left \(d) m from the centre, eph \(fix["eph"] ?? "-")")
            }
        }
        let locations = messages.filter { $0.1["_type"] as? String == "location" }
        #expect(locations.count >= 3)
        #expect(
            locations.filter { $0.1["tst"] as? Int ?? 0 >= firstReported }.count >= 3,
            "locations compared with their fixes")
        var inside = 0
        var outside = 0
        for (topic, l) in locations {
            #expect(topic == "owntracks/fleet/box1")
            #expect(l["t"] as? String == "t")
            if l["tst"] as? Int ?? 0 < firstReported { continue }
            let (fix, d) = try from(l)
            let alt = try #require(fix["altMSL"] as? Double, "above sea level")
            let speed = try #require(fix["speed"] as? Double)
            let track = try #require(fix["track"] as? Double)
            #expect(l["alt"] as? Int == Int(alt.rounded()), "alt in whole metres: \(l) from \(fix)")
            #expect(l["vel"] as? Int == Int((speed * 3.6).rounded()), "vel in km/h: \(l) from \(fix)")
            #expect(l["cog"] as? Int == Int(track.rounded()) % 360, "cog in degrees: \(l) from \(fix)")
            // Inside by more than the margin, the fix would enter the ring if it were not in it
            // already; outside by more, it would leave.
            let regions = l["inregions"] as? [String]
            if d < 60 - margin(fix) - 0.5 {
                inside += 1
                #expect(regions == ["Ring road"], "\(d) m from the centre: \(l)")
            }
            if d > 60 + margin(fix) + 0.5 {
                outside += 1
                #expect(regions == [], "\(d) m from the centre: \(l)")
            }
        }
        #expect(inside >= 1 && outside >= 1, "locations well inside (\(inside)) and well outside (\(outside)) the ring")
        // Locations are rate limited by fix time: at least 5 s apart.
        let times = locations.compactMap { $0.1["tst"] as? Int }
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 5 || $1 < $0 })
        #expect(waypoints.0 == "owntracks/fleet/box1/waypoints")
        let wp = try #require((waypoints.1["waypoints"] as? [[String: Any]])?.first)
        #expect(wp["rid"] as? String == "ring" && wp["rad"] as? Int == 60 && wp["desc"] as? String == "Ring road")
        let status = try #require(
            try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#)?["mqtt"] as? [String: Any])
        #expect(status["connected"] as? Bool == true && status["outbox"] as? Int == 0)
        #expect(daemon.stop() == 0)
    }

    /// Issue 11: a crossing between two sparse fixes is published like any transition; `acc`
    /// is present and at least 1 even though the receiver (RMC sentences only) gives no error
    /// estimate; a corridor is no waypoint.
    @Test func crossingsAndAccuracyWithoutAnErrorEstimate() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-mqtt-cross-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let mqttPort = LiveHarness.freePort()
        let broker = try Broker(port: mqttPort, dir: dir)
        defer { broker.stop() }
        let sub = try Subscriber(port: mqttPort, file: dir + "/sub.txt")
        // 25 m/s east, one fix every 5 s; a 20 m gate half-way between two fixes.
        let steps = Array(repeating: Scenario.Step(speed: 25, heading: 90), count: 80)
        let trace = Simulator.run(Scenario(name: "sparse", start: LiveDaemonTests.base, steps: steps), seed: 31)
        let t0 = trace.fixes.first?.time ?? 0
        let sparse = trace.fixes.filter { $0.mode == 3 && Int(($0.time ?? 0) - t0) % 5 == 0 }
        var lines = ["# RMC only: no DOPs, no GST"]
        // gpsd reads the feed whether or not a client watches: 20 s (at 0.05 s a sentence)
        // without a fix first, so that a daemon that connects late, after its backoff under load
        // (0.5, 1, 2, 4, 8 s), still gets every fix.
        for k in stride(from: 400, to: 0, by: -1) {
            lines += NMEAWriter.sentences(Fix(mode: 1, time: t0 - Double(k))).filter { $0.contains("RMC,") }
        }
        for f in sparse { lines += NMEAWriter.sentences(f).filter { $0.contains("RMC,") } }
        let log = try ExecutableRunner.temporaryFile("sparse.nmea", contents: lines.joined(separator: "\n") + "\n")
        let gate = trace.truth[32]
        let a = trace.truth[10]
        let b = Geodesic.destination(from: trace.truth[10], azimuth: 0, distance: 500)
        let fences = try ExecutableRunner.temporaryFile(
            "sparse.geojson",
            contents: """
                {"type":"FeatureCollection","features":[
                 {"type":"Feature","id":"gate","properties":{"radius":20},"geometry":{"type":"Point","coordinates":[\(gate.longitude),\(gate.latitude)]}},
                 {"type":"Feature","id":"route","properties":{"width_m":40},
                  "geometry":{"type":"LineString","coordinates":[[\(a.longitude),\(a.latitude)],[\(b.longitude),\(b.latitude)]]}}]}
                """)
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)", "--fences", fences],
            extraConfig:
                "mqtt_host = 127.0.0.1\nmqtt_port = \(mqttPort)\nmqtt_topic = owntracks/fleet/box3\nmqtt_min_interval_s = 1\nmqtt_min_distance_m = 5\n"
        )
        try daemon.waitFor("mqtt_connected", timeout: 20)
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.05)
        defer { feed.stop() }
        try LiveHarness.waitFor("the gate's leave transition", timeout: 90) {
            sub.messages().contains { $0.1["event"] as? String == "leave" && $0.1["rid"] as? String == "gate" }
        }
        let messages = sub.messages()
        let gateTransitions = messages.filter {
            $0.1["_type"] as? String == "transition" && $0.1["rid"] as? String == "gate"
        }
        #expect(gateTransitions.map { $0.1["event"] as? String ?? "" } == ["enter", "leave"])
        // The broker's leave came after the enter was journaled, but journald may not have read
        // the entry yet (the tests' load): wait for it, then judge it.
        func gateEnters() throws -> [[String: Any]] {
            try daemon.entries("enter").filter { $0["GPSTRACK_FENCE"] as? String == "gate" }
        }
        try LiveHarness.waitFor("the gate's enter entry", timeout: 30) { try !gateEnters().isEmpty }
        let enters = try gateEnters()
        #expect(
            enters.count == 1 && enters.first?["GPSTRACK_CROSSED"] as? String == "1",
            "the gate was passed between two fixes")
        let located = messages.filter { ["location", "transition"].contains($0.1["_type"] as? String ?? "") }
        #expect(located.count >= 4)
        for (_, m) in located { #expect((m["acc"] as? Int ?? 0) >= 1, "acc present and at least 1: \(m)") }
        let waypoints = try #require(messages.first { $0.1["_type"] as? String == "waypoints" })
        #expect(
            (waypoints.1["waypoints"] as? [[String: Any]])?.compactMap { $0["rid"] as? String } == ["gate"],
            "a corridor is no waypoint")
        #expect(daemon.stop() == 0)
    }

    @Test func theOutboxSurvivesARestartWhileTheBrokerIsDown() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-mqtt-outbox-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let mqttPort = LiveHarness.freePort()
        let config = "mqtt_host = 127.0.0.1\nmqtt_port = \(mqttPort)\nmqtt_topic = owntracks/fleet/box2\n"
        let fences = try LiveDaemonTests.fencesFile("outbox.geojson")
        // No broker yet: the walk crosses the fence and both transitions wait in the outbox.
        let trace = LiveDaemonTests.walk(seconds: 230, seed: 23)
        let gpsPort = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(
            log: try LiveHarness.nmeaFile("outbox.nmea", fixes: trace.fixes, padding: 400), port: gpsPort)
        defer { feed.stop() }
        let first = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)", "--fences", fences], extraConfig: config)
        try first.waitFor("exit", timeout: 90)
        let status = try #require(
            try SocketClient(path: first.socketPath).request(#"{"cmd":"status"}"#)?["mqtt"] as? [String: Any])
        #expect(status["connected"] as? Bool == false && (status["outbox"] as? Int ?? 0) >= 2)
        // The oldest waiting message was queued after the daemon started; nothing confirmed yet.
        let age = try #require(status["oldest_age_s"] as? Double)
        #expect(age > 0 && age <= Date().timeIntervalSince(first.started) + 1, "oldest_age_s \(age)")
        #expect(status["last_success"] is NSNull)
        #expect(first.stop() == 0)

        // The broker comes back; the daemon restarts on the same state directory and drains.
        let broker = try Broker(port: mqttPort, dir: dir)
        defer { broker.stop() }
        let sub = try Subscriber(port: mqttPort, file: dir + "/sub.txt")
        let second = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:1", "--fences", fences],
            extraConfig: config, stateDirectory: first.stateDirectory)
        try LiveHarness.waitFor("both transitions", timeout: 30) {
            sub.messages().filter { $0.1["_type"] as? String == "transition" }.count >= 2
        }
        let events = sub.messages().filter { $0.1["_type"] as? String == "transition" }.map {
            $0.1["event"] as? String ?? ""
        }
        #expect(events == ["enter", "leave"])
        let drained = Date()
        try LiveHarness.waitFor("the outbox drained", timeout: 30) {
            (try SocketClient(path: second.socketPath).request(#"{"cmd":"status"}"#)?["mqtt"] as? [String: Any])?[
                "outbox"] as? Int == 0
        }
        let after = try #require(
            try SocketClient(path: second.socketPath).request(#"{"cmd":"status"}"#)?["mqtt"] as? [String: Any])
        #expect(after["oldest_age_s"] is NSNull, "nothing waits: \(after)")
        let success = try #require((after["last_success"] as? String).flatMap(Timestamp.parse))
        #expect(
            success >= second.started.timeIntervalSince1970.rounded(.down)
                && success <= drained.timeIntervalSince1970 + 1)
        #expect(second.stop() == 0)
    }

    /// A journal field's value as text: journalctl gives a string, binary data as an array of
    /// bytes, and a field an entry repeats as an array of either.
    static func texts(_ value: Any) -> [String] {
        if let s = value as? String { return [s] }
        if let bytes = value as? [Int] {
            return [String(decoding: bytes.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)]
        }
        if let many = value as? [Any] { return many.flatMap(texts) }
        return ["\(value)"]
    }

    @Test func aWrongPasswordIsReportedClearly() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-mqtt-auth-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let passwd = dir + "/passwd"
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_passwd")
        make.arguments = ["-c", "-b", passwd, "box1", "right-secret"]
        try make.run()
        make.waitUntilExit()
        let port = LiveHarness.freePort()
        let broker = try Broker(port: port, dir: dir, passwordFile: passwd)
        defer { broker.stop() }
        let wrong = try ExecutableRunner.temporaryFile("wrong.pw", contents: "not-the-secret\n")
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:1"],
            extraConfig: "mqtt_host = 127.0.0.1\nmqtt_port = \(port)\nmqtt_user = box1\nmqtt_password_file = \(wrong)\n"
        )
        try daemon.waitFor("mqtt_refused", timeout: 20)
        let entry = try #require(try daemon.entries("mqtt_refused").first)
        #expect((entry["MESSAGE"] as? String)?.contains("bad user name or password") == true)
        #expect(daemon.stop() == 0)
        let logged = try daemon.entries()
        #expect(logged.count >= 3, "started, mqtt_refused and the stop's entries at least")
        for entry in logged {
            #expect(
                !entry.contains { key, value in (key + "=" + Self.texts(value).joined()).contains("not-the-secret") },
                "the password is never logged, in no field: \(entry)")
        }

        let right = try ExecutableRunner.temporaryFile("right.pw", contents: "right-secret\n")
        let good = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:1"],
            extraConfig: "mqtt_host = 127.0.0.1\nmqtt_port = \(port)\nmqtt_user = box1\nmqtt_password_file = \(right)\n"
        )
        try good.waitFor("mqtt_connected", timeout: 20)
        #expect(good.stop() == 0)
        for entry in try good.entries() {
            #expect(
                !entry.contains { key, value in (key + "=" + Self.texts(value).joined()).contains("right-secret") },
                "\(entry)")
        }
        let missing = try ExecutableRunner.run([
            "--config",
            try ExecutableRunner.temporaryFile(
                "m.conf",
                contents: "mqtt_host = 127.0.0.1\nmqtt_password_file = /nonexistent/pw\n"), "--socket", dir + "/x.sock",
            "--state-dir", dir + "/st",
        ])
        #expect(missing.status == 78)
    }
}
