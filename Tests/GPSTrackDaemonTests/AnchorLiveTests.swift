import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The anchor watch through the live daemon: gpsd fed by gpsfake, gpstrackctl, the journal and
/// the state database. Drop, drag, alarm, ack, raised again, SIGKILL mid-alarm: the successor
/// finds the anchor down and the alarm still latched.
@Suite(.serialized, .needsLiveParts)
struct AnchorLiveTests {
    init() throws {
        try LiveHarness.ensureJournald()
    }

    static func ctl(_ daemon: LiveHarness.DaemonProcess, _ args: [String]) throws -> ExecutableRunner.Result {
        try ControlSocketTests.run(["--socket", daemon.socketPath] + args)
    }

    static func anchor(_ daemon: LiveHarness.DaemonProcess) throws -> [String: Any]? {
        let r = try ctl(daemon, ["--json", "anchor"])
        return ExecutableRunner.json(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))?["anchor"]
            as? [String: Any]
    }

    @Test func dropDragAlarmAckAndAKilledDaemonFindsTheAlarmStillLatched() throws {
        // 25 min at anchor, then the anchor drags at 0.3 m/s for 12 min.
        let steps =
            Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 1500)
            + Array(repeating: Scenario.Step(speed: 0.3, heading: 200), count: 720)
        let trace = Simulator.run(Scenario(name: "anchor", start: LiveDaemonTests.base, steps: steps), seed: 27)
        let t0 = try #require(trace.fixes.first?.time)
        let log = try LiveHarness.nmeaFile("anchor.nmea", fixes: trace.fixes, padding: 200)
        let port = LiveHarness.freePort()
        // Slower than the other live tests (about 30 fixes a second): the drop should come while
        // the boat still lies at anchor, and may come in the drag's first minutes on a loaded
        // machine (CI once dropped it 34 s of feed after its start): everything below counts from the drop.
        let feed = try LiveHarness.Feed(log: log, port: port, cycle: 0.01)
        defer { feed.stop() }
        let config = "anchor_repeat_s = 10\nanchor_no_position_s = 600\n"
        let first = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(port)"], extraConfig: config)
        try first.waitFor("fix_acquired", timeout: 120)
        #expect(try Self.ctl(first, ["anchor", "drop"]).status == 64, "drop without a radius is a usage error")
        let drop = try Self.ctl(first, ["anchor", "drop", "--radius", "30"])
        try #require(drop.status == 0, "\(drop.stdout) \(drop.stderr)")
        #expect(drop.stdout.hasPrefix("anchor: down at"), "\(drop.stdout)")
        let dropped = try #require(try first.entries("anchor_dropped").first)
        #expect(dropped["PRIORITY"] as? String == "5" && Double(dropped["GPSTRACK_RADIUS_M"] as? String ?? "") == 30)
        // gpsd's eph, for the message: a 95 % figure from the HDOP (about 19 m), far above the
        // receiver's true error, which the watch no longer subtracts.
        let status = try #require(try SocketClient(path: first.socketPath).request(#"{"cmd":"status"}"#))
        let eph = try #require((status["fix"] as? [String: Any])?["eph"] as? Double)
        let droppedAt = try #require(Timestamp.parse(dropped["GPSTRACK_TIME"] as? String ?? ""))
        // 100 m of drag left after it at the latest: room for the alarm, the ack and the re-raise.
        try #require(droppedAt < t0 + 1880, "the drop came in time (+\(droppedAt - t0) s)")
        let dropIndex = min(max(Int(droppedAt - t0), 0), trace.truth.count - 1)
        // At the boat's averaged position (its last 30 fixes): within the receiver's wander of
        // where it was 15 s before the drop.
        let anchorAt = Coordinate(
            latitude: Double(dropped["GPSTRACK_ANCHOR_LAT"] as? String ?? "") ?? 0,
            longitude: Double(dropped["GPSTRACK_ANCHOR_LON"] as? String ?? "") ?? 0)
        let off = try GeodSolveTruth.distance(anchorAt, trace.truth[max(dropIndex - 15, 0)])
        #expect(off < 10, "dropped \(off) m from the boat")

        // The drag: the alarm at crit, within 30 s of the boat truly passing the radius plus the
        // receiver's 2σ (the simulator's wander and white noise: σ √10 m per axis, whatever gpsd's
        // eph says), and not before the boat is truly at the circle but for that 2σ.
        try first.waitFor("anchor_alarm", timeout: 120)
        let alarm = try #require(try first.entries("anchor_alarm").first)
        #expect(alarm["PRIORITY"] as? String == "2" && alarm["GPSTRACK_REPEAT"] as? String == "0")
        let truth = try GeodSolveTruth.lengths(trace.truth.map { [anchorAt, $0] })
        let sigma = (3.0 * 3.0 + 1.0 * 1.0).squareRoot()
        let due = t0 + Double(try #require(truth.indices.first { $0 >= dropIndex && truth[$0] > 30 + 2 * sigma }))
        let raisedAt = try #require(Timestamp.parse(alarm["GPSTRACK_TIME"] as? String ?? ""))
        let atRaise = truth[min(max(Int(raisedAt - t0), 0), truth.count - 1)]
        #expect(
            raisedAt <= due + 30 && atRaise > 30 - 2 * sigma,
            "alarm \(raisedAt - due) s after due, at a true \(atRaise) m (gpsd's eph \(eph) m)")
        #expect(try first.entries("anchor_warning").count == 1, "one warning before it")
        #expect(try Self.ctl(first, ["anchor", "ack"]).status == 0)
        try first.waitFor("anchor_ack")
        // It goes on dragging: raised again (a new raise, repeat 0).
        try LiveHarness.waitFor("the alarm raised again", timeout: 120) {
            try first.entries("anchor_alarm").filter { $0["GPSTRACK_REPEAT"] as? String == "0" }.count >= 2
        }
        let latched = try #require(try Self.anchor(first))
        #expect(latched["alarm"] as? String == "alarm", "\(latched)")

        // SIGKILL mid-alarm; the successor carries on.
        first.signal(SIGKILL)
        first.process.waitUntilExit()
        let second = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(port)"], extraConfig: config, stateDirectory: first.stateDirectory)
        try second.waitFor("restored", containing: "Anchor watch", timeout: 60)
        let after = try #require(try Self.anchor(second), "still anchored")
        #expect(after["alarm"] as? String == "alarm", "still latched: \(after)")
        #expect((after["drag"] as? [String: Any])?["acknowledged"] as? Bool == false)
        #expect(after["radius_m"] as? Double == 30)
        // Latched, it is said again (by fix time, or the clock once the feed has ended), never
        // raised anew.
        try LiveHarness.waitFor("the latched alarm said again", timeout: 120) {
            try !second.entries("anchor_alarm").isEmpty
        }
        #expect(try second.entries("anchor_alarm").allSatisfy { ($0["GPSTRACK_REPEAT"] as? String) != "0" })
        #expect(try Self.ctl(second, ["anchor", "ack"]).status == 0)
        #expect(try Self.anchor(second)?["alarm"] as? String == "acknowledged")
        let later = try #require(try SocketClient(path: second.socketPath).request(#"{"cmd":"status"}"#))
        #expect((later["anchor"] as? [String: Any])?["alarm"] as? String == "acknowledged")
        let raise = try Self.ctl(second, ["anchor", "raise"])
        #expect(raise.status == 0 && raise.stdout.contains("anchor: up"), "\(raise.stdout)")
        try second.waitFor("anchor_raised")
        #expect(try Self.anchor(second) == nil)
        #expect(try Self.ctl(second, ["anchor", "ack"]).status == 1, "nothing to acknowledge with the anchor up")
        #expect(try first.entries("trip_start").isEmpty && second.entries("trip_start").isEmpty, "no trip at anchor")
        #expect(second.stop() == 0)
    }
}

