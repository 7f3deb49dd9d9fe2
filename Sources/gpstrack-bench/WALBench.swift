import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The write-ahead log's bound (issue 30) and its cost: the tracker's commits through the
/// daemon's Store (real SQLite, synchronous=FULL, this machine's disk), a batch of 5 track
/// points every commit and an event every sixth, once with SQLite's defaults
/// (`wal_autocheckpoint` 1,000 pages, no `journal_size_limit`) and once with the daemon's
/// bound. Prints each commit's time (median, 99th percentile, mean) and the log file's largest size.
enum WALBench {
    static func run(commits: Int = 3000) {
        print("write-ahead log: \(commits) commits (5 track points each, an event every 6th), synchronous=FULL")
        let defaults = measure(commits: commits, pages: 1000, limit: -1)
        let bounded = measure(commits: commits, pages: Store.walAutocheckpointPages, limit: Store.walSizeLimit)
        for (name, r) in [
            ("SQLite's defaults (1000 pages, no limit)", defaults),
            ("the bound (\(Store.walAutocheckpointPages) pages, \(Store.walSizeLimit / 1024) KiB)", bounded),
        ] {
            print(
                "  \(name): commit median \(fmt(r.median, 3)) ms, 99th percentile \(fmt(r.p99, 3)) ms, "
                    + "mean \(fmt(r.mean, 3)) ms; WAL file at most \(r.peakWAL / 1024) KiB")
        }
        print(
            "  the bound's cost: \(Int(((bounded.mean / defaults.mean - 1) * 100).rounded())) % more time per commit on the mean, "
                + "the log \(defaults.peakWAL / max(bounded.peakWAL, 1)) times smaller")
    }

    static func measure(commits: Int, pages: Int, limit: Int) -> (
        median: Double, p99: Double, mean: Double, peakWAL: Int
    ) {
        let dir = "/tmp/gpstrack-bench-wal-\(getpid())"
        _ = mkdir(dir, 0o700)
        defer {
            for f in ["gpstrackd.db", "gpstrackd.db-wal", "gpstrackd.db-shm", "gpstrackd.reserve"] {
                unlink(dir + "/" + f)
            }
            rmdir(dir)
        }
        let store = Store(directory: dir, journal: Journal(target: .stderr))
        store.boundWAL(pages: pages, limit: limit)
        let t0 = 1_780_000_000.0
        let event =
            #"{"event":"enter","fence":"f1","name":"Depot, gate 2","state":"inside","time":"2026-05-28T20:26:40.000Z","lat":52.4,"lon":13.2,"seq":1}"#
        var times: [Double] = []
        var peak = 0
        var st = stat()
        for c in 0..<commits {
            let points = (0..<5).map { i in
                Store.PointRow(
                    time: t0 + Double(c * 5 + i), latitude: 52.4 + Double(c) * 1e-5, longitude: 13.2, altitude: 40,
                    eph: 4, mode: 3)
            }
            let events =
                c % 6 == 0
                ? [
                    Store.EventRow(
                        seq: UInt64(c + 1), time: t0 + Double(c * 5), event: "enter", fence: "f1", json: event)
                ] : []
            let before = RetentionBench.monotonic()
            store.commit(events: events, trip: Trip(), fences: [:], points: points)
            times.append((RetentionBench.monotonic() - before) * 1000)
            if stat(dir + "/gpstrackd.db-wal", &st) == 0 { peak = max(peak, Int(st.st_size)) }
        }
        let sorted = times.sorted()
        return (
            sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)],
            times.reduce(0, +) / Double(times.count), peak
        )
    }
}
