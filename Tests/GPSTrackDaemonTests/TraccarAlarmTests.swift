import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Traccar's alarms: a parked, guarded van towed away at 3 m/s over an 8 km/h limit sends one
/// position with `alarm=tow` at the guard breach and one with `alarm=overspeed` at each
/// overspeed start, each at its event's time and place as the journal has them; checked on
/// the loopback server of TraccarUplinkTests in both of Traccar's forms. The breach is said
/// again every 30 s, and by Traccar's duplicate-alert rule (`TraccarRules`) each repeat is an
/// event there too.
@Suite(.serialized, .needs([.gpsfake, .journal, .tool("/usr/bin/python3", package: "python3")]))
struct TraccarAlarmTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// The positions the server took (2xx), in either form, in the order they came.
    static func positions(_ server: TraccarUplinkTests.Server) throws -> [TraccarRules.Position] {
        try server.requests().filter { $0.entry["status"] as? Int == 200 }.compactMap { r in
            if let t = r.fields["timestamp"] {
                return TraccarRules.Position(
                    time: Double(t) ?? .nan, lat: Double(r.fields["lat"] ?? "") ?? .nan,
                    lon: Double(r.fields["lon"] ?? "") ?? .nan,
                    alarms: Set((r.fields["alarm"] ?? "").split(separator: ",").map(String.init)))
            }
            guard let body = ExecutableRunner.json(r.entry["body"] as? String ?? ""),
                let location = body["location"] as? [String: Any]
            else { return nil }
            let coords = try #require(location["coords"] as? [String: Any])
            let alarm = (location["extras"] as? [String: Any])?["alarm"] as? String
            return TraccarRules.Position(
                time: Timestamp.parse(location["timestamp"] as? String ?? "") ?? .nan,
                lat: coords["latitude"] as? Double ?? .nan, lon: coords["longitude"] as? Double ?? .nan,
                alarms: alarm.map { [$0] } ?? [])
        }
    }

    /// The alarms the server took: (alarm, time, lat, lon) from either form.
    static func alarms(_ server: TraccarUplinkTests.Server) throws -> [(String, Double, Double, Double)] {
        try positions(server).flatMap { p in p.alarms.sorted().map { ($0, p.time, p.lat, p.lon) } }
    }

    func towed(_ name: String, format: String) throws {
        let dir = try TraccarUplinkTests.directory(name)
        let httpPort = LiveHarness.freePort()
        let server = try TraccarUplinkTests.Server(port: httpPort, dir: dir, mode: "200")
        let steps =
            Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 900)
            + Array(repeating: Scenario.Step(speed: 3, heading: 200), count: 100)
            + Array(repeating: Scenario.Step(speed: 0, heading: 200), count: 120)
        let trace = Simulator.run(Scenario(name: "towed", start: LiveDaemonTests.base, steps: steps), seed: 31)
        let log = try LiveHarness.nmeaFile("\(name).nmea", fixes: TraccarUplinkTests.now(trace), padding: 60)
        let gpsPort = LiveHarness.freePort()
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"],
            // Few plain positions (only after 1 km or an hour), so that nothing but the uplink's
            // own separator stands between an alarm and its repeat, as on a parked van.
            extraConfig: TraccarUplinkTests.config(httpPort).replacingOccurrences(
                of: "traccar_min_distance_m = 0\n", with: "traccar_min_distance_m = 1000\ntraccar_heartbeat_s = 3600\n")
                + "traccar_format = \(format)\nguard = on\nguard_repeat_s = 30\nspeed_limit_kmh = 8\noverspeed_min_s = 0\n"
        )
        try daemon.waitFor("started")
        let feed = try LiveHarness.Feed(log: log, port: gpsPort)
        defer { feed.stop() }
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        try LiveHarness.waitFor("the outbox drained", timeout: 120) {
            try TraccarUplinkTests.traccarStatus(daemon)["queued"] as? Int == 0
        }
        let breaches = try daemon.entries("guard_breach")
        let overspeeds = try daemon.entries("overspeed_start")
        // The breach, then said again every guard_repeat_s while latched (not acknowledged here).
        try #require(!breaches.isEmpty && !overspeeds.isEmpty, "\(breaches.count) breaches, \(overspeeds.count)")
        #expect(
            breaches.first?["GPSTRACK_REPEAT"] == nil
                && breaches.dropFirst().allSatisfy { $0["GPSTRACK_REPEAT"] != nil })
        let alarms = try Self.alarms(server)
        for (kind, entries) in [("tow", breaches), ("overspeed", overspeeds)] {
            let sent = alarms.filter { $0.0 == kind }
            #expect(sent.count == entries.count, "\(kind): \(sent.count) sent, \(entries.count) in the journal")
            for (s, e) in zip(sent, entries) {
                let t = try #require(Timestamp.parse(e["GPSTRACK_TIME"] as? String ?? ""), "\(e)")
                let lat = Double(e["GPSTRACK_LAT"] as? String ?? "") ?? .infinity
                let lon = Double(e["GPSTRACK_LON"] as? String ?? "") ?? .infinity
                // The query form's time is whole seconds; the journal's position has 7 decimals.
                #expect(abs(s.1 - t) < 1, "\(kind) at \(s.1), the event at \(t)")
                #expect(abs(s.2 - lat) < 1e-6 && abs(s.3 - lon) < 1e-6, "\(kind) at \(s), the event at \(lat), \(lon)")
            }
        }
        #expect(alarms.allSatisfy { ["tow", "overspeed"].contains($0.0) }, "\(alarms.map(\.0))")
        // What Traccar makes of them (its duplicate-alert rule): an event for the breach and for
        // each repeat, at its time, not only the first.
        let events = TraccarRules.events(try Self.positions(server))
        for (kind, entries) in [("tow", breaches), ("overspeed", overspeeds)] {
            let heard = events.filter { $0.alarm == kind }
            #expect(heard.count == entries.count, "\(kind): Traccar's events \(heard.count) of \(entries.count)")
            for (h, e) in zip(heard, entries) {
                let t = try #require(Timestamp.parse(e["GPSTRACK_TIME"] as? String ?? ""))
                #expect(abs(h.at.time - t) < 1, "\(kind): Traccar's event at \(h.at.time), the journal's at \(t)")
            }
        }
        #expect(breaches.count >= 3, "the breach and repeats every 30 s while towed and parked: \(breaches.count)")
        #expect(daemon.stop() == 0)
    }

    @Test func theQueryFormSendsTowAndOverspeedAtTheirEvents() throws { try towed("traccaralarm", format: "query") }

    @Test func theJSONFormSendsThemAsExtrasAlarm() throws { try towed("traccaralarmjson", format: "json") }
}