/// The anchor's alarms everywhere a person looks: ntfy's urgent message through the webhook,
/// Traccar's `alarm=movement`, and OwnTracks transitions for the region `anchor` on the broker.
@Suite(.serialized, .needs([.gpsfake, .journal, .tool("/usr/bin/python3", package: "python3")] + Need.mosquitto))
struct AnchorOutletTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func theDragAlarmReachesTheWebhookTraccarAndTheBroker() throws {
        let dir = try TraccarUplinkTests.directory("anchor-outlets")
        let hookPort = LiveHarness.freePort()
        let hook = try TraccarUplinkTests.Server(
            port: hookPort, dir: try TraccarUplinkTests.directory("anchor-hook"), mode: "200")
        let traccarPort = LiveHarness.freePort()
        let traccar = try TraccarUplinkTests.Server(
            port: traccarPort, dir: try TraccarUplinkTests.directory("anchor-traccar"), mode: "200")
        let (mqttPort, broker, sub) = try MQTTTests.brokerWithSubscriber(dir: dir)
        defer { broker.stop() }

        let steps =
            Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 600)
            + Array(repeating: Scenario.Step(speed: 0.3, heading: 110), count: 500)
        let trace = Simulator.run(Scenario(name: "anchor", start: LiveDaemonTests.base, steps: steps), seed: 28)
        let fixes = TraccarUplinkTests.now(trace)
        let log = try LiveHarness.nmeaFile("anchor-outlets.nmea", fixes: fixes, padding: 200)
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"],
            extraConfig: """
                webhook_url = http://127.0.0.1:\(hookPort)/hook
                webhook_format = ntfy
                \(TraccarUplinkTests.config(traccarPort))mqtt_host = 127.0.0.1
                mqtt_port = \(mqttPort)
                mqtt_topic = owntracks/fleet/boat

                """)
        try daemon.waitFor("started")
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.01)
        defer { feed.stop() }
        try daemon.waitFor("fix_acquired", timeout: 120)
        let drop = try ControlSocketTests.run(["--socket", daemon.socketPath, "anchor", "drop", "--radius", "30"])
        try #require(drop.status == 0, "\(drop.stderr)")
        try daemon.waitFor("anchor_alarm", timeout: 120)
        let alarm = try #require(try daemon.entries("anchor_alarm").first)
        let dropped = try #require(try daemon.entries("anchor_dropped").first)
        let droppedAt = try #require(Timestamp.parse(dropped["GPSTRACK_TIME"] as? String ?? ""))
        // Mostly at anchor; on a loaded machine in the drag's first minutes (60 m of drag left).
        try #require(droppedAt < (fixes.first?.time ?? 0) + 900, "dropped in time")

        try LiveHarness.waitFor("the urgent message", timeout: 60) {
            hook.requests().contains {
                ($0.entry["headers"] as? [String: String])?["Title"] == "gpstrackd: anchor alarm"
            }
        }
        let message = try #require(
            hook.requests().first { ($0.entry["headers"] as? [String: String])?["Title"] == "gpstrackd: anchor alarm" })
        let headers = message.entry["headers"] as? [String: String] ?? [:]
        #expect(headers["Priority"] == "urgent" && headers["Tags"]?.hasSuffix("anchor_alarm") == true, "\(headers)")
        #expect(
            (message.entry["body"] as? String)?.hasPrefix("anchor alarm at \(alarm["GPSTRACK_TIME"] as? String ?? "?")")
                == true, "\(message.entry)")

        try LiveHarness.waitFor("Traccar's alarm", timeout: 60) { traccar.accepted().contains { $0["alarm"] != nil } }
        let position = try #require(traccar.accepted().first { $0["alarm"] != nil })
        #expect(position["alarm"] == "movement", "\(position)")
        let alarmTime = try #require(Timestamp.parse(alarm["GPSTRACK_TIME"] as? String ?? ""))
        #expect(Double(position["timestamp"] ?? "") == alarmTime, "the alarm's fix: \(position)")

        try LiveHarness.waitFor("the anchor's transitions", timeout: 60) {
            sub.messages().filter { $0.1["rid"] as? String == "anchor" }.count >= 2
        }
        let transitions = sub.messages().filter { $0.1["rid"] as? String == "anchor" }
        #expect(transitions.map { $0.1["event"] as? String ?? "" }.prefix(2) == ["enter", "leave"], "\(transitions)")
        #expect(transitions.allSatisfy { $0.0 == "owntracks/fleet/boat/event" && $0.1["desc"] as? String == "anchor" })
        #expect(transitions.first?.1["tst"] as? Int == Int(droppedAt))
        #expect(daemon.stop() == 0)
    }
}
