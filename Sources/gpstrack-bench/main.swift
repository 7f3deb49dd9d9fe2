import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol
import GPSTrackSim

#if canImport(Glibc)
import Glibc
#endif

// `make bench`: tracking quality on seeded simulated traces next to the naive baseline, then
// replay throughput and peak RSS of the real `gpstrackd replay` on a 100,000-fix log.

let seeds: [UInt64] = Array(1...20)

/// `gpstrack-bench --write-sample PATH`: writes the bundled sample log (a 600 m walk to a car, six
/// minutes waiting there, a 3 km drive, seven minutes parked), as gpspipe -w would record it, with gpsd 3.22's partial
/// TPVs and SKY reports.
/// `gpstrack-bench --retention`: the storage month alone.
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--retention" {
    RetentionBench.run()
    exit(0)
}

/// `gpstrack-bench --wal`: the write-ahead log's bound and its cost alone.
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--wal" {
    WALBench.run()
    exit(0)
}

/// `gpstrack-bench --write-fences N PATH`: N mixed fences over the 20 km benchmark square.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--write-fences", let n = Int(CommandLine.arguments[2])
{
    let fences = FenceGenerator.fences(
        count: n, origin: Coordinate(latitude: 52.42, longitude: 13.25), sideM: 20_000, seed: 17)
    let fd = open(CommandLine.arguments[3], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let writer = OutputWriter(fd: fd)
    try? writer.writeLine(FenceGenerator.geoJSON(fences))
    try? writer.flush()
    close(fd)
    exit(0)
}

/// `gpstrack-bench --time-fence-load PATH`: how long `FenceLoader` takes over PATH, as the
/// daemon loads it at start (the first load in this process, then the best of five).
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--time-fence-load" {
    let path = CommandLine.arguments[2]
    var times: [Double] = []
    var count = 0
    for _ in 0..<6 {
        let t0 = MonotonicClock.now()
        guard let index = try? FenceLoader.load(path) else {
            print("cannot load \(path)")
            exit(1)
        }
        times.append(MonotonicClock.now() - t0)
        count = index.fences.count
    }
    let ms = { (t: Double) in "\((t * 10_000).rounded() / 10) ms" }
    print("\(count) fences in \(ms(times[0])) (first load), \(ms(times.dropFirst().min()!)) (best of 5 more)")
    exit(0)
}

/// `gpstrack-bench --write-circuit-log N PATH`: N fixes (1 Hz) on the 7 km-radius circuit through
/// the fences' 20 km square, as gpsd JSON lines: the log `scripts/bench-replay.sh` replays.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--write-circuit-log",
    let n = Int(CommandLine.arguments[2]), n > 0
{
    exit(CircuitLog.write(fixes: n, path: CommandLine.arguments[3]) ? 0 : 1)
}

/// `gpstrack-bench --write-soak-route LAPS LAP_SECONDS DIR`: the soak's route, fences and logs.
if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "--write-soak-route",
    let laps = Int(CommandLine.arguments[2]), let lap = Int(CommandLine.arguments[3])
{
    exit(SoakRoute.write(laps: laps, lapSeconds: lap, directory: CommandLine.arguments[4]) ? 0 : 1)
}

