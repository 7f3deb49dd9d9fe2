import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// OwnTracks' payload encryption on a real mosquitto: with `mqtt_secret_file` every message the
/// daemon publishes is encrypted, and PyNaCl (an implementation not ours) opens each into the
/// OwnTracks payload it should be; a command PyNaCl sealed is obeyed, its answer sealed too;
/// commands in plaintext or under another key are refused and logged once a kind; the secret
/// never reaches the journal.
@Suite(.serialized, .needs([.gpsfake, .journal] + Need.mosquitto))
struct MQTTEncryptionTests {
    init() throws { try LiveHarness.ensureJournald() }

    static let secret = "s3cret for the fleet"

    /// The walk's last fix time, whole seconds: once the feed is over, the daemon's fix clock
    /// (a command's `tst` must match it) is that plus the seconds since.
    static func lastFixTime(_ trace: SimulatedTrace) throws -> Int {
        Int(try #require(trace.fixes.last(where: { $0.mode >= 2 })?.time))
    }

    /// Publishes `message` on `topic` with mosquitto_pub.
    static func publish(_ message: String, port: Int, topic: String) throws {
        let r = try ExecutableRunner.run(
            ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-m", message],
            executable: "/usr/bin/mosquitto_pub")
        #expect(r.status == 0)
    }

    /// Commands cannot be replayed (issue 38): before the first fix an encrypted command is
    /// refused; after it, the same sealed command published twice runs once, the second refused
    /// as a replay and journaled; one without `tst`, and one dated an hour from the fixes, are
    /// refused too.
    @Test(.enabled(if: OwnTracksCryptoTests.haveNaCl, "python3-nacl is installed by `make test`"))
    func theSameEncryptedCommandSentTwiceRunsOnce() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-mqtt-replay-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let secretFile = dir + "/secret"
        try (Self.secret + "\n").write(toFile: secretFile, atomically: true, encoding: .utf8)
        let (mqttPort, broker, sub) = try MQTTTests.brokerWithSubscriber(dir: dir)
        defer { broker.stop() }
        let topic = "owntracks/fleet/replay/cmd"
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"],
            extraConfig: "mqtt_host = 127.0.0.1\nmqtt_port = \(mqttPort)\nmqtt_topic = owntracks/fleet/replay\n"
                + "mqtt_secret_file = \(secretFile)\nmqtt_commands = on\nmqtt_command_allow = status,trip\n")
        try daemon.waitFor("mqtt_connected", timeout: 30)
        // A 20-byte secret: zero-padded as OwnTracks does, and said at start.
        let short = try daemon.entries("mqtt_secret_short")
        #expect(short.count == 1 && short.first?["GPSTRACK_SECRET_BYTES"] as? String == "20", "\(short)")
        // No fix yet: nothing to judge its tst against.
        let early = try OwnTracksCryptoTests.nacl(
            "seal", key: Self.secret, input: #"{"_type":"cmd","action":"status","tst":1773475201}"# + "\n")[0]
        // Published again every 2 s until judged: the subscription may trail mqtt_connected.
        var published = 0
        try LiveHarness.waitFor("the early command refused", timeout: 40) {
            if try !daemon.entries("mqtt_command_refused", containing: "no fix yet").isEmpty { return true }
            if published % 20 == 0 { try Self.publish(early, port: mqttPort, topic: topic) }
            published += 1
            return false
        }

        let trace = LiveDaemonTests.walk(seconds: 120, seed: 38)
        let feed = try LiveHarness.Feed(
            log: try LiveHarness.nmeaFile("replay.nmea", fixes: trace.fixes, padding: 600), port: gpsPort)
        defer { feed.stop() }
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 90)
        let tst = try Self.lastFixTime(trace)
        let lines = try OwnTracksCryptoTests.nacl(
            "seal", key: Self.secret,
            input: [
                #"{"_type":"cmd","action":"trip","trip":"reset","tst":\#(tst)}"#,
                #"{"_type":"cmd","action":"status"}"#,
                #"{"_type":"cmd","action":"status","tst":\#(tst - 3600)}"#,
            ].joined(separator: "\n") + "\n")
        try #require(lines.count == 3)
        for message in [lines[0], lines[0], lines[1], lines[2]] {
            try Self.publish(message, port: mqttPort, topic: topic)
        }
        try daemon.waitFor("mqtt_command_refused", containing: "before the fix clock", timeout: 30)
        let ran = try daemon.entries("mqtt_command").map { $0["GPSTRACK_ACTION"] as? String ?? "" }
        #expect(ran == ["trip"], "the reset ran once: \(ran)")
        let reasons = try daemon.entries("mqtt_command_refused").map { $0["GPSTRACK_REASON"] as? String ?? "" }
        #expect(reasons.count == 4, "\(reasons)")
        #expect(reasons.contains { $0.hasPrefix("no fix yet") })
        #expect(reasons.contains { $0.hasPrefix("replayed") })
        #expect(reasons.contains { $0.hasPrefix("no tst") })
        #expect(reasons.contains { $0.contains("3600 s before the fix clock") || $0.contains("before the fix clock") })
        _ = sub
        #expect(daemon.stop() == 0)
    }

    @Test(.enabled(if: OwnTracksCryptoTests.haveNaCl, "python3-nacl is installed by `make test`"))
    func everyMessageIsEncryptedAndPlaintextCommandsAreRefused() throws {
        let dir = NSTemporaryDirectory() + "gpstrackd-mqtt-secret-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let secretFile = dir + "/secret"
        try (Self.secret + "\n").write(toFile: secretFile, atomically: true, encoding: .utf8)
        let (mqttPort, broker, sub) = try MQTTTests.brokerWithSubscriber(dir: dir)
        defer { broker.stop() }
        let trace = LiveDaemonTests.walk(seconds: 230, seed: 26)
        let gpsPort = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(
            log: try LiveHarness.nmeaFile("secret.nmea", fixes: trace.fixes, padding: 400), port: gpsPort)
        defer { feed.stop() }
        let daemon = try LiveHarness.DaemonProcess(
            arguments: [
                "--gpsd", "127.0.0.1:\(gpsPort)", "--fences", try LiveDaemonTests.fencesFile("secret.geojson"),
            ],
            extraConfig: "mqtt_host = 127.0.0.1\nmqtt_port = \(mqttPort)\nmqtt_topic = owntracks/fleet/sealed\n"
                + "mqtt_secret_file = \(secretFile)\nmqtt_commands = on\nmqtt_command_allow = status\n")
        try daemon.waitFor("exit", timeout: 90)
        try LiveHarness.waitFor("both transitions published", timeout: 30) {
            sub.messages().filter { $0.0 == "owntracks/fleet/sealed" }.count >= 3
        }
        let published = sub.messages().filter { $0.0.hasPrefix("owntracks/fleet/sealed") }
        #expect(
            published.allSatisfy { $0.1["_type"] as? String == "encrypted" && $0.1.count == 2 },
            "only {_type: encrypted, data} on the wire: \(published.map(\.1))")
        let lines = try published.map { m -> String in
            let data = try JSONSerialization.data(withJSONObject: m.1)
            return String(decoding: data, as: UTF8.self)
        }
        let opened = try OwnTracksCryptoTests.nacl(
            "open", key: Self.secret, input: lines.joined(separator: "\n") + "\n")
        try #require(opened.count == published.count)
        let payloads = opened.compactMap(ExecutableRunner.json)
        let transitions = payloads.filter { $0["_type"] as? String == "transition" }.map {
            $0["event"] as? String ?? ""
        }
        #expect(transitions == ["enter", "leave"], "\(payloads)")
        let locations = payloads.filter { $0["_type"] as? String == "location" }
        #expect(!locations.isEmpty)
        // Each location where the walk was: within 30 m of the true path (GeodSolve).
        for l in locations {
            let at = Coordinate(latitude: l["lat"] as? Double ?? 0, longitude: l["lon"] as? Double ?? 0)
            let nearest = try GeodSolveTruth.lengths(trace.truth.map { [$0, at] }).min() ?? .infinity
            #expect(nearest < 30, "a location \(nearest) m from the walk: \(l)")
        }

        // Commands: plaintext twice, under another key twice, then a malformed one: the daemon
        // takes them in order, so once the malformed one's entry is there the others were
        // judged, and each kind was logged once.
        let cmd = #"{"_type":"cmd","action":"reportSteps"}"#
        let foreign = try OwnTracksCryptoTests.nacl("seal", key: "not our secret", input: cmd + "\n")[0]
        for message in [cmd, cmd, foreign, foreign, #"{"_type":"encrypted","data":"AAAA"}"#] {
            let r = try ExecutableRunner.run(
                [
                    "-h", "127.0.0.1", "-p", String(mqttPort), "-q", "1",
                    "-t", "owntracks/fleet/sealed/cmd", "-m", message,
                ], executable: "/usr/bin/mosquitto_pub")
            #expect(r.status == 0)
        }
        try daemon.waitFor("mqtt_command_refused", containing: "too short", timeout: 30)

        // A command PyNaCl sealed, dated by the fixes: obeyed, the status sealed on <base>/status.
        let tst = try Self.lastFixTime(trace)
        let sealed = try OwnTracksCryptoTests.nacl(
            "seal", key: Self.secret, input: #"{"_type":"cmd","action":"status","tst":\#(tst)}"# + "\n")[0]
        let r = try ExecutableRunner.run(
            ["-h", "127.0.0.1", "-p", String(mqttPort), "-q", "1", "-t", "owntracks/fleet/sealed/cmd", "-m", sealed],
            executable: "/usr/bin/mosquitto_pub")
        #expect(r.status == 0)
        try LiveHarness.waitFor("the status published", timeout: 30) {
            sub.messages().contains { $0.0 == "owntracks/fleet/sealed/status" }
        }
        let statusMessage = sub.messages().first { $0.0 == "owntracks/fleet/sealed/status" }?.1 ?? [:]
        #expect(statusMessage["_type"] as? String == "encrypted" && statusMessage.count == 2, "\(statusMessage)")
        let statusLine = String(decoding: try JSONSerialization.data(withJSONObject: statusMessage), as: UTF8.self)
        let status =
            try OwnTracksCryptoTests.nacl("open", key: Self.secret, input: statusLine + "\n")
            .compactMap(ExecutableRunner.json).first ?? [:]
        #expect(
            status["_type"] as? String == "status" && status["version"] as? String == ControlRequest.version
                && status["fences_loaded"] as? Int == 1, "\(status)")
        try daemon.waitFor("mqtt_command")
        #expect(try daemon.entries("mqtt_command").map { $0["GPSTRACK_ACTION"] as? String } == ["status"])
        #expect(daemon.stop() == 0)
        let reasons = try daemon.entries("mqtt_command_refused").map { $0["GPSTRACK_REASON"] as? String ?? "" }
        #expect(
            reasons.count == 3 && reasons[0].contains("not encrypted") && reasons[1].contains("does not open")
                && reasons[2].contains("too short"), "\(reasons)")
        let all = try daemon.entries().flatMap { entry in entry.flatMap { [$0.key] + MQTTTests.texts($0.value) } }
        #expect(!all.contains { $0.contains(Self.secret) }, "the secret is in the journal")
    }
}
