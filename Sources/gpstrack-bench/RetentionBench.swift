import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A simulated month of storage through the daemon's Store (real SQLite, WAL,
/// synchronous=FULL): 8 h of driving a day with a delivered point every 2 s, committed in
/// batches of 50, and retention of 7 days pruned step by step at the start of each day, as
/// the tracker does (one step per fix). Prints the longest and mean pruning step and the
/// database file's size day by day.
enum RetentionBench {
    static func run(days: Int = 30, retentionDays: Double = 7) {
        let dir = "/tmp/gpstrack-bench-retention-\(getpid())"
        _ = mkdir(dir, 0o700)
        defer {
            for f in ["gpstrackd.db", "gpstrackd.db-wal", "gpstrackd.db-shm"] { unlink(dir + "/" + f) }
            rmdir(dir)
        }
        let store = Store(directory: dir, journal: Journal(target: .stderr))
        let perDay = 8 * 3600 / 2
        let t0 = 1_780_000_000.0
        let trip = Trip()
        var steps: [Double] = []
        var sizes: [Int] = []
        var batch: [Store.PointRow] = []
        batch.reserveCapacity(50)
        for day in 0..<days {
            let dayStart = t0 + Double(day) * 86_400
            // Retention at the day's first fix: step by step, each step timed.
            var more = true
            while more {
                let before = monotonic()
                more = store.pruneStep(before: dayStart - retentionDays * 86_400)
                steps.append(monotonic() - before)
            }
            for i in 0..<perDay {
                let t = dayStart + 6 * 3600 + Double(i) * 2
                batch.append(
                    Store.PointRow(
                        time: t, latitude: 52.4 + Double(i % 1000) * 1e-4, longitude: 13.2 + Double(day) * 1e-3,
                        altitude: 40, eph: 4, mode: 3))
                if batch.count == 50 {
                    store.commit(events: [], trip: trip, fences: [:], points: batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            sizes.append(store.databaseBytes)
        }
        let worst = (steps.max() ?? 0) * 1000
        let mean = steps.isEmpty ? 0 : steps.reduce(0, +) / Double(steps.count) * 1000
        let mib = { (b: Int) in fmt(Double(b) / 1_048_576, 2) }
        print(
            "retention: \(days) simulated days, \(perDay) points a day, retention_days \(Int(retentionDays)), "
                + "pruning \(Store.pruneBatch) points a step")
        let sorted = steps.sorted()
        let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 99 / 100)] * 1000
        let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2] * 1000
        print(
            "  pruning steps: \(steps.count), each holding the tracker: median \(fmt(median, 2)) ms, mean \(fmt(mean, 2)) ms, "
                + "99th percentile \(fmt(p99, 2)) ms, longest \(fmt(worst, 2)) ms")
        print(
            "  database file by day: "
                + [1, 7, 8, 14, 21, days].filter { $0 <= days }.map { "day \($0) \(mib(sizes[$0 - 1])) MiB" }
                .joined(separator: ", "))
        let steady = sizes[Int(retentionDays)...]
        print(
            "  steady state (day \(Int(retentionDays) + 1) on): \(mib(steady.min() ?? 0)) to \(mib(steady.max() ?? 0)) MiB"
        )
    }

    static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}
