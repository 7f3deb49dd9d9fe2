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

        // A command PyNaCl sealed: obeyed, the status sealed on <base>/status.
        let sealed = try OwnTracksCryptoTests.nacl(
            "seal", key: Self.secret, input: #"{"_type":"cmd","action":"status"}"# + "\n")[0]
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
