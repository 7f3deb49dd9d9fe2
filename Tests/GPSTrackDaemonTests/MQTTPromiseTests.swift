import Foundation
import GPSTrackCore
import GPSTrackSim
import Testing

/// gpstrackd(8)'s MQTT promises not covered by `MQTTTests`: the 15-minute heartbeat location,
/// the last will, the outbox bound, and the waypoints after a reload; against a real mosquitto
/// on a free loopback port, a subscriber ready when its probe came back through the broker.
@Suite(.serialized, .needs([.gpsfake, .journal] + Need.mosquitto))
struct MQTTPromiseTests {
    init() throws { try LiveHarness.ensureJournald() }

    static func directory(_ name: String) throws -> String {
        let dir = NSTemporaryDirectory() + "gpstrackd-mqtt-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static func config(port: Int, topic: String, _ extra: String = "") -> String {
        "mqtt_host = 127.0.0.1\nmqtt_port = \(port)\nmqtt_topic = \(topic)\n" + extra
    }

    static func of(_ type: String, _ messages: [(String, [String: Any])]) -> [[String: Any]] {
        messages.filter { $0.1["_type"] as? String == type }.map(\.1)
    }

    /// A box standing still for 2000 s of fix time: locations at its first fix and every 900 s
    /// after (the moving limit never met), each at the box's place; then SIGKILL, and the broker
    /// sends the will.
    @Test func theHeartbeatLocationAndTheLastWill() throws {
        let dir = try Self.directory("will")
        let (mqttPort, broker, sub) = try MQTTTests.brokerWithSubscriber(dir: dir)
        defer { broker.stop() }
        let t0 = 1_773_475_200.0
        let base = LiveDaemonTests.base
        let fixes = (0..<2000).map {
            Fix(
                mode: 3, time: t0 + Double($0), latitude: base.latitude, longitude: base.longitude, altitude: 408,
                speed: 0, track: 0)
        }
        let gpsPort = LiveHarness.freePort()
        let topic = "owntracks/fleet/still\(getpid())"
        // The feed first, 10 s without a fix, then the daemon: a daemon started first was
        // refused, backed off, and came back 272 fixes into the feed (beside make
        // test-repeat's CPU hog), too late for a third location.
        let still = try LiveHarness.nmeaFile(
            "still.nmea", fixes: fixes, padding: LiveHarness.epochs(lasting: 10, cycle: 0.004))
        let feed = try LiveHarness.Feed(log: still, port: gpsPort)
        defer { feed.stop() }
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"],
            extraConfig: Self.config(port: mqttPort, topic: topic, "mqtt_min_interval_s = 5\n"))
        try daemon.waitFor("mqtt_connected", timeout: 30)
        let connected = Int(Date().timeIntervalSince1970)
        // The feed's end, then every message out: what the subscriber has then is all there is.
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        try LiveHarness.waitFor("the outbox drained", timeout: 60) {
            (try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#)?["mqtt"] as? [String: Any])?[
                "outbox"] as? Int == 0
        }
        // QoS 0 locations are not acknowledged: the last is in when a probe sent after it is.
        try sub.probe()
        let locations = Self.of("location", sub.messages())
        let times = locations.compactMap { $0["tst"] as? Int }
        #expect(times.count == 3, "one location per 900 s standing still: \(times)")
        // The daemon may connect to gpsd a few fixes into the feed: the first is the first it saw.
        let first = try #require(times.first)
        #expect(Double(first) >= t0 && Double(first) < t0 + 100, "\(times)")
        #expect(times == [first, first + 900, first + 1800], "\(times)")
        for m in locations {
            #expect(abs((m["lat"] as? Double ?? .nan) - base.latitude) < 1e-6, "\(m)")
            #expect(abs((m["lon"] as? Double ?? .nan) - base.longitude) < 1e-6, "\(m)")
            #expect(m["vel"] as? Int == 0 && m["cog"] as? Int == 0 && m["t"] as? String == "t", "\(m)")
        }

