import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The broker's command channel on a real mosquitto, fed by gpsfake: each action's answer by
/// value, an action off the allow list refused and logged, a malformed command answered each
/// time and logged once, and with `mqtt_commands = off` nothing run or answered.
@Suite(.serialized, .needs([.gpsfake, .journal] + Need.mosquitto))
struct MQTTCommandLiveTests {
    init() throws { try LiveHarness.ensureJournald() }

    static let password = "pw-never-published-7781"

    /// A broker, a subscriber on `owntracks/#`, the walk on gpsfake and the daemon with `config`.
    final class Rig {
        let dir: String, port: Int, base: String
        let broker: MQTTTests.Broker
        let sub: MQTTTests.Subscriber
        let feed: LiveHarness.Feed
        private(set) var daemon: LiveHarness.DaemonProcess
        let arguments: [String], config: String
        let trace = LiveDaemonTests.walk(seconds: 230, seed: 31)

        init(_ name: String, config: String) throws {
            dir = NSTemporaryDirectory() + "gpstrackd-mqtt-cmd-\(name)-\(getpid())"
            try? FileManager.default.removeItem(atPath: dir)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try (MQTTCommandLiveTests.password + "\n").write(
                toFile: dir + "/password", atomically: true, encoding: .utf8)
            port = LiveHarness.freePort()
            base = "owntracks/fleet/\(name)"
            broker = try MQTTTests.Broker(port: port, dir: dir)
            sub = try MQTTTests.Subscriber(port: port, file: dir + "/sub.txt")
            let gpsPort = LiveHarness.freePort()
            // Slow enough (a tenth of a second a sentence) that the walk lasts through the commands.
            feed = try LiveHarness.Feed(
                log: try LiveHarness.nmeaFile("cmd-\(name).nmea", fixes: trace.fixes, padding: 5),
                port: gpsPort, cycle: 0.1)
            arguments = [
                "--gpsd", "127.0.0.1:\(gpsPort)", "--fences", try LiveDaemonTests.fencesFile("cmd-\(name).geojson"),
            ]
            self.config =
                "mqtt_host = 127.0.0.1\nmqtt_port = \(port)\nmqtt_topic = \(base)\nmqtt_min_interval_s = 0\n"
                + "mqtt_user = box\nmqtt_password_file = \(dir)/password\n" + config
            daemon = try LiveHarness.DaemonProcess(
                arguments: arguments, extraConfig: self.config, stateDirectory: dir + "/state")
            try LiveHarness.waitFor("a location on the broker", timeout: 60) {
                on(base).contains { $0["_type"] as? String == "location" }
            }
        }

        /// Stops the daemon and starts it again on the same state directory.
        func restart() throws {
            #expect(daemon.stop() == 0)
            daemon = try LiveHarness.DaemonProcess(
                arguments: arguments, extraConfig: config, stateDirectory: dir + "/state")
        }

        /// Restarts the daemon and asks for its status until one comes (one sent before the
        /// daemon subscribed is lost); the status messages since the restart.
        func statusAfterARestart() throws -> ArraySlice<[String: Any]> {
            try restart()
            let before = on(base + "/status").count
            var sentAt = Date.distantPast
            try LiveHarness.waitFor("a status after the restart", timeout: 60) {
                if on(base + "/status").count > before { return true }
                if Date().timeIntervalSince(sentAt) > 2 {
                    try send(#"{"_type":"cmd","action":"status"}"#)
                    sentAt = Date()
                }
                return false
            }
            return on(base + "/status").dropFirst(before)
        }

        func on(_ topic: String) -> [[String: Any]] { sub.messages().filter { $0.0 == topic }.map(\.1) }

        func send(_ payload: String) throws {
            let r = try ExecutableRunner.run(
                ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", base + "/cmd", "-m", payload],
                executable: "/usr/bin/mosquitto_pub")
            #expect(r.status == 0)
        }

        /// Sends `payload` and waits for the `n`th message on `topic` that `match` accepts.
        @discardableResult
        func ask(_ payload: String, on topic: String, _ match: @escaping ([String: Any]) -> Bool = { _ in true }) throws
            -> [String: Any]
        {
            let before = on(topic).filter(match).count
            try send(payload)
            var found: [String: Any] = [:]
            try LiveHarness.waitFor("an answer to \(payload) on \(topic)", timeout: 30) {
                let now = on(topic).filter(match)
                if now.count > before { found = now[before] }
                return now.count > before
            }
            return found
        }

        /// Metres from the walk's true path (GeodSolve) of a message's lat and lon.
        func offPath(_ m: [String: Any]) throws -> Double {
            let at = Coordinate(latitude: m["lat"] as? Double ?? 0, longitude: m["lon"] as? Double ?? 0)
            return try GeodSolveTruth.lengths(trace.truth.map { [$0, at] }).min() ?? .infinity
        }

        deinit {
            _ = daemon.stop()
            feed.stop()
            broker.stop()
        }
    }

