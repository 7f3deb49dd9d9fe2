import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The tow alarm through the live daemon (gpsd fed by gpsfake, the journal, the state
/// database): a van parked 15 min, towed 300 m at 1 m/s, then left at the new place. The
/// breach's repeats move with it and their distance grows; at the new place the guard does
/// not arm (`guard_arm_refused`); a SIGKILLed daemon's successor goes on repeating the same
/// latch; only `guard ack` silences it, and the guard then arms where the van stands.
@Suite(.serialized, .needsLiveParts)
struct GuardTowLiveTests {
    init() throws { try LiveHarness.ensureJournald() }

    static func time(_ e: [String: Any]) -> Double { Timestamp.parse(e["GPSTRACK_TIME"] as? String ?? "") ?? .nan }
    static func number(_ e: [String: Any], _ key: String) -> Double { Double(e[key] as? String ?? "") ?? .nan }
    static func guardStatus(_ d: LiveHarness.DaemonProcess) throws -> [String: Any] {
        let status = try #require(try SocketClient(path: d.socketPath).request(#"{"cmd":"status"}"#))
        return try #require(status["guard"] as? [String: Any], "\(status)")
    }

    @Test func theBreachFollowsTheVanSurvivesAKillAndOnlyAnAckSilencesIt() throws {
        let steps =
            Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 900)
            + Array(repeating: Scenario.Step(speed: 1, heading: 110), count: 300)
            + Array(repeating: Scenario.Step(speed: 0, heading: 110), count: 3000)
        let trace = Simulator.run(Scenario(name: "towed", start: LiveDaemonTests.base, steps: steps), seed: 33)
        let t0 = try #require(trace.fixes.first?.time)
        let log = try LiveHarness.nmeaFile("guard-tow.nmea", fixes: trace.fixes, padding: 100)
        let port = LiveHarness.freePort()
        // Slower than the default: the kill, the restart and the ack come while fixes still flow.
        let feed = try LiveHarness.Feed(log: log, port: port, cycle: 0.006)
        defer { feed.stop() }
        let config = "trip_mode = auto\nguard = on\nguard_repeat_s = 30\n"
        let first = try LiveHarness.DaemonProcess(arguments: ["--gpsd", "127.0.0.1:\(port)"], extraConfig: config)
        try first.waitFor("guard_arm_refused", timeout: 240)
        let parked = trace.truth[899]
        let newPlace = trace.truth[1199]
        let refused = try #require(try first.entries("guard_arm_refused").first)
        let refusedAt = Coordinate(
            latitude: Self.number(refused, "GPSTRACK_LAT"), longitude: Self.number(refused, "GPSTRACK_LON"))
        #expect(try GeodSolveTruth.distance(refusedAt, newPlace) < 15, "refused at the new place")
        #expect(try first.entries("guard_armed").count == 1, "armed once, at the first parking")

        // The breach, then repeats that move with the van: the distance grows while it is towed.
        let said = try first.entries("guard_breach")
        try #require(said.first?["GPSTRACK_REPEAT"] == nil && said.count >= 5, "\(said.count) breach entries")
        let towed = said.filter { Self.time($0) <= t0 + 1200 }
        let distances = towed.map { Self.number($0, "GPSTRACK_DISTANCE_M") }
        #expect(towed.count >= 3 && zip(distances, distances.dropFirst()).allSatisfy { $0 < $1 }, "\(distances)")
        for e in said {
            let k = min(max(Int(Self.time(e) - t0), 0), trace.truth.count - 1)
            let at = Coordinate(latitude: Self.number(e, "GPSTRACK_LAT"), longitude: Self.number(e, "GPSTRACK_LON"))
            #expect(try GeodSolveTruth.distance(at, trace.truth[k]) < 15, "said from where the van was: \(e)")
        }
        let lastFirst = Int(said.last?["GPSTRACK_REPEAT"] as? String ?? "") ?? 0
        // The last said before the kill: the new place's distance from the parked one (GeodSolve),
        // but for the receiver's error at both ends.
        let truth = try GeodSolveTruth.distance(parked, newPlace)
        let last = Self.number(said.last ?? [:], "GPSTRACK_DISTANCE_M")
        #expect(truth > 250 && abs(last - truth) < 20, "said \(last) m from where it was parked, truly \(truth) m")

        // SIGKILL; the successor repeats the same latch, neither raising it anew nor arming.
        first.signal(SIGKILL)
        first.process.waitUntilExit()
        let second = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(port)"], extraConfig: config, stateDirectory: first.stateDirectory)
        try LiveHarness.waitFor("the latch said again after the restart", timeout: 120) {
            try !second.entries("guard_breach").isEmpty
        }
        let again = try second.entries("guard_breach")
        #expect(
            again.allSatisfy { (Int($0["GPSTRACK_REPEAT"] as? String ?? "") ?? 0) > lastFirst }, "\(again)")
        let latched = try Self.guardStatus(second)
        #expect(latched["alarm"] as? String == "alarm" && latched["state"] as? String == "waiting", "\(latched)")
        #expect(try second.entries("guard_armed").isEmpty && second.entries("guard_arm_refused").isEmpty)

        // guard ack: silent, and armed where the van stands at the next fix.
        let ack = try ControlSocketTests.run(["--socket", second.socketPath, "guard", "ack"])
        #expect(ack.status == 0, "\(ack.stdout)\(ack.stderr)")
        try second.waitFor("guard_ack")
        try second.waitFor("guard_armed", timeout: 120)
        let ackTime = Self.time(try #require(try second.entries("guard_ack").first))
        let armed = try #require(try second.entries("guard_armed").first)
        let armedAt = Coordinate(
            latitude: Self.number(armed, "GPSTRACK_LAT"), longitude: Self.number(armed, "GPSTRACK_LON"))
        #expect(try GeodSolveTruth.distance(armedAt, newPlace) < 15, "armed at the new place")
        try second.waitFor("gpsd_lost", containing: "no report", timeout: 240)
        #expect(
            try second.entries("guard_breach").allSatisfy { Self.time($0) <= ackTime }, "nothing said after the ack")
        #expect(try Self.guardStatus(second)["state"] as? String == "armed")
        #expect(second.stop() == 0)
    }
}
