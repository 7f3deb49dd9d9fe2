import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The box's inputs on a real daemon, a real gpsd fed by gpsfake and the loopback Traccar
/// server, through a sysfs tree the test writes under `input_root` (gpstrackd(8), INPUTS): a
/// van's day, its Traccar fields as Traccar's decoder reads them, and its replay.
@Suite(.serialized, .needs([.gpsfake, .journal, .tool("/usr/bin/python3", package: "python3")]))
struct InputsLiveTests {
    init() throws { try LiveHarness.ensureJournald() }

    /// Parked 2 min, a drive of 5 min with 40 s at lights, then parked 13 min.
    static let steps =
        Array(repeating: Scenario.Step(speed: 0, heading: 90), count: 120)
        + Array(repeating: Scenario.Step(speed: 12, heading: 90), count: 120)
        + Array(repeating: Scenario.Step(speed: 0, heading: 90), count: 40)
        + Array(repeating: Scenario.Step(speed: 12, heading: 90), count: 140)
        + Array(repeating: Scenario.Step(speed: 0, heading: 90), count: 780)

    @Test func aVansDayOnItsInputsReachesTheJournalTraccarAndReplaysAlike() throws {
        let tree = try InputSourceTests.Tree("live")
        let supply = "/sys/class/power_supply/ups"
        try tree.write("/run/ignition", "0\n")
        try tree.write("/run/sos", "0\n")
        try tree.write(supply + "/online", "1\n")
        try tree.write(supply + "/capacity", "80\n")
        try tree.write(supply + "/voltage_now", "12600000\n")
        let dir = try TraccarUplinkTests.directory("inputs")
        let httpPort = LiveHarness.freePort()
        let server = try TraccarUplinkTests.Server(port: httpPort, dir: dir, mode: "200")
        let trace = Simulator.run(Scenario(name: "van", start: LiveDaemonTests.base, steps: Self.steps), seed: 41)
        let fixes = TraccarUplinkTests.now(trace)
        let t0 = try #require(fixes.first?.time)
        let log = try LiveHarness.nmeaFile("inputs.nmea", fixes: fixes, padding: 60)
        let gpsPort = LiveHarness.freePort()
        let inputConfig = """
            input_root = \(tree.root)
            input_ignition = file:/run/ignition
            input_power = power_supply:ups
            input_sos = file:/run/sos
            guard_repeat_s = 3600
            trip_source = both
            guard = on
            guard_arm_on_ignition_off = yes
            guard_after_s = 0

            """
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(gpsPort)"],
            extraConfig: TraccarUplinkTests.config(httpPort) + inputConfig)
        defer { _ = daemon.stop() }
        try daemon.waitFor("started")
        // 16 ms a sentence, four an epoch: 15 s of fix time a wall second.
        let feed = try LiveHarness.Feed(log: log, port: gpsPort, cycle: 0.016)
        defer { feed.stop() }
        let recorder = try TPVRecorder(port: gpsPort, file: dir + "/gpsd.json")
        let status = { try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#) ?? [:] }
        func fixTime() throws -> Double {
            Timestamp.parse(((try status()["fix"] as? [String: Any])?["time"] as? String) ?? "") ?? 0
        }
        func inputs() throws -> [String: Any] { try status()["inputs"] as? [String: Any] ?? [:] }

        // Parked, engine off; the ignition goes on before the drive (at 120 s).
        try daemon.waitFor("fix_acquired")
        try LiveHarness.waitFor("the first readings", timeout: 60) { try inputs()["ignition"] as? String == "off" }
        #expect(try fixTime() < t0 + 100, "the ignition must go on before the drive: make the feed slower")
        try tree.write("/run/ignition", "1\n")
        try daemon.waitFor("ignition_on")
        // Parked again (from 420 s): the ignition goes off.
        try LiveHarness.waitFor("parked", timeout: 120) { try fixTime() > t0 + 440 }
        try tree.write("/run/ignition", "0\n")
        try daemon.waitFor("ignition_off")
        // The supply is cut; the battery wavers about 20 % (one battery_low); the panic button.
        try daemon.waitFor("guard_armed")
        try tree.write(supply + "/online", "0\n")
        try daemon.waitFor("power_lost")
        let guardAck = try ExecutableRunner.run(
            ["--socket", daemon.socketPath, "guard", "ack"], executable: ControlSocketTests.ctl)
        #expect(guardAck.status == 0, "\(guardAck.stdout) \(guardAck.stderr)")
        try daemon.waitFor("guard_ack")
        for pct in [21, 19, 21, 19, 18] {
            try tree.write(supply + "/capacity", "\(pct)\n")
            try LiveHarness.waitFor("battery at \(pct) %", timeout: 30) { try inputs()["battery_pct"] as? Int == pct }
        }
        try tree.write("/run/sos", "1\n")
        try daemon.waitFor("sos")
        let ack = try ExecutableRunner.run(
            ["--socket", daemon.socketPath, "sos", "ack"], executable: ControlSocketTests.ctl)
        #expect(ack.status == 0 && ack.stdout.contains("acknowledged"), "\(ack.status) \(ack.stdout) \(ack.stderr)")
        try daemon.waitFor("sos_ack")
        #expect(try fixTime() < t0 + 1100, "all of it while the feed ran: make the feed slower")
        try daemon.waitFor("gpsd_lost", containing: "no report", timeout: 300)
        try LiveHarness.waitFor("the outbox drained", timeout: 120) {
            try TraccarUplinkTests.traccarStatus(daemon)["queued"] as? Int == 0
        }
        let after = try inputs()
        #expect(after["ignition"] as? String == "off" && after["power"] as? String == "off")
        #expect(after["battery_pct"] as? Int == 18 && after["sos"] as? String == "acknowledged")

        // The journal: each event once, the engine's seconds those of fix time between them.
        let on = try #require(try daemon.entries("ignition_on").first)
        let off = try #require(try daemon.entries("ignition_off").first)
        let tOn = try #require(Timestamp.parse(on["GPSTRACK_TIME"] as? String ?? ""))
        let tOff = try #require(Timestamp.parse(off["GPSTRACK_TIME"] as? String ?? ""))
        let engine = try #require(Double(off["GPSTRACK_ENGINE_S"] as? String ?? ""))
        #expect(abs(engine - (tOff - tOn)) < 0.01, "engine \(engine) s, the fix times \(tOff - tOn) s apart")
        #expect(tOn < t0 + 120 && tOff > t0 + 420, "on before the drive, off after it: \(tOn - t0), \(tOff - t0)")
        for kind in ["ignition_on", "ignition_off", "power_lost", "battery_low", "sos", "sos_ack", "guard_ack"] {
            #expect(try daemon.entries(kind).count == 1, "\(kind) once")
        }
        #expect(try daemon.entries("battery_low").first?["GPSTRACK_BATTERY_PCT"] as? String == "19")
        // Armed at once where the ignition went off; the cut while armed is the guard's alarm.
        // (Found off at the start, it armed at the first fix too; the ignition on disarmed it.)
        let arming = try daemon.entries("guard_armed")
        #expect(arming.count == 2, "at the start's ignition off and at the day's: \(arming.count)")
        #expect(
            arming.last?["GPSTRACK_TIME"] as? String == off["GPSTRACK_TIME"] as? String, "armed at the ignition off")
        let cutEntry = try #require(try daemon.entries("power_lost").first)
        #expect(cutEntry["GPSTRACK_REPEAT"] as? String == "0" && cutEntry["PRIORITY"] as? String == "2", "\(cutEntry)")
        #expect(try daemon.entries("guard_breach").isEmpty, "parked all along")
        #expect(try daemon.entries("power_restored").isEmpty && daemon.entries("input_failed").isEmpty)
        // `trip_source = both`: one trip (the lights did not end it), ended by the ignition at
        // once, at the last fix before it, not 300 s later as GPS alone would have it.
        let ends = try daemon.entries("trip_end")
        let starts = try daemon.entries("trip_start")
        #expect(ends.count == 1 && starts.count == 1, "one trip: \(starts.count) started, \(ends.count) ended")
        let end = try #require(Timestamp.parse(ends.first?["GPSTRACK_END"] as? String ?? ""))
        #expect(end <= tOff && tOff - end < 1.5, "the trip ended at \(end - t0), the ignition off at \(tOff - t0)")
        // The ignition was on from before the departure to the end: the trip's engine seconds
        // are its duration, in the journal and in `trips`.
        let tripEngine = try #require(Double(ends.first?["GPSTRACK_ENGINE_S"] as? String ?? ""))
        let duration = try #require(Double(ends.first?["GPSTRACK_DURATION_S"] as? String ?? ""))
        #expect(abs(tripEngine - duration) < 0.01, "engine \(tripEngine) s of a \(duration) s trip")
        let trips = try SocketClient(path: daemon.socketPath).request(#"{"cmd":"trips"}"#)?["trips"] as? [[String: Any]]
        let listed = try #require(trips?.first?["engine_s"] as? Double, "\(trips ?? [])")
        #expect(abs(listed - duration) < 0.06, "trips: engine \(listed) s")

        // Traccar: its own alarm names once each, `ignition` as Traccar's booleans, a position at
        // each ignition change, and the battery and supply on what follows the cut.
        let taken = server.requests().filter { $0.entry["status"] as? Int == 200 }.map(\.fields)
        let alarms = taken.compactMap { $0["alarm"] }
        #expect(alarms.sorted() == ["lowBattery", "powerCut", "sos"], "\(alarms)")
        #expect(
            taken.filter { Double($0["timestamp"] ?? "") ?? 0 >= tOn.rounded(.down) }
                .allSatisfy { ["true", "false"].contains($0["ignition"] ?? "") },
            "ignition on every position from the first reading on")
        for (t, state) in [(tOn, "true"), (tOff, "false")] {
            #expect(
                taken.contains { Double($0["timestamp"] ?? "") == t.rounded(.down) && $0["ignition"] == state },
                "a position at the ignition's change to \(state)")
        }
        let cut = try #require(taken.first { $0["alarm"] == "powerCut" })
        #expect(cut["charge"] == "false" && cut["batt"] != nil && cut["power"] == "12.6", "\(cut)")

        // The day replayed: gpsd's reports with the journaled readings put in at their times.
        let readings = try daemon.entries("input_reading").compactMap { $0["GPSTRACK_RAW"] as? String }
        #expect(readings.count >= 9, "3 first readings, 2 ignition, the cut, 5 charges, the button: \(readings.count)")
        let day = try Self.merged(gpsd: dir + "/gpsd.json", inputs: readings)
        let conf = try ExecutableRunner.temporaryFile("inputs-replay.conf", contents: inputConfig)
        let replay = try ExecutableRunner.run(["replay", "--config", conf, day])
        #expect(replay.status == 0, "\(replay.stderr)")
        let compared: Set<String> = [
            "ignition_on", "ignition_off", "power_lost", "battery_low", "sos", "trip_start", "trip_end", "guard_armed",
        ]
        let replayed = replay.stdout.split(separator: "\n").compactMap { ExecutableRunner.json(String($0)) }
            .filter { compared.contains($0["event"] as? String ?? "") }
            .map { "\($0["event"] ?? "") \($0["time"] ?? $0["end"] ?? "")" }
        let live = try daemon.entries().filter { compared.contains($0["GPSTRACK_EVENT"] as? String ?? "") }
            .map { "\($0["GPSTRACK_EVENT"] ?? "") \($0["GPSTRACK_TIME"] ?? "")" }
        #expect(replayed == live, "replayed:\n\(replayed)\nlive:\n\(live)")
        // The engine's seconds alike (the line has them to 0.1 s, the journal to 0.01 s).
        let replayedEngine =
            replay.stdout.split(separator: "\n").compactMap { ExecutableRunner.json(String($0)) }
            .first { $0["event"] as? String == "ignition_off" }?["engine_s"] as? Double
        #expect(abs((replayedEngine ?? 0) - engine) <= 0.051, "replayed \(replayedEngine ?? .nan) s, live \(engine) s")
        _ = recorder
    }

    /// gpsd's recorded lines with each `INPUT` line put before the first report of a later time.
    static func merged(gpsd: String, inputs: [String]) throws -> String {
        var pending = inputs.compactMap { line in
            (ExecutableRunner.json(line)?["time"] as? String).flatMap(Timestamp.parse).map { ($0, line) }
        }
        var out: [String] = []
        let text = try String(contentsOfFile: gpsd, encoding: .utf8)
        for raw in text.split(whereSeparator: \.isNewline).map(String.init) {
            if let t = (ExecutableRunner.json(raw)?["time"] as? String).flatMap(Timestamp.parse) {
                while let (at, line) = pending.first, at < t {
                    out.append(line)
                    pending.removeFirst()
                }
            }
            out.append(raw)
        }
        out += pending.map(\.1)
        return try ExecutableRunner.temporaryFile("inputs-day.json", contents: out.joined(separator: "\n") + "\n")
    }
}