    @Test func eachActionIsAnsweredByValue() throws {
        let rig = try Rig(
            "on", config: "mqtt_commands = on\nmqtt_command_allow = reportLocation, status,dump,waypoints,guard,trip\n")
        let base = rig.base
        let result = base + "/cmd/result"

        let location = try rig.ask(#"{"_type":"cmd","action":"reportLocation"}"#, on: base) {
            $0["t"] as? String == "r"
        }
        #expect(location["_type"] as? String == "location" && (location["acc"] as? Int ?? 0) >= 1)
        #expect(try rig.offPath(location) < 30, "\(location)")

        let status = try rig.ask(#"{"_type":"cmd","action":"status"}"#, on: base + "/status")
        #expect(status["_type"] as? String == "status" && status["version"] as? String == ControlRequest.version)
        #expect(status["fences_loaded"] as? Int == 1 && (status["uptime_s"] as? Double ?? -1) >= 0)
        let fix = status["fix"] as? [String: Any] ?? [:]
        #expect(try rig.offPath(fix) < 30, "\(status)")
        #expect((status["mqtt"] as? [String: Any])?["topic"] as? String == base)
        #expect((status["storage"] as? [String: Any])?["state"] as? String == "ok", "\(status)")
        #expect(status["guard"] != nil && status["trip"] != nil && status["receivers"] != nil)

        let dump = try rig.ask(#"{"_type":"cmd","action":"dump"}"#, on: base) {
            $0["_type"] as? String == "configuration"
        }
        let conf = dump["gpstrackd"] as? [String: Any] ?? [:]
        #expect(
            conf["mqtt_commands"] as? Bool == true
                && conf["mqtt_command_allow"] as? [String] == [
                    "reportLocation", "status", "dump", "waypoints", "guard", "trip",
                ])
        #expect(conf["mqtt_password_file"] as? String == rig.dir + "/password" && conf["mqtt_topic"] as? String == base)
        #expect(conf["trip_mode"] as? String == "auto")
        #expect(!"\(dump)".contains(Self.password), "the password file's contents stay on the box")

        // The ring (150 m east of the start, 60 m) as an OwnTracks waypoint; one more than the connect's.
        let waypoints = try rig.ask(#"{"_type":"cmd","action":"waypoints"}"#, on: base + "/waypoints")
        let w = (waypoints["waypoints"] as? [[String: Any]] ?? []).first ?? [:]
        #expect(
            w["rid"] as? String == "ring" && w["desc"] as? String == "Ring road" && w["rad"] as? Int == 60,
            "\(waypoints)")
        let centre = Geodesic.destination(from: LiveDaemonTests.base, azimuth: 90, distance: 150)
        #expect(
            abs((w["lat"] as? Double ?? 0) - centre.latitude) < 1e-9
                && abs((w["lon"] as? Double ?? 0) - centre.longitude) < 1e-9)

        let on = try rig.ask(#"{"_type":"cmd","action":"guard","on":true}"#, on: result) {
            $0["action"] as? String == "guard"
        }
        #expect(on["result"] as? String == "done")
        let onState = ((on["reply"] as? [String: Any])?["guard"] as? [String: Any])?["state"] as? String
        #expect(onState == "waiting" || onState == "armed", "\(on)")
        let off = try rig.ask(#"{"_type":"cmd","action":"guard","on":false}"#, on: result) {
            $0["action"] as? String == "guard"
        }
        #expect(((off["reply"] as? [String: Any])?["guard"] as? [String: Any])?["state"] as? String == "off", "\(off)")
        for (verb, state) in [("stop", "stopped"), ("start", "running")] {
            let r = try rig.ask(#"{"_type":"cmd","action":"trip","trip":"\#(verb)"}"#, on: result) {
                $0["action"] as? String == "trip"
            }
            #expect(
                r["result"] as? String == "done"
                    && ((r["reply"] as? [String: Any])?["trip"] as? [String: Any])?["state"] as? String == state, "\(r)"
            )
        }

