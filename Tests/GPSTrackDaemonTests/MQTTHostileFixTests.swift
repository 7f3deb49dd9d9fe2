import Foundation
import Testing

/// A fix whose altitude, speed or course no Int holds (gpsd passes on what a receiver says)
/// becomes a location without them on a real mosquitto, and the daemon goes on. The fixes
/// come from `FakeGPSD`: a fake, for values no receiver of gpsd's regression captures gives.
@Suite(.serialized, .needs([.journal] + Need.mosquitto))
struct MQTTHostileFixTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func aLocationLeavesOutFiguresNoIntegerHolds() throws {
        let dir = try TraccarUplinkTests.directory("mqtt-hostile")
        let (mqttPort, broker, sub) = try MQTTTests.brokerWithSubscriber(dir: dir)
        defer { broker.stop() }
        let tpvs = (0..<4).map { i in
            #"{"class":"TPV","mode":3,"time":"2026-03-14T08:00:0\#(i).000Z","lat":52.5,"lon":13.4,"eph":3.0,"altMSL":1e30,"speed":1e300,"track":-1e25}"#
                + "\r\n"
        }
        let gpsd = try FakeGPSD(lines: tpvs, gap: 0.05)
        defer { gpsd.stop() }
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsd.port)"],
            extraConfig: "mqtt_host = 127.0.0.1\nmqtt_port = \(mqttPort)\nmqtt_topic = owntracks/hostile/box1\n")
        defer { _ = daemon.stop() }
        try LiveHarness.waitFor("a location", timeout: 60) {
            sub.messages().contains { $0.1["_type"] as? String == "location" } || !daemon.process.isRunning
        }
        #expect(
            daemon.process.isRunning,
            "the daemon ended on the fix: status \(daemon.process.isRunning ? 0 : daemon.process.terminationStatus)")
        let location = try #require(sub.messages().first { $0.1["_type"] as? String == "location" }?.1)
        #expect(location["lat"] as? Double == 52.5 && location["lon"] as? Double == 13.4, "\(location)")
        #expect(location["alt"] == nil && location["vel"] == nil && location["cog"] == nil, "\(location)")
    }
}
