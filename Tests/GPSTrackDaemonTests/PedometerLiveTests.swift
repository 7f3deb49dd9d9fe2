import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The pedometer in the live daemon, against laid-out IIO trees: a hardware step counter (with
/// a reset, a restart, a vanishing device and garbage) and an accelerometer whose buffer device
/// is a FIFO fed scan records. status, steps, the journal and OwnTracks (real mosquitto) agree.
@Suite(.serialized, .needs([.gpsfake, .journal] + Need.mosquitto))
struct PedometerLiveTests {
    init() throws { try LiveHarness.ensureJournald() }

    static func status(_ daemon: LiveHarness.DaemonProcess) -> [String: Any]? {
        guard let client = try? SocketClient(path: daemon.socketPath) else { return nil }
        return client.request(#"{"cmd":"status"}"#)?["steps"] as? [String: Any]
    }

    static func total(_ daemon: LiveHarness.DaemonProcess) -> Int? { status(daemon)?["total"] as? Int }

    static func waitTotal(_ daemon: LiveHarness.DaemonProcess, _ n: Int) throws {
        try LiveHarness.waitFor("\(n) steps in all", timeout: 20) { total(daemon) == n }
    }

    static func config(_ tree: IIOTree, mqttPort: Int? = nil) -> String {
        var c = "iio_root = \(tree.sys)\niio_dev_root = \(tree.dev)\nstride_m = 0.7\n"
        if let mqttPort { c += "mqtt_host = 127.0.0.1\nmqtt_port = \(mqttPort)\nmqtt_topic = owntracks/fleet/walker\n" }
        return c
    }

    @Test func aHardwareCounterThroughResetRestartAndOutages() throws {
        let tree = try IIOTree("counter")
        try tree.addCounter("iio:device1", name: "bma400", steps: 1000)
        // An accelerometer too, numbered first: a counter is preferred all the same.
        try tree.addAccelerometer("iio:device0", name: "lis3dh", scale: 0.0012, fifo: false)
        let dir = try TraccarUplinkTests.directory("steps-mqtt")
        let (mqttPort, broker, sub) = try MQTTTests.brokerWithSubscriber(dir: dir)
        defer { broker.stop() }
        let stepsMessages = { sub.messages().filter { $0.1["_type"] as? String == "steps" } }

        let gpsd = "127.0.0.1:\(LiveHarness.freePort())"  // nobody there: the pedometer needs no fix
        var daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", gpsd], extraConfig: Self.config(tree, mqttPort: mqttPort))
        let state = daemon.stateDirectory
        try daemon.waitFor("pedometer_found")
        try daemon.waitFor("mqtt_connected", timeout: 20)
        try Self.waitTotal(daemon, 0)
        let s = try #require(Self.status(daemon))
        #expect(s["source"] as? String == "iio:device1 (bma400)" && s["kind"] as? String == "counter")
        #expect(tree.read("iio:device1/in_steps_en") == "1")

        try tree.write("iio:device1/in_steps_input", "1030")
        try Self.waitTotal(daemon, 30)
        try tree.write("iio:device1/in_steps_input", "7")  // the chip was reset, and counted 7 since
        try Self.waitTotal(daemon, 37)
        try daemon.waitFor("pedometer_reset")
        try tree.write("iio:device1/in_steps_input", "20")
        try Self.waitTotal(daemon, 50)

        // gpstrackctl steps: all stored, and since a time to come.
        let all = try ControlSocketTests.run(["--socket", daemon.socketPath, "--json", "steps"])
        #expect(all.status == 0)
        let answer = try #require(ExecutableRunner.json(all.lines.first ?? ""))
        #expect(answer["steps"] as? Int == 50)
        #expect(abs((answer["distance_m"] as? Double ?? 0) - 35) < 0.01)
        let later = try ControlSocketTests.run([
            "--socket", daemon.socketPath, "--json", "steps", "--since", "2099-01-01T00:00:00Z",
        ])
        #expect(ExecutableRunner.json(later.lines.first ?? "")?["steps"] as? Int == 0)
        let human = try ControlSocketTests.run(["--socket", daemon.socketPath, "steps"])
        #expect(human.status == 0 && human.stdout.contains("50 steps"))

        // OwnTracks reportSteps, for the last hour.
        let now = Int(Date().timeIntervalSince1970)
        let pub = try ExecutableRunner.run(
            [
                "-h", "127.0.0.1", "-p", String(mqttPort), "-t", "owntracks/fleet/walker/cmd", "-q", "1",
                "-m", #"{"_type":"cmd","action":"reportSteps","from":\#(now - 3600),"to":\#(now + 60)}"#,
            ],
            executable: "/usr/bin/mosquitto_pub")
        #expect(pub.status == 0)
        try LiveHarness.waitFor("the reportSteps answer", timeout: 20) { !stepsMessages().isEmpty }
        let report = try #require(stepsMessages().first)
        #expect(report.0 == "owntracks/fleet/walker")
        #expect(report.1["steps"] as? Int == 50 && report.1["distance"] as? Int == 35)
        #expect(report.1["from"] as? Int == now - 3600 && report.1["to"] as? Int == now + 60)

        // The trip ends (stop): a journal entry and an OwnTracks message, agreeing with status.
        #expect(try ControlSocketTests.run(["--socket", daemon.socketPath, "stop"]).status == 0)
        try daemon.waitFor("steps")
        let entry = try #require(try daemon.entries("steps").first)
        #expect(entry["GPSTRACK_STEPS"] as? String == "50" && entry["GPSTRACK_STEPS_TOTAL"] as? String == "50")
        #expect(
            entry["GPSTRACK_WALK_DISTANCE_M"] as? String == "35"
                || entry["GPSTRACK_WALK_DISTANCE_M"] as? String == "35.0")
        try LiveHarness.waitFor("the trip's steps message", timeout: 20) { stepsMessages().count >= 2 }
        #expect(stepsMessages()[1].1["steps"] as? Int == 50)
        #expect(Self.status(daemon)?["trip"] as? Int == 50)

        // A restart loses nothing: 12 steps taken while the daemon was down count.
        #expect(daemon.stop() == 0)
        try tree.write("iio:device1/in_steps_input", "32")
        daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", gpsd], extraConfig: Self.config(tree), stateDirectory: state)
        try Self.waitTotal(daemon, 62)

        // The device vanishes, then comes back: one entry for the outage, however many retries.
        let scans = try DirectoryOpens(tree.sys)
        tree.remove("iio:device1")
        try daemon.waitFor("pedometer_lost")
        // Retries, seen: two more scans of the tree find nothing.
        let lostAt = scans.count
        try LiveHarness.waitFor("two scans of the IIO tree", timeout: 30) { scans.count >= lostAt + 2 }
        try tree.addCounter("iio:device1", name: "bma400", steps: 40)
        try daemon.waitFor("pedometer_found", count: 2, timeout: 40)
        try Self.waitTotal(daemon, 70)
        // Garbage: a second outage, again one entry; nothing counted from it.
        try tree.write("iio:device1/in_steps_input", "#!garbage")
        try daemon.waitFor("pedometer_lost", count: 2)
        let garbageAt = scans.count
        try LiveHarness.waitFor("two scans of the IIO tree", timeout: 30) { scans.count >= garbageAt + 2 }
        try tree.write("iio:device1/in_steps_input", "41")
        try daemon.waitFor("pedometer_found", count: 3, timeout: 40)
        try Self.waitTotal(daemon, 71)
        #expect(try daemon.entries("pedometer_lost").count == 2)
        #expect(daemon.stop() == 0)
    }

    @Test func anAccelerometerBufferFedThroughAFIFO() throws {
        let tree = try IIOTree("accel")
        let scale = 9.80665 * 8 / 65536  // ±4 g in 16 bits
        try tree.addAccelerometer("iio:device0", name: "lis3dh", scale: scale)
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(LiveHarness.freePort())"],
            extraConfig: Self.config(tree))
        try daemon.waitFor("pedometer_found")
        let s = try #require(Self.status(daemon))
        #expect(s["source"] as? String == "iio:device0 (lis3dh)" && s["kind"] as? String == "accelerometer")
        for axis in ["x", "y", "z"] { #expect(tree.read("iio:device0/scan_elements/in_accel_\(axis)_en") == "1") }
        #expect(tree.read("iio:device0/scan_elements/in_timestamp_en") == "1")
        #expect(tree.read("iio:device0/scan_elements/in_temp_en") == "0")
        #expect(tree.read("iio:device0/buffer/enable") == "1")
        #expect(tree.read("iio:device0/sampling_frequency") == "50")

        let trace = AccelSimulator.walk(cadence: 115, carry: .pocket, duration: 120, seed: 404, pauses: false)
        let writer = try #require(FileHandle(forWritingAtPath: tree.dev + "/iio:device0"))
        // One second of records at a time, as a driver's buffer fills.
        var at = 0
        while at < trace.samples.count {
            let end = min(at + 50, trace.samples.count)
            try writer.write(
                contentsOf: IIOTree.records(trace.samples[at..<end], scale: scale, startTime: 1_773_475_200))
            at = end
        }
        // Every record read (the FIFO empty: FIONREAD counts what waits in it), then counted.
        try LiveHarness.waitFor("the daemon to read every record", timeout: 30) {
            var waiting: Int32 = 0
            return ioctl(writer.fileDescriptor, UInt(FIONREAD), &waiting) == 0 && waiting == 0
        }
        let low = Int((Double(trace.trueSteps) * 0.97).rounded(.up))
        try LiveHarness.waitFor("\(low) steps", timeout: 30) { (Self.total(daemon) ?? 0) >= low }
        let steps = try #require(Self.status(daemon))
        let total = try #require(steps["total"] as? Int)
        #expect(Double(total) <= Double(trace.trueSteps) * 1.03, "\(total) steps, truly \(trace.trueSteps)")
        let cadence = try #require(steps["cadence_spm"] as? Double)
        #expect(abs(cadence / 115 - 1) < 0.1, "cadence \(cadence)")

        #expect(try ControlSocketTests.run(["--socket", daemon.socketPath, "stop"]).status == 0)
        try daemon.waitFor("steps")
        #expect(try daemon.entries("steps").first?["GPSTRACK_STEPS"] as? String == String(total))
        // The writer goes away: the buffer device is lost, once.
        try writer.close()
        try daemon.waitFor("pedometer_lost")
        #expect(daemon.stop() == 0)
        #expect(tree.read("iio:device0/buffer/enable") == "0", "the buffer is disabled on the way out")
    }

    @Test func noDeviceIsOneInfoEntryAndTheFeatureOff() throws {
        let tree = try IIOTree("none")
        let daemon = try LiveHarness.DaemonProcess(
            arguments: ["--gpsd", "127.0.0.1:\(LiveHarness.freePort())"],
            extraConfig: Self.config(tree))
        try daemon.waitFor("pedometer_off")
        let entry = try #require(try daemon.entries("pedometer_off").first)
        #expect(entry["PRIORITY"] as? String == "6")
        let client = try SocketClient(path: daemon.socketPath)
        #expect(client.request(#"{"cmd":"status"}"#)?["steps"] is NSNull)
        let steps = try #require(client.request(#"{"cmd":"steps"}"#))
        #expect(steps["ok"] as? Bool == false)
        #expect(daemon.stop() == 0)
        #expect(try daemon.entries("pedometer_off").count == 1)
    }
}