        // Off the allow list: refused, answered, logged.
        let reload = try rig.ask(#"{"_type":"cmd","action":"reload"}"#, on: result) {
            $0["action"] as? String == "reload"
        }
        #expect(
            reload["result"] as? String == "refused"
                && reload["reason"] as? String == "reload is not in mqtt_command_allow", "\(reload)")
        // Malformed twice: answered twice, logged once (the status after it orders the journal).
        let bad = #"{"_type":"cmd","action":"guard","on":"yes"}"#
        for _ in 0..<2 {
            let r = try rig.ask(bad, on: result) {
                $0["result"] as? String == "refused" && $0["action"] as? String == "guard"
            }
            #expect(r["reason"] as? String == #""on" is "yes", not true or false"#)
        }
        try rig.ask(#"{"_type":"cmd","action":"status"}"#, on: base + "/status")
        try rig.daemon.waitFor("mqtt_command", count: 9)
        let refused = try rig.daemon.entries("mqtt_command_refused")
        #expect(refused.map { $0["GPSTRACK_ACTION"] as? String } == ["reload", "guard"], "\(refused)")
        #expect(
            refused.allSatisfy {
                $0["PRIORITY"] as? String == "4" && $0["GPSTRACK_SOURCE"] as? String == "mqtt:\(base)/cmd"
            })
        let done = try rig.daemon.entries("mqtt_command")
        #expect(
            done.map { $0["GPSTRACK_ACTION"] as? String ?? "" }
                == ["reportLocation", "status", "dump", "waypoints", "guard", "guard", "trip", "trip", "status"],
            "\(done)")
        #expect(
            done.allSatisfy { $0["PRIORITY"] as? String == "5" && ($0["GPSTRACK_RESULT"] as? String)?.isEmpty == false }
        )
        // No secret anywhere on the broker.
        let all = rig.sub.messages().map { "\($0.1)" }.joined()
        #expect(!all.contains(Self.password))
    }

    @Test func offByDefaultCommandsAreIgnored() throws {
        let rig = try Rig("off", config: "")
        for _ in 0..<2 { try rig.send(#"{"_type":"cmd","action":"status"}"#) }
        try rig.send(#"{"_type":"cmd","action":"guard","on":true}"#)
        try rig.daemon.waitFor("mqtt_command_ignored")
        // A reportSteps without a pedometer is not answered either; the third command's entry
        // would be there by now were it logged (the daemon takes them in order).
        #expect(rig.on(rig.base + "/status").isEmpty && rig.on(rig.base + "/cmd/result").isEmpty)
        #expect(try rig.daemon.entries("mqtt_command").isEmpty)
        #expect(try rig.daemon.entries("mqtt_command_ignored").count == 1)
        #expect(rig.daemon.stop() == 0)
        #expect(rig.on(rig.base + "/status").isEmpty && rig.on(rig.base + "/cmd/result").isEmpty)
    }

    /// `setWaypoints`: a circle on the walk's way pushed, entered, kept across a restart; a bad
    /// list refused naming its bad entries and a clash with the file refused, the set kept.
    @Test func pushedWaypointsAreEnteredAndKept() throws {
        let rig = try Rig("push", config: "mqtt_commands = on\nmqtt_command_allow = status,setWaypoints\n")
        let result = rig.base + "/cmd/result"
        let dock = Geodesic.destination(from: LiveDaemonTests.base, azimuth: 90, distance: 250)
        let push =
            #"{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":["#
            + #"{"_type":"waypoint","desc":"Dock","lat":\#(dock.latitude),"lon":\#(dock.longitude),"rad":40,"rid":"dock","tst":1}]}}"#
        let done = try rig.ask(push, on: result) { $0["action"] as? String == "setWaypoints" }
        #expect(
            done["result"] as? String == "done" && (done["reply"] as? [String: Any])?["fences"] as? Int == 2, "\(done)")
        // A referee, not a bound: the walk reaches the dock in about 60 s at this pace.
        try rig.daemon.waitFor("enter", containing: "Dock", timeout: 600)
        #expect(try rig.daemon.entries("enter").map { $0["GPSTRACK_FENCE"] as? String } == ["ring", "dock"])

        // Bare array, two bad entries of three: both named, nothing applied.
        let bad =
            #"{"_type":"cmd","action":"setWaypoints","waypoints":[{"desc":"A","lat":91,"lon":8,"rad":10,"rid":"a"},"#
            + #"{"desc":"B","lat":47,"lon":8,"rad":10,"rid":"b"},{"desc":"C","lat":47,"lon":8,"rad":-1,"rid":"c"}]}"#
        let refused = try rig.ask(bad, on: result) { $0["result"] as? String == "refused" }
        #expect(
            refused["reason"] as? String == #"waypoint 1 (rid "a"): "lat" must be a number from -90 to 90; "#
                + #"waypoint 3 (rid "c"): "rad" must be metres above 0, at most 100000"#, "\(refused)")
        let clash = try rig.ask(
            #"{"_type":"cmd","action":"setWaypoints","waypoints":[{"desc":"R","lat":47,"lon":8,"rad":10,"rid":"ring"}]}"#,
            on: result
        ) { $0["result"] as? String == "failed" }
        #expect(
            (clash["reason"] as? String)?.contains(#"pushed waypoint id "ring" is a fence of the fences file"#) == true,
            "\(clash)")
        let status = try rig.ask(#"{"_type":"cmd","action":"status"}"#, on: rig.base + "/status")
        #expect(status["fences_loaded"] as? Int == 2)

        // After the restart: asked again until answered (one sent before the daemon subscribed is lost).
        #expect(try rig.statusAfterARestart().allSatisfy { $0["fences_loaded"] as? Int == 2 })
        let waypoints = rig.on(rig.base + "/waypoints").last?["waypoints"] as? [[String: Any]] ?? []
        #expect(
            waypoints.map { $0["rid"] as? String } == ["ring", "dock"] && waypoints.last?["rad"] as? Int == 40,
            "\(waypoints)")
    }
}
