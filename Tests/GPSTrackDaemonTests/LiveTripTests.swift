import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// Automatic trips through the live daemon: gpsd fed by gpsfake, the journal, SQLite, and
/// restarts (SIGKILL mid-trip, SIGTERM mid-stop) that must lose, split or double no trip.
@Suite(.serialized, .needsLiveParts)
struct LiveTripTests {
    static let tripEndID = "11c491396e6e4368af6aadb520edbe41"

    init() throws {
        try LiveHarness.ensureJournald()
    }

    /// A shorter day: drive 2 km, 7 min parked, a 600 m walk, 15 min parked with a wandering
    /// receiver, a 2 km drive with 60-120 s lights, 7 min parked.
    static func day(seed: UInt64) -> (DayScenario, SimulatedTrace) {
        let day = DayScenario.make(
            seed: seed, firstDriveM: 2000, walkM: 600, secondDriveM: 2000,
            shortPark: 420, longPark: 900, lastPark: 420)
        return (day, Simulator.run(day.scenario, seed: seed))
    }

    /// Plays the day; `interrupt` may stop the daemon (returning its successor) as events come.
    static func play(
        _ trace: SimulatedTrace, name: String,
        interrupt: (LiveHarness.DaemonProcess) throws -> LiveHarness.DaemonProcess = { $0 }
    )
        throws -> (
            daemons: [LiveHarness.DaemonProcess], trips: [[String: Any]], stops: [[String: Any]], feed: LiveHarness.Feed
        )
    {
        let log = try LiveHarness.nmeaFile("\(name).nmea", fixes: trace.fixes, padding: 400)
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port)
        let first = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(port)"])
        let last = try interrupt(first)
        try last.waitFor("gpsd_lost", containing: "no report", timeout: 180)
        let client = try SocketClient(path: last.socketPath)
        let trips = try #require(client.request(#"{"cmd":"trips"}"#)?["trips"] as? [[String: Any]])
        let stops = try #require(client.request(#"{"cmd":"stops"}"#)?["stops"] as? [[String: Any]])
        return (first === last ? [first] : [first, last], trips, stops, feed)
    }

    static func restart(_ d: LiveHarness.DaemonProcess, _ signal: Int32) throws -> LiveHarness.DaemonProcess {
        d.signal(signal)
        d.process.waitUntilExit()
        return try LiveHarness.DaemonProcess(
            arguments: d.process.arguments!.suffix(2).map { $0 }, stateDirectory: d.stateDirectory)
    }

    @Test func aDayMakesItsTrueTripsAndSurvivesRestarts() throws {
        let (day, trace) = Self.day(seed: 21)
        let t0 = try #require(trace.fixes.first?.time)
        let truths = try GeodSolveTruth.lengths(day.trips.map { Array(trace.truth[$0.start...$0.end]) })

        let whole = try Self.play(trace, name: "day-whole")
        defer { whole.feed.stop() }
        try #require(whole.trips.count == 3, "\(whole.trips)")
        for (i, (t, truth)) in zip(whole.trips, day.trips).enumerated() {
            #expect(t["id"] as? Int == i + 1 && t["state"] as? String == "ended")
            let start = try #require(Timestamp.parse(t["started_at"] as? String ?? ""))
            let end = try #require(Timestamp.parse(t["ended_at"] as? String ?? ""))
            #expect(
                abs(start - (t0 + Double(truth.start))) <= 30 && abs(end - (t0 + Double(truth.end))) <= 30,
                "trip \(i + 1): \(start - t0 - Double(truth.start)) s, \(end - t0 - Double(truth.end)) s off")
            let traveled = try #require(t["traveled_m"] as? Double)
            // gpsd rounds positions to its NMEA input's 1e-5 minutes: a few centimetres.
            #expect(
                abs(traveled / truths[i] - 1) <= (truth.kind == .walk ? 0.03 : 0.02),
                "trip \(i + 1): \(traveled) m of \(truths[i]) m")
        }
        #expect(whole.stops.count >= 3, "a stop after each trip")
        let daemon = whole.daemons[0]
        let ends = try daemon.entries("trip_end")
        #expect(ends.count == 3 && ends.allSatisfy { $0["MESSAGE_ID"] as? String == Self.tripEndID })
        #expect(ends.first?["GPSTRACK_TRIP"] as? String == "1" && ends.first?["GPSTRACK_TRIP_TRAVELED_M"] != nil)
        #expect(try daemon.entries("trip_start").count == 3)
        let table = try ControlSocketTests.run(["--socket", daemon.socketPath, "trips"])
        #expect(table.status == 0 && table.stdout.contains("→") && table.stdout.split(separator: "\n").count == 4)
        let stopsTable = try ControlSocketTests.run(["--socket", daemon.socketPath, "stops"])
        #expect(stopsTable.status == 0 && stopsTable.stdout.contains("ARRIVAL"))
        let gpx = try ControlSocketTests.run(["--socket", daemon.socketPath, "export", "--gpx", "--trip", "2"])
        #expect(gpx.status == 0 && gpx.stdout.components(separatedBy: "<trkpt ").count > 10)
        let status = try #require(try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#))
        #expect((status["motion"] as? [String: Any])?["state"] as? String == "stopped")

        // SIGKILL during the walk (trip 2) and SIGTERM during the long stop after it; then the
        // other way round.
        for (midTrip, midStop) in [(SIGKILL, SIGTERM), (SIGTERM, SIGKILL)] {
            let broken = try Self.play(trace, name: "day-restarted-\(midTrip)") { first in
                try first.waitFor("trip_start", count: 2, timeout: 120)
                let second = try Self.restart(first, midTrip)
                try second.waitFor("trip_end", timeout: 120)  // the walk's end, told by the successor
                return try Self.restart(second, midStop)
            }
            defer { broken.feed.stop() }
            try #require(broken.trips.count == whole.trips.count, "signal \(midTrip), then \(midStop): \(broken.trips)")
            for (a, b) in zip(broken.trips, whole.trips) {
                #expect(a["id"] as? Int == b["id"] as? Int)
                let sa = Timestamp.parse(a["started_at"] as? String ?? "") ?? 0
                let sb = Timestamp.parse(b["started_at"] as? String ?? "") ?? 1
                let ea = Timestamp.parse(a["ended_at"] as? String ?? "") ?? 0
                let eb = Timestamp.parse(b["ended_at"] as? String ?? "") ?? 1
                #expect(abs(sa - sb) <= 30 && abs(ea - eb) <= 30, "signal \(midTrip), then \(midStop)")
                let da = a["traveled_m"] as? Double ?? 0
                let db = b["traveled_m"] as? Double ?? 1
                #expect(abs(da / db - 1) <= 0.03, "trip \(a["id"] ?? "?"): \(da) m after restarts, \(db) m without")
            }
        }
    }

    /// The same day from a receiver that reports no speed or course (RMC's fields empty):
    /// gpsd then derives a speed from the jittering positions, metres a second while parked.
    @Test func aDayWithoutSpeedOrCourseThroughGpsd() throws {
        let day = DayScenario.make(
            seed: 21, firstDriveM: 2000, walkM: 600, secondDriveM: 2000,
            shortPark: 420, longPark: 900, lastPark: 420)
        var model = ReceiverModel()
        model.reportsVelocity = false
        let trace = Simulator.run(day.scenario, model: model, seed: 21)
        let t0 = try #require(trace.fixes.first?.time)
        let truths = try GeodSolveTruth.lengths(day.trips.map { Array(trace.truth[$0.start...$0.end]) })
        let run = try Self.play(trace, name: "day-nospeed")
        defer { run.feed.stop() }
        try #require(run.trips.count == 3, "\(run.trips)")
        for (i, (t, truth)) in zip(run.trips, day.trips).enumerated() {
            let start = try #require(Timestamp.parse(t["started_at"] as? String ?? ""))
            let end = try #require(Timestamp.parse(t["ended_at"] as? String ?? ""))
            #expect(
                abs(start - (t0 + Double(truth.start))) <= 30 && abs(end - (t0 + Double(truth.end))) <= 30,
                "trip \(i + 1): \(start - t0 - Double(truth.start)) s, \(end - t0 - Double(truth.end)) s off")
            let traveled = try #require(t["traveled_m"] as? Double)
            // gpsd derives a speed from the positions and an eph of 20-30 m (HDOP x 15 m):
            // the walk is counted through its held fixes (SpeedlessReceiverTests).
            #expect(
                abs(traveled / truths[i] - 1) <= (truth.kind == .walk ? 0.03 : 0.02),
                "trip \(i + 1): \(traveled) m of \(truths[i]) m")
        }
    }

    /// Parked 15 min with the guard on, then towed 300 m at 3 m/s: one `guard_breach` at
    /// warning priority, and an OwnTracks `leave` transition for `parked`.
    @Test func aTowedCarBreachesTheGuardOnceAndTellsTheBroker() throws {
        let dir = try TraccarUplinkTests.directory("guard")
        let (mqttPort, broker, sub) = try MQTTTests.brokerWithSubscriber(dir: dir)
        defer { broker.stop() }

        let steps =
            Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 900)
            + Array(repeating: Scenario.Step(speed: 3, heading: 200), count: 100)
            + Array(repeating: Scenario.Step(speed: 0, heading: 200), count: 120)
        let trace = Simulator.run(Scenario(name: "towed", start: LiveDaemonTests.base, steps: steps), seed: 31)
        let log = try LiveHarness.nmeaFile("towed.nmea", fixes: trace.fixes, padding: 400)
        let port = LiveHarness.freePort()
        let feed = try LiveHarness.Feed(log: log, port: port)
        defer { feed.stop() }
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(port)"],
            extraConfig:
                "guard = on\nmqtt_host = 127.0.0.1\nmqtt_port = \(mqttPort)\nmqtt_topic = owntracks/fleet/van\n")
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 180)
        #expect(try daemon.entries("guard_armed").count == 1)
        // The breach, then (latched until `guard ack`) the same said again with GPSTRACK_REPEAT.
        let said = try daemon.entries("guard_breach")
        let breaches = said.filter { $0["GPSTRACK_REPEAT"] == nil }
        #expect(said.dropFirst().allSatisfy { $0["GPSTRACK_REPEAT"] != nil }, "\(said)")
        try #require(breaches.count == 1, "once per parking")
        #expect(breaches[0]["PRIORITY"] as? String == "4", "warning")
        #expect(Double(breaches[0]["GPSTRACK_DISTANCE_M"] as? String ?? "") ?? 0 > 100)
        let t0 = try #require(trace.fixes.first?.time)
        let parked = trace.truth[899]
        let left = try #require(
            trace.truth.indices.first { try GeodSolveTruth.distance(parked, trace.truth[$0]) > 100 })
        let breachTime = try #require(Timestamp.parse(breaches[0]["GPSTRACK_TIME"] as? String ?? ""))
        #expect(breachTime - (t0 + Double(left)) <= 60 && breachTime > t0 + 899)
        try LiveHarness.waitFor("the parked transition", timeout: 30) {
            sub.messages().contains { $0.1["desc"] as? String == "parked" }
        }
        let transition = try #require(sub.messages().first { $0.1["desc"] as? String == "parked" })
        #expect(transition.0 == "owntracks/fleet/van/event")
        #expect(transition.1["_type"] as? String == "transition" && transition.1["event"] as? String == "leave")
        #expect(transition.1["tst"] is Int && transition.1["lat"] is Double && transition.1["acc"] is Int)
        #expect(daemon.stop() == 0)
    }
}