        daemon.signal(SIGKILL)
        try LiveHarness.waitFor("the last will", timeout: 120) {
            sub.messages().contains { $0.0 == topic && $0.1["_type"] as? String == "lwt" }
        }
        let will = try #require(sub.messages().first { $0.1["_type"] as? String == "lwt" })
        #expect(will.0 == topic, "on the base topic")
        #expect(Set(will.1.keys) == ["_type", "tst"], "\(will.1)")
        // Its time is when the daemon connected (the will is set then), by the system clock.
        let tst = try #require(will.1["tst"] as? Int)
        #expect(tst >= Int(daemon.started.timeIntervalSince1970) && tst <= connected, "\(tst)")
    }

    /// `mqtt_outbox_max = 10` with the broker down through a walk across the fence: about 40
    /// locations and both transitions queued, 10 kept. When the broker is there the subscriber
    /// gets both transitions and the newest 8 locations, in order, none twice.
    @Test func theOutboxBoundDropsTheOldestLocationsAndNoTransition() throws {
        let dir = try Self.directory("bound")
        let mqttPort = LiveHarness.freePort()
        let topic = "owntracks/fleet/bound\(getpid())"
        let config = Self.config(
            port: mqttPort, topic: topic, "mqtt_min_interval_s = 5\nmqtt_min_distance_m = 5\nmqtt_outbox_max = 10\n")
        let fences = try LiveDaemonTests.fencesFile("bound-\(getpid()).geojson")
        // A receiver without noise or gaps: a fix a second, 7 m apart, so a location every 5 s.
        let scenario = Scenario(
            name: "east", start: LiveDaemonTests.base,
            steps: Array(repeating: .init(speed: 1.4, heading: 90), count: 230))
        var model = ReceiverModel()
        model.wanderSigmaM = 0
        model.whiteSigmaM = 0
        model.noFixProbability = 0
        model.honestJumpProbability = 0
        model.lyingJumpProbability = 0
        let trace = Simulator.run(scenario, model: model, seed: 29)
        // The subscriber's persistent session first, kept by the broker across its stop (with
        // the QoS 0 locations too): however soon the daemon connects once the broker is back,
        // the subscription is there. A subscriber started after the broker missed everything
        // in a hunt run, the daemon's reconnect having come first.
        let queueAll = "queue_qos0_messages true\n"
        do {
            let broker = try MQTTTests.Broker(port: mqttPort, dir: dir, extra: queueAll)
            try MQTTTests.Subscriber(port: mqttPort, file: dir + "/session.txt").stop()
            broker.stop()
        }
        let gpsPort = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(
            log: try LiveHarness.nmeaFile("bound.nmea", fixes: trace.fixes, padding: 100), port: gpsPort)
        defer { feed.stop() }
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)", "--fences", fences], extraConfig: config)
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 120)
        #expect(try daemon.entries("exit").count == 1, "the walk crossed the fence")
        let waiting = try #require(
            try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#)?["mqtt"] as? [String: Any])
        #expect(waiting["connected"] as? Bool == false && waiting["outbox"] as? Int == 10, "\(waiting)")

        // The broker back with the session; the daemon connects and drains its outbox into it;
        // then the subscriber takes what waited for it.
        let broker = try MQTTTests.Broker(port: mqttPort, dir: dir, extra: queueAll)
        defer { broker.stop() }
        try LiveHarness.waitFor("the outbox drained", timeout: 120) {
            (try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#)?["mqtt"] as? [String: Any])?[
                "outbox"] as? Int == 0
        }
        let sub = try MQTTTests.Subscriber(port: mqttPort, file: dir + "/sub.txt")
        // The waypoints go after the outbox (on connect): once they are in, the rest is.
        try LiveHarness.waitFor("the waypoints", timeout: 60) {
            sub.messages().contains { $0.0 == topic + "/waypoints" }
        }
        let drained = sub.messages().filter { $0.0 == topic || $0.0 == topic + "/event" }
        let kinds = drained.map { $0.1["_type"] as? String ?? "?" }
        #expect(kinds == ["transition", "transition"] + Array(repeating: "location", count: 8), "\(kinds)")
        #expect(Self.of("transition", drained).map { $0["event"] as? String ?? "" } == ["enter", "leave"])
        let times = Self.of("location", drained).compactMap { $0["tst"] as? Int }
        #expect(Set(times).count == times.count && times == times.sorted(), "in order, none twice: \(times)")
        // The newest: the last within 5 s of the walk's last fix, the others each 5 s before.
        let last = Int(try #require(trace.fixes.last?.time))
        #expect(times.last.map { $0 > last - 5 && $0 <= last } == true, "\(times) against the last fix \(last)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 5 }, "consecutive: \(times)")
        #expect(daemon.stop() == 0)
    }

    /// A changed fences file and SIGHUP: the waypoints are published again with the new fences.
    @Test func theWaypointsAreRepublishedAfterAReload() throws {
        let dir = try Self.directory("reload")
        let (mqttPort, broker, sub) = try MQTTTests.brokerWithSubscriber(dir: dir)
        defer { broker.stop() }
        let topic = "owntracks/fleet/reload\(getpid())"
        let fences = dir + "/fences.geojson"
        func write(_ id: String, _ name: String, _ lat: Double, _ lon: Double, _ radius: Int) throws {
            try """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"\(id)",
             "properties":{"name":"\(name)","radius":\(radius)},
             "geometry":{"type":"Point","coordinates":[\(lon),\(lat)]}}]}
            """.write(toFile: fences, atomically: true, encoding: .utf8)
        }
        try write("dock", "Dock", 47.3769, 8.545, 40)
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:1", "--fences", fences],
            extraConfig: Self.config(port: mqttPort, topic: topic))
        func waypoints() -> [[[String: Any]]] {
            sub.messages().filter { $0.0 == topic + "/waypoints" }.compactMap { $0.1["waypoints"] as? [[String: Any]] }
        }
        try LiveHarness.waitFor("the first waypoints", timeout: 60) { waypoints().count == 1 }
        try write("yard", "Boat yard", 47.35, 8.56, 75)
        daemon.signal(SIGHUP)
        try daemon.waitFor("fences_reloaded", timeout: 30)
        try LiveHarness.waitFor("the waypoints again", timeout: 60) { waypoints().count == 2 }
        let sets = waypoints()
        #expect(sets[0].map { $0["rid"] as? String } == ["dock"], "\(sets[0])")
        let yard = try #require(sets[1].first)
        #expect(sets[1].count == 1, "the new file's fences alone: \(sets[1])")
        #expect(yard["rid"] as? String == "yard" && yard["desc"] as? String == "Boat yard", "\(yard)")
        #expect(yard["lat"] as? Double == 47.35 && yard["lon"] as? Double == 8.56 && yard["rad"] as? Int == 75)
        #expect(daemon.stop() == 0)
    }
}
