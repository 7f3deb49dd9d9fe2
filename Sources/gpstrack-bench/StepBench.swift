import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol
import GPSTrackSim

#if canImport(Glibc)
import Glibc
#endif

/// The pedometer's figures: the step detector's accuracy on seeded simulated walks and rides,
/// and its throughput in samples per second, in process and through `gpstrackd replay-accel`.
enum StepBench {
    static func run() {
        print("")
        print("Step detector on seeded simulated recordings (50 Hz, 10 min walks with pauses; target within 3 %):")
        let cadences: [Double] = [60, 90, 120, 150, 180]
        print("carry      " + cadences.map { pad("\(Int($0)) spm", 10) }.joined())
        for carry in Carry.allCases {
            var row = pad(carry.rawValue, 11)
            for cadence in cadences {
                let trace = AccelSimulator.walk(
                    cadence: cadence, carry: carry, duration: 600, seed: 5000 + UInt64(cadence))
                var d = StepDetector()
                for s in trace.samples { _ = d.ingest(s) }
                row += pad("\(fmt((Double(d.steps) / Double(trace.trueSteps) - 1) * 100, 2)) %", 10)
            }
            print(row)
        }
        var rides = "30 min rides, steps counted (under 18 = 1 % of 30 min at 60 spm):"
        for ride in Ride.allCases {
            let trace = AccelSimulator.ride(ride, duration: 1800, seed: 5001)
            var d = StepDetector()
            for s in trace.samples { _ = d.ingest(s) }
            rides += " \(ride.rawValue) \(d.steps);"
        }
        print(rides)

        // Throughput: an hour of walking and riding, 180,000 samples.
        let walk = AccelSimulator.walk(cadence: 110, carry: .pocket, duration: 1800, seed: 9)
        let car = AccelSimulator.ride(.car, duration: 1800, seed: 9)
        let samples = walk.samples + car.samples.map { AccelSample(t: $0.t + 1800, x: $0.x, y: $0.y, z: $0.z) }
        var best = Double.infinity
        var counted: [Int] = []
        for _ in 0..<5 {
            var d = StepDetector()
            var steps = 0
            let t0 = MonotonicClock.now()
            for s in samples { steps &+= d.ingest(s) }
            best = min(best, MonotonicClock.now() - t0)
            counted.append(steps)  // printed below, so the loop cannot be optimized away
        }
        let path = "/tmp/gpstrackd-bench-accel-\(getpid()).csv"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = OutputWriter(fd: fd)
        try? writer.writeLine(AccelSimulator.csv(samples))
        try? writer.flush()
        close(fd)
        let replay = bestSpawn(["replay-accel", path])
        print(
            "step detector, \(samples.count) samples (1 h at 50 Hz): in process best of 5 \(fmt(best * 1000, 1)) ms, "
                + "\(Int(Double(samples.count) / best)) samples/s (\(counted.max() ?? 0) steps); gpstrackd replay-accel (CSV parsing included) best of 3 "
                + "\(fmt(replay, 3)) s, \(Int(Double(samples.count) / replay)) samples/s; 50 Hz live needs 50 samples/s"
        )
    }

    /// The best of three wall times of `gpstrackd ARGS` (output discarded).
    static func bestSpawn(_ args: [String]) -> Double {
        let me = CommandLine.arguments[0]
        let binary = (me.contains("/") ? String(me[..<me.lastIndex(of: "/")!]) : ".") + "/gpstrackd"
        var best = Double.infinity
        for _ in 0..<3 {
            var pid: pid_t = 0
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup(binary)] + args.map { strdup($0) } + [nil]
            let t0 = MonotonicClock.now()
            guard posix_spawn(&pid, binary, &actions, nil, argv, environ) == 0 else { return .nan }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            best = min(best, MonotonicClock.now() - t0)
            for p in argv { free(p) }
            posix_spawn_file_actions_destroy(&actions)
        }
        return best
    }

    static func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
}