/// `gpstrack-bench --write-nmea PATH`: the same sample as NMEA sentences, for gpsfake.
if CommandLine.arguments.count == 3, ["--write-sample", "--write-nmea"].contains(CommandLine.arguments[1]) {
    let nmea = CommandLine.arguments[1] == "--write-nmea"
    var rng = SeededRandom(seed: 2026)
    let walk = Scenario.walk(lengthM: 600, rng: &rng)
    let drive = Scenario.drive(lengthM: 3000, rng: &rng)
    // Two automatic trips with a stop between: the walk ends at the car, which waits 6 min.
    let waiting = Scenario.parked(seconds: 360)
    let parked = Scenario.parked(seconds: 420)
    let scenario = Scenario(
        name: "sample", start: Coordinate(latitude: 52.5163, longitude: 13.3777),
        steps: walk.steps + waiting.steps + drive.steps + parked.steps)
    var model = ReceiverModel()
    model.partialTPVs = true
    let trace = Simulator.run(scenario, model: model, seed: 2026)
    let fd = open(CommandLine.arguments[2], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else {
        print("cannot write \(CommandLine.arguments[2])")
        exit(1)
    }
    let writer = OutputWriter(fd: fd)
    do {
        if nmea {
            try writer.writeLine(
                "# gpstrackd sample route (seeded simulation): a 600 m walk, 6 min waiting, a 3 km drive, 7 min parked,"
            )
            try writer.writeLine(
                "# after 5 min of cold start without a fix (gpsfake feeds gpsd before a client watches)")
            let t0 = trace.fixes.first?.time ?? 0
            for k in stride(from: 300, to: 0, by: -1) {
                for s in NMEAWriter.sentences(Fix(mode: 1, time: t0 - Double(k))) { try writer.writeLine(s) }
            }
            for fix in trace.fixes where fix.mode != 2 {
                for s in NMEAWriter.sentences(fix) { try writer.writeLine(s) }
            }
        } else {
            for line in GPSDLogWriter.header { try writer.writeLine(line) }
            for (i, fix) in trace.fixes.enumerated() {
                if i % 5 == 0, let t = fix.time { try writer.writeLine(GPSDLogWriter.sky(time: t)) }
                try writer.writeLine(GPSDLogWriter.tpv(fix))
            }
        }
        try writer.flush()
    } catch {
        print("cannot write: \(error)")
        exit(1)
    }
    close(fd)
    print("wrote \(trace.fixes.count) TPVs; true path \((trace.truePathM * 10).rounded() / 10) m")
    exit(0)
}

/// `gpstrack-bench --geofences`: the geofence figures alone (load, per-fix cost, Python).
if CommandLine.arguments.dropFirst().first == "--geofences" {
    FenceBench.run()
    exit(0)
}

/// The odometer alone (one manual trip over the whole trace), as the quality table always measured.
func tracked(_ fixes: [Fix]) -> Double {
    var config = TrackerConfig()
    config.tripMode = .manual
    var tracker = Tracker(config: config)
    var assembler = EpochAssembler()
    for fix in fixes { for epoch in assembler.add(fix) { _ = tracker.ingest(epoch) } }
    for epoch in assembler.flush() { _ = tracker.ingest(epoch) }
    return tracker.trip.traveledM
}

func fmt(_ v: Double, _ decimals: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let r = (v * scale).rounded() / scale
    return "\(r)"
}

/// `gpstrack-bench --steps`: the step detector's figures alone.
if CommandLine.arguments.dropFirst().first == "--steps" {
    StepBench.run()
    exit(0)
}

print("Tracking quality over \(seeds.count) seeds (ReceiverModel defaults: 3 m wander, 1 m white noise,")
print("1.5 % no-fix epochs, 1 % multipath jumps with large eph, 0.15 % jumps without):")
print("naive: drop invalid fixes, 10 m filter, sum the hops; +eph50: also drop eph > 50 m")
print("scenario            target        gpstrackd mean / worst      naive mean / worst      +eph50 mean / worst")
for name in ["walk 2 km", "drive 14 km", "parked 30 min"] {
    var ours: [Double] = []
    var naive: [Double] = []
    var cut: [Double] = []
    for seed in seeds {
        var rng = SeededRandom(seed: seed &* 7919)
        var model = ReceiverModel()
        let scenario: Scenario
        switch name {
        case "walk 2 km": scenario = .walk(rng: &rng)
        case "drive 14 km": scenario = .drive(rng: &rng)
        default:
            scenario = .parked()
            model.wanderSigmaM = 4
        }
        let trace = Simulator.run(scenario, model: model, seed: seed)
        let t = tracked(trace.fixes)
        let n = NaiveOdometer.traveled(trace.fixes)
        let c = NaiveOdometer.traveled(trace.fixes, maxErrorM: 50)
        let relative = { (x: Double) in trace.truePathM > 0 ? (x / trace.truePathM - 1) * 100 : x }
        ours.append(relative(t))
        naive.append(relative(n))
        cut.append(relative(c))
    }
    let mean = { (xs: [Double]) in xs.reduce(0, +) / Double(xs.count) }
    let worst = { (xs: [Double]) in xs.max(by: { abs($0) < abs($1) }) ?? 0 }
    let unit = name.hasPrefix("parked") ? " m" : " %"
    let target = name.hasPrefix("walk") ? "within 3 %" : name.hasPrefix("drive") ? "within 2 %" : "<= 15 m"
    let pad = { (s: String, w: Int) in s + String(repeating: " ", count: max(0, w - s.count)) }
    print(
        pad(name, 20) + pad(target, 14) + pad("\(fmt(mean(ours), 2))\(unit) / \(fmt(worst(ours), 2))\(unit)", 28)
            + pad("\(fmt(mean(naive), 1))\(unit) / \(fmt(worst(naive), 1))\(unit)", 24)
            + "\(fmt(mean(cut), 1))\(unit) / \(fmt(worst(cut), 1))\(unit)")
}

/// `gpstrack-bench --quality`: the quality table alone.
if CommandLine.arguments.dropFirst().first == "--quality" { exit(0) }

// Throughput: a 100,000-fix drive log through the real executable.
let logPath = "/tmp/gpstrackd-bench-\(getpid()).json"
// Written drive by drive so that this process stays small: a spawned child's peak RSS as
// wait4 reports it is never below its parent's size at the spawn.
do {
    var rng = SeededRandom(seed: 42)
    let fd = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let writer = OutputWriter(fd: fd)
    for line in GPSDLogWriter.header { try writer.writeLine(line) }
    var written = 0
    var chunk: UInt64 = 0
    var time = 1_773_475_200.0
    while written < 100_000 {
        let scenario = Scenario.drive(rng: &rng)
        let trace = Simulator.run(scenario, seed: 42 &+ chunk, startTime: time)
        for fix in trace.fixes.prefix(100_000 - written) { try writer.writeLine(GPSDLogWriter.tpv(fix)) }
        written += min(trace.fixes.count, 100_000 - written)
        time += Double(scenario.steps.count)
        chunk += 1
    }
    try writer.flush()
    close(fd)
} catch {
    print("cannot write \(logPath): \(error)")
    exit(1)
}
defer { unlink(logPath) }

let me = CommandLine.arguments[0]
let dir = me.contains("/") ? String(me[..<me.lastIndex(of: "/")!]) : "."
let binary = dir + "/gpstrackd"

/// One `gpstrackd replay` run of the log, with `config` (nil: defaults): seconds and peak RSS.
func replayRun(config: String?) -> (seconds: Double, peakKiB: Int) {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var args = [binary, "replay"]
    if let config { args += ["--config", config] }
    args.append(logPath)
    let argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    let t0 = MonotonicClock.now()
    guard posix_spawn(&pid, binary, &actions, nil, argv, environ) == 0 else {
        print("cannot start \(binary)")
        exit(1)
    }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    return (MonotonicClock.now() - t0, Int(usage.ru_maxrss))
}

// The same log with trip_mode = manual: the odometer alone, as replay cost before automatic
// trips, stops, the guard and overspeed; measured in this run, beside today's default.
let manualConfig = "/tmp/gpstrackd-bench-\(getpid()).conf"
do {
    let fd = open(manualConfig, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let writer = OutputWriter(fd: fd)
    try writer.writeLine("trip_mode = manual")
    try writer.flush()
    close(fd)
} catch {
    print("cannot write \(manualConfig): \(error)")
    exit(1)
}
defer { unlink(manualConfig) }
// Interleaved, best of five each: a load that comes and goes weighs on both alike.
var best = Double.infinity
var manualBest = Double.infinity
var peakKiB = 0
for _ in 0..<5 {
    manualBest = min(manualBest, replayRun(config: manualConfig).seconds)
    let run = replayRun(config: nil)
    best = min(best, run.seconds)
    peakKiB = max(peakKiB, run.peakKiB)
}
let manual = (best: manualBest, peakKiB: 0)
var selfUsage = rusage()
getrusage(RUSAGE_SELF.rawValue, &selfUsage)
print(
    "replay of 100,000 fixes (gpstrackd replay, release): best of 5 \(fmt(best, 3)) s, \(Int(100_000 / best)) fixes/s, peak RSS \(fmt(Double(peakKiB) / 1024, 1)) MiB"
)
print(
    "replay per-fix cost: \(fmt(best / 100_000 * 1e6, 2)) µs with automatic trips (trip_mode = auto, the default), "
        + "\(fmt(manual.best / 100_000 * 1e6, 2)) µs with the odometer alone (trip_mode = manual, as before issue 10)")
print(
    "(the spawning benchmark itself peaked at \(fmt(Double(selfUsage.ru_maxrss) / 1024, 1)) MiB; the child's figure cannot be below that)"
)

FenceBench.run()
RetentionBench.run()
WALBench.run()
StepBench.run()
