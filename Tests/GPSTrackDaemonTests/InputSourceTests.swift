import Foundation
import GPSTrackCore
import Testing

@testable import GPSTrackDaemon

/// The inputs' reads and debounce (gpstrackd(8), INPUTS) on a sysfs tree the test writes under
/// `input_root`: every file strictly read, every bad one a problem naming it; a level counts
/// once it has held; a flapping line is said once and costs one read a poll.
@Suite struct InputSourceTests {
    /// A folder standing for `/`, with files written through a rename.
    final class Tree {
        let root: String
        init(_ name: String) throws {
            root = NSTemporaryDirectory() + "gpstrackd-inputs-\(name)-\(getpid())"
            try? FileManager.default.removeItem(atPath: root)
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }
        func write(_ path: String, _ value: String) throws {
            let full = root + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try value.write(toFile: full + ".tmp", atomically: false, encoding: .utf8)
            guard rename(full + ".tmp", full) == 0 else { throw POSIXError(.EIO) }
        }
        func remove(_ path: String) { try? FileManager.default.removeItem(atPath: root + path) }

        /// A script at 1 kHz: `path` written 1 and 0 in turn `writes` times on a thread of its
        /// own (the stimulus's length, not a wait), then `last`.
        func flap(_ path: String, writes: Int = 3000, last: String? = nil) {
            let full = root + path
            Thread {
                for i in 0..<writes {
                    try? ((i % 2 == 0 ? "1" : "0") + "\n").write(toFile: full, atomically: true, encoding: .utf8)
                    usleep(1000)
                }
                if let last { try? (last + "\n").write(toFile: full, atomically: true, encoding: .utf8) }
            }.start()
        }
    }

    static func read(_ source: InputConfig.Source, _ tree: Tree, activeLow: Bool = false, was: Bool? = nil)
        -> Result<InputRead.Sample, InputProblem>
    {
        InputRead.read(source, root: tree.root, activeLow: activeLow, was: was)
    }