/// Bad inputs on a real daemon (gpstrackd(8), INPUTS): a file of garbage, a missing one, a
/// power supply without `capacity` and a line flapping a thousand times a second are each one
/// clear journal entry; the daemon runs on and stops cleanly. No gpsd is needed.
@Suite(.serialized, .needs([.journal]))
struct InputsBadLiveTests {
    init() throws { try LiveHarness.ensureJournald() }

    @Test func garbageMissingNoCapacityAndFlappingAreEachSaidOnce() throws {
        let tree = try InputSourceTests.Tree("bad")
        try tree.write("/run/ign", "garbage\n")
        try tree.write("/sys/class/power_supply/ups/online", "1\n")
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(LiveHarness.freePort())"],
            extraConfig:
                "input_root = \(tree.root)\ninput_ignition = file:/run/ign\ninput_sos = file:/run/sos\n"
                + "input_power = power_supply:ups\n")
        defer { _ = daemon.stop() }
        try daemon.waitFor("started")
        try daemon.waitFor("input_failed", count: 3)
        let failed = try daemon.entries("input_failed")
        let reasons = failed.compactMap { $0["GPSTRACK_REASON"] as? String }
        #expect(reasons.contains { $0.hasSuffix("/run/ign holds 'garbage', not 0 or 1") }, "\(reasons)")
        #expect(reasons.contains { $0.hasSuffix("/run/sos does not exist") }, "\(reasons)")
        let capacity = try #require(failed.first { $0["GPSTRACK_FIELD"] as? String == "capacity" })
        #expect(capacity["PRIORITY"] as? String == "5" && capacity["GPSTRACK_INPUT"] as? String == "power")
        // The line mended, then flapped for three seconds by a script at 1 kHz.
        try tree.write("/run/ign", "0\n")
        try daemon.waitFor("input_restored")
        tree.flap("/run/ign")
        try daemon.waitFor("input_unsteady")
        try daemon.waitFor("input_restored", count: 2, timeout: 60)
        #expect(try daemon.entries("input_unsteady").count == 1, "said once")
        #expect(try daemon.entries("input_failed").count == 3, "each outage once, not at every poll")
        let status = try #require(try SocketClient(path: daemon.socketPath).request(#"{"cmd":"status"}"#))
        #expect(status["ok"] as? Bool == true)
        #expect(daemon.stop() == 0)
    }
}
