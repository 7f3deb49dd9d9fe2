import CGPS
import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol
import GPSTrackSim

#if canImport(Glibc)
import Glibc
#endif

/// Geofence figures in one run: loading 10,000 fences, replay throughput with 10, 1,000 and
/// 10,000 fences in process next to libgps's unpacker alone over the same log, and the Python
/// pipeline on the same log.
enum FenceBench {
    static func run() {
        let origin = Coordinate(latitude: 52.42, longitude: 13.25)
        let center = Geodesic.destination(
            from: Geodesic.destination(from: origin, azimuth: 90, distance: 10_000), azimuth: 0, distance: 10_000)
        let trace = Simulator.run(.circuit(center: center, radiusM: 7000, seconds: 50_000), seed: 5)
        let lines: [[UInt8]] = (GPSDLogWriter.header + trace.fixes.map(GPSDLogWriter.tpv)).map { Array($0.utf8) }
        let decoder = GPSDDecoder()

        func best(_ body: () -> Void) -> Double {
            var times: [Double] = []
            // Best of 5: the least disturbed run on a shared machine.
            for _ in 0..<5 {
                let t0 = MonotonicClock.now()
                body()
                times.append(MonotonicClock.now() - t0)
            }
            return times.min()!
        }
        var sink = 0
        loadTime(origin: origin, best: best)
        // libgps's unpacker alone: each line copied into a NUL-terminated buffer and unpacked.
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        var buffer = [CChar](repeating: 0, count: 1 << 16)
        let unpackOnly = best {
            for line in lines {
                line.withUnsafeBytes { raw in
                    buffer.withUnsafeMutableBytes { $0.copyMemory(from: raw) }
                }
                buffer[line.count] = 0
                gpstrack_clear_set(data)
                sink &+= Int(gps_unpack(&buffer, data))
            }
        }
        let decodeOnly = best {
            for line in lines { if case .tpv(let f) = decoder.decode(line[...]) { sink &+= f.mode } }
        }
        let n = Double(trace.fixes.count)
        func us(_ t: Double) -> String { "\(format1(t / n * 1e6)) us" }
        print(
            "geofences: \(trace.fixes.count) fixes on a 7 km-radius circuit through a 20 km square of fences, best of 5:"
        )
        print("  libgps gps_unpack alone (the floor): \(Int(n / unpackOnly)) fixes/s, \(us(unpackOnly)) per fix")
        print("  GPSDDecoder (gps_unpack + Fix):      \(Int(n / decodeOnly)) fixes/s, \(us(decodeOnly)) per fix")
        var perFix: [Int: Double] = [:]
        for count in [0, 10, 1_000, 10_000] {
            let fences = FenceGenerator.fences(count: count, origin: origin, sideM: 20_000, seed: 17)
            let index = count == 0 ? nil : try! FenceIndex(fences: fences, file: "bench")
            var events = 0
            var crossed = 0
            let t = best {
                var session = TrackingSession(config: TrackerConfig(), fences: index)
                var assembler = EpochAssembler()
                events = 0
                crossed = 0
                func take(_ out: [TrackingSession.Sequenced]) {
                    events += out.count
                    for e in out { if case .fence(let f) = e.event, f.crossed { crossed += 1 } }
                }
                for line in lines {
                    guard case .tpv(let f) = decoder.decode(line[...]) else { continue }
                    for e in assembler.add(f) { take(session.ingest(e)) }
                }
                for e in assembler.flush() { take(session.ingest(e)) }
            }
            perFix[count] = t / n
            let label = count == 0 ? "no fences" : "\(count) fences"
            let pad = String(repeating: " ", count: max(0, 13 - label.count))
            print(
                "  replay pipeline, \(label):\(pad)\(Int(n / t)) fixes/s, \(us(t)) per fix, \(format1(t / unpackOnly))x the unpacker; "
                    + "\(events) events (\(crossed) crossings)")
        }
        if let a = perFix[10], let b = perFix[1_000], let c = perFix[10_000] {
            print(
                "  per fix, 10,000 fences cost \(format1(c / a))x what 10 cost (aim: at most 1.5x); "
                    + "1,000 fences \(format1(b * n / unpackOnly))x the unpacker alone (aim: at most 1.5x)")
        }
        IndexBench.run(positions: trace.fixes.map(\.coordinate), origin: origin, best: best)
        overlapping(best: best)
        comparePython(lines: lines, origin: origin, swiftFixesPerSecond: perFix[1_000].map { 1 / $0 })
        if sink == 42 { print("") }
    }