    @Test func aFileHoldsExactlyZeroOrOneAndAnythingElseIsNamed() throws {
        let tree = try Tree("file")
        let source = InputConfig.Source.file(path: "/run/ignition")
        try tree.write("/run/ignition", "1\n")
        #expect(try Self.read(source, tree).get().level == true)
        #expect(try Self.read(source, tree, activeLow: true).get().level == false, "active low: 1 is off")
        try tree.write("/run/ignition", "0")
        #expect(try Self.read(source, tree).get().level == false)
        for garbage in ["2", "on", "1 1", "\u{FF}", "01"] {
            try tree.write("/run/ignition", garbage)
            guard case .failure(let p) = Self.read(source, tree) else {
                Issue.record("'\(garbage)' read as a level")
                continue
            }
            #expect(p.path == tree.root + "/run/ignition" && p.text.contains("not 0 or 1") || p.why.contains("empty"))
        }
        tree.remove("/run/ignition")
        #expect(throws: InputProblem.self) { try Self.read(source, tree).get() }
        if case .failure(let p) = Self.read(source, tree) { #expect(p.why == "does not exist") }
    }

    @Test func aPowerSupplyGivesItsStateChargeAndVoltageAndSaysWhatItLacks() throws {
        let tree = try Tree("supply")
        let dir = "/sys/class/power_supply/ups"
        let source = InputConfig.Source.powerSupply(name: "ups")
        try tree.write(dir + "/online", "1\n")
        try tree.write(dir + "/capacity", "87\n")
        try tree.write(dir + "/voltage_now", "12650000\n")
        #expect(try Self.read(source, tree).get() == InputRead.Sample(level: true, batteryPct: 87, volts: 12.65))
        tree.remove(dir + "/capacity")
        #expect(try Self.read(source, tree).get() == InputRead.Sample(level: true, volts: 12.65, noCapacity: true))
        try tree.write(dir + "/capacity", "150\n")
        #expect(throws: InputProblem.self) { try Self.read(source, tree).get() }
        try tree.write(dir + "/capacity", "40\n")
        try tree.write(dir + "/voltage_now", "-5\n")
        #expect(throws: InputProblem.self) { try Self.read(source, tree).get() }
        tree.remove(dir + "/voltage_now")
        // A battery's own supply has no `online`: its `status` tells.
        tree.remove(dir + "/online")
        try tree.write(dir + "/status", "Discharging\n")
        #expect(try Self.read(source, tree).get() == InputRead.Sample(level: false, batteryPct: 40))
        try tree.write(dir + "/status", "Charging\n")
        #expect(try Self.read(source, tree).get().level == true)
        try tree.write(dir + "/status", "Exploding\n")
        #expect(throws: InputProblem.self) { try Self.read(source, tree).get() }
        tree.remove(dir + "/status")
        #expect(throws: InputProblem.self) { try Self.read(source, tree).get() }
    }

    @Test func anIIOVoltageIsOnAboveItsThresholdAndOffBelowItLessTheHysteresis() throws {
        let tree = try Tree("iio")
        let dir = "/sys/bus/iio/devices/iio:device0"
        let source = InputConfig.Source.iio(device: "iio:device0", channel: 1, volts: 9.5)
        // 4.8828125 mV a unit (a 12-bit ADC over a 20 V divider): 2048 units are 10 V.
        try tree.write(dir + "/in_voltage_scale", "4.8828125\n")
        try tree.write(dir + "/in_voltage1_raw", "2048\n")
        let on = try Self.read(source, tree).get()
        #expect(on.level == true && on.volts == 10)
        try tree.write(dir + "/in_voltage1_raw", "1905\n")  // 9.30 V: under 9.5, within 0.475 of it
        #expect(try Self.read(source, tree, was: true).get().level == true, "held on by the hysteresis")
        #expect(try Self.read(source, tree, was: nil).get().level == false, "not on from below")
        try tree.write(dir + "/in_voltage1_raw", "1820\n")  // 8.89 V
        #expect(try Self.read(source, tree, was: true).get().level == false)
        try tree.write(dir + "/in_voltage1_raw", "lots\n")
        #expect(throws: InputProblem.self) { try Self.read(source, tree).get() }
        try tree.write(dir + "/in_voltage1_raw", "2048\n")
        try tree.write(dir + "/in_voltage1_scale", "-1\n")  // the channel's own scale wins, and is bad
        #expect(throws: InputProblem.self) { try Self.read(source, tree).get() }
    }

    @Test func aLevelCountsOnceItHasHeldAndTheIgnitionOffWaitsItsDelay() {
        var d = InputDebounce(holdS: 0.05, offDelayS: 2)
        #expect(d.take(true, now: 0).isEmpty)
        #expect(d.take(true, now: 0.04).isEmpty)
        #expect(d.take(true, now: 0.06) == [.settled(true)])
        #expect(d.take(false, now: 1).isEmpty)
        #expect(d.take(true, now: 1.5).isEmpty, "a crank's dip of 0.5 s")
        #expect(d.settled == true)
        #expect(d.take(false, now: 3).isEmpty)
        #expect(d.take(false, now: 5.0).isEmpty, "off for 2.0 s: 2.05 needed")
        #expect(d.take(false, now: 5.06) == [.settled(false)])
    }

    /// A line flapping a thousand times a second, polled every 20 ms: said unsteady once, its
    /// settled level kept, steady again once quiet.
    @Test func aFlappingLineIsSaidOnceAndKeepsItsLevel() {
        var d = InputDebounce(holdS: 0.05)
        _ = d.take(false, now: 0)
        #expect(d.take(false, now: 0.1) == [.settled(false)])
        var said: [InputDebounce.Change] = []
        var rng = SystemRandomNumberGenerator()
        var level = false
        // 5 s of polls of a line that changes 1,000 times a second: what a poll sees is chance.
        for i in 0..<250 {
            level = Bool.random(using: &rng) ? !level : level
            if i % 2 == 0 { level.toggle() }
            said += d.take(level, now: 0.2 + Double(i) * 0.02)
        }
        let unsteady = said.firstIndex { if case .unsteady = $0 { return true } else { return false } }
        #expect(said.filter { if case .unsteady = $0 { return true } else { return false } }.count == 1)
        #expect(!said.contains(.steady), "still flapping")
        // Before it was found unsteady a short run may have settled; after, nothing does.
        let kept = d.settled
        if let unsteady { #expect(said[(unsteady + 1)...].isEmpty, "no level counts while it flaps") }
        var after: [InputDebounce.Change] = []
        var t = 5.2
        while t < 12 {
            after += d.take(kept == true ? false : true, now: t)
            t += 0.02
        }
        #expect(after.first == .steady && after.last == .settled(kept != true), "quiet for 5 s: steady, then its level")
        #expect(d.settled == (kept != true))
    }
}

/// The source's thread on real files: a line a script flips a thousand times a second for three
/// seconds, a file that goes missing and one holding garbage.
@Suite struct InputSourceThreadTests {
    final class Seen: @unchecked Sendable {  // a lock guards `events`
        private let lock = NSLock()
        private var list: [InputSource.Event] = []
        func add(_ e: InputSource.Event) { lock.withLock { list.append(e) } }
        var events: [InputSource.Event] { lock.withLock { list } }
    }

    @Test func aFlappingMissingAndGarbageLineEachSaidOnceWithBoundedReadings() throws {
        let tree = try InputSourceTests.Tree("thread")
        try tree.write("/run/ign", "0\n")
        var config = InputConfig()
        config.root = tree.root
        config.sources[.ignition] = .file(path: "/run/ign")
        let source = try InputSource(config: config)
        let seen = Seen()
        let events = source.start()
        // The stream is read on a thread of its own, as the daemon reads it on the tracker's:
        // beside the other suites the cooperative pool may have no thread to spare.
        let executor = try ThreadExecutor()
        let pump = Task(executorPreference: executor) { for await e in events { seen.add(e) } }
        defer { pump.cancel() }
        try LiveHarness.waitFor("the first settled level", timeout: 30) {
            seen.events.contains(.reading(.level(.ignition, on: false)))
        }
        tree.flap("/run/ign", last: "1")
        try LiveHarness.waitFor("steady again, on", timeout: 60) {
            let e = seen.events
            let lastReading = e.last { if case .reading = $0 { true } else { false } }
            return e.contains(.restored(.ignition)) && lastReading == .reading(.level(.ignition, on: true))
        }
        let unsteady = seen.events.filter { if case .unsteady = $0 { true } else { false } }
        #expect(unsteady.count == 1, "said once: \(seen.events)")
        let readings = seen.events.filter { if case .reading = $0 { true } else { false } }
        #expect(
            readings.count <= 4,
            "the first level, at most a change or two before it was unsteady, the last: \(readings)")
        tree.remove("/run/ign")
        try LiveHarness.waitFor("the missing file said", timeout: 30) {
            seen.events.contains {
                if case .failed(.ignition, let why) = $0 { why.contains("does not exist") } else { false }
            }
        }
        try tree.write("/run/ign", "garbage\n")
        try tree.write("/run/ign", "1\n")
        try LiveHarness.waitFor("reads again", timeout: 30) {
            seen.events.filter { $0 == .restored(.ignition) }.count == 2
        }
        #expect(seen.events.filter { if case .failed = $0 { true } else { false } }.count == 1, "once per outage")
        let stopped = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) {
            await source.stop()
            stopped.signal()
        }
        #expect(stopped.wait(timeout: .now() + 30) == .success, "the source stops")
    }
}