    /// A walk inside every fence: each fix is near all of them, so the per-fix cost grows with
    /// their number; per fence it should not (it did, quadratically, until a search by halves).
    static func overlapping(best: (() -> Void) -> Double) {
        let start = Coordinate(latitude: 52.5163, longitude: 13.3777)
        let walk = Scenario(
            name: "east", start: start, steps: Array(repeating: .init(speed: 1.4, heading: 90), count: 120))
        let fixes = Simulator.run(walk, seed: 9).fixes
        var line = "  a 120 s walk inside every fence (2 km circles on one centre), per fix:"
        for count in [10, 1_000, 10_000] {
            let fences = (0..<count).map {
                Fence(index: $0, id: "c\($0)", shape: .circle(center: start, radiusM: 2_000))
            }
            let index = try! FenceIndex(fences: fences, file: "bench")
            var events = 0
            let t = best {
                var session = TrackingSession(config: TrackerConfig(), fences: index)
                var assembler = EpochAssembler()
                events = 0
                for f in fixes { for e in assembler.add(f) { events += session.ingest(e).count } }
                for e in assembler.flush() { events += session.ingest(e).count }
            }
            let perFix = t / Double(fixes.count)
            line +=
                " \(count): \(format1(perFix * 1e6)) us (\(format1(perFix / Double(count) * 1e9)) ns a fence, \(events) events);"
        }
        print(String(line.dropLast()))
    }

    /// Loading 10,000 fences from GeoJSON: reading and parsing, then building the index.
    static func loadTime(origin: Coordinate, best: (() -> Void) -> Double) {
        let fences = FenceGenerator.fences(count: 10_000, origin: origin, sideM: 20_000, seed: 17)
        let path = "/tmp/gpstrackd-bench-load-\(getpid()).geojson"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let w = OutputWriter(fd: fd)
        try? w.writeLine(FenceGenerator.geoJSON(fences))
        try? w.flush()
        close(fd)
        guard let bytes = try? FileIO.readAll(path, maxBytes: FenceLoader.maxBytes) else {
            print("  cannot read \(path)")
            return
        }
        var parsed: [Fence] = []
        let parse = best { parsed = (try? GeoJSONFences.parse(bytes, file: path)) ?? [] }
        let build = best { _ = try? FenceIndex(fences: parsed, file: path) }
        let total = best { _ = try? FenceLoader.load(path) }
        let mb = Double(bytes.count) / 1_000_000
        print(
            "loading 10,000 fences (\(format1(mb)) MB of GeoJSON: 5,000 circles, 5,000 polygons of 5-24 vertices), best of 5:"
        )
        print(
            "  \(format1(total * 1000)) ms in all (aim: at most 300 ms): parse and validate \(format1(parse * 1000)) ms, "
                + "index (validity, GEOS where a fence needs it, R-tree) \(format1(build * 1000)) ms")
    }

    /// Runs bench/python_pipeline.py (json, vectorised Shapely 2 STRtree queries, GeographicLib)
    /// on the same log and 1,000 fences, when `GPSTRACKD_BENCH_PYTHON` names a Python that has
    /// Shapely and GeographicLib.
    static func comparePython(lines: [[UInt8]], origin: Coordinate, swiftFixesPerSecond: Double?) {
        guard let python = getenv("GPSTRACKD_BENCH_PYTHON").map({ String(cString: $0) }), !python.isEmpty,
            let ours = swiftFixesPerSecond
        else {
            print(
                "  (set GPSTRACKD_BENCH_PYTHON to a Python with shapely and geographiclib to compare; make bench does)")
            return
        }
        let log = "/tmp/gpstrackd-bench-py-\(getpid()).json"
        let fences = "/tmp/gpstrackd-bench-py-\(getpid()).geojson"
        defer {
            unlink(log)
            unlink(fences)
        }
        func write(_ path: String, _ chunks: [[UInt8]], newline: Bool) {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            let w = OutputWriter(fd: fd)
            for c in chunks { try? w.writeLine(String(decoding: c, as: UTF8.self)) }
            try? w.flush()
            close(fd)
        }
        write(log, lines, newline: true)
        let geojson = FenceGenerator.geoJSON(
            FenceGenerator.fences(count: 1_000, origin: origin, sideM: 20_000, seed: 17))
        write(fences, [Array(geojson.utf8)], newline: false)
        let out = "/tmp/gpstrackd-bench-py-\(getpid()).out"
        defer { unlink(out) }
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = [
            strdup(python), strdup("bench/python_pipeline.py"), strdup(log), strdup(fences), nil,
        ]
        defer { for p in argv { free(p) } }
        guard posix_spawn(&pid, python, &actions, nil, argv, environ) == 0 else {
            print("  cannot run \(python)")
            return
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let fields =
            (try? FileIO.readAll(out)).map {
                String(decoding: $0, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
            } ?? []
        guard fields.count >= 4, let theirs = Double(fields[0]), theirs > 0 else {
            print("  the Python pipeline failed (status \(status))")
            return
        }
        print(
            "  Python (json, vectorised Shapely 2 STRtree queries, GeographicLib), 1,000 fences: \(Int(theirs)) fixes/s "
                + "(\(fields[3]) enters and exits, no hysteresis); gpstrackd is \(format1(ours / theirs))x faster")
    }

    static func format1(_ v: Double) -> String { "\((v * 100).rounded() / 100)" }
}
