#if canImport(Glibc)
import Glibc
#endif
import CGPS
import GPSTrackCore
import GPSTrackDaemon
import GPSTrackSim

/// Replay throughput with 10, 1,000 and 10,000 fences, in process, next to libgps's
/// unpacker alone over the same log.
enum FenceBench {
    static func run() {
        let origin = Coordinate(latitude: 52.42, longitude: 13.25)
        let center = Geodesic.destination(from: Geodesic.destination(from: origin, azimuth: 90, distance: 10_000), azimuth: 0, distance: 10_000)
        let trace = Simulator.run(.circuit(center: center, radiusM: 7000, seconds: 50_000), seed: 5)
        let lines: [[UInt8]] = (GPSDLogWriter.header + trace.fixes.map(GPSDLogWriter.tpv)).map { Array($0.utf8) }
        let decoder = GPSDDecoder()

        func best(_ body: () -> Void) -> Double {
            var times: [Double] = []
            for _ in 0..<3 { let t0 = MonotonicClock.now(); body(); times.append(MonotonicClock.now() - t0) }
            return times.min()!
        }
        var sink = 0
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
        print("geofences: \(trace.fixes.count) fixes on a 7 km-radius circuit through a 20 km square of fences")
        print("  libgps gps_unpack alone:        \(Int(n / unpackOnly)) fixes/s")
        print("  GPSDDecoder (gps_unpack + Fix): \(Int(n / decodeOnly)) fixes/s")
        var perFix: [Int: Double] = [:]
        for count in [0, 10, 1_000, 10_000] {
            let fences = FenceGenerator.fences(count: count, origin: origin, sideM: 20_000, seed: 17)
            let index = count == 0 ? nil : try! FenceIndex(fences: fences, file: "bench")
            var events = 0
            let t = best {
                var session = TrackingSession(config: TrackerConfig(), fences: index)
                var assembler = EpochAssembler()
                events = 0
                for line in lines {
                    guard case .tpv(let f) = decoder.decode(line[...]) else { continue }
                    for e in assembler.add(f) { events += session.ingest(e).count }
                }
                for e in assembler.flush() { events += session.ingest(e).count }
            }
            perFix[count] = t / n
            let label = count == 0 ? "no fences" : "\(count) fences"
            let pad = String(repeating: " ", count: max(0, 13 - label.count))
            print("  replay pipeline, \(label):\(pad)\(Int(n / t)) fixes/s, \(events) events, "
                  + "\(String(format1(t / unpackOnly)))x the unpacker alone")
        }
        comparePython(lines: lines, origin: origin, swiftFixesPerSecond: perFix[1_000].map { 1 / $0 })
        if let a = perFix[10], let b = perFix[10_000] {
            print("  10,000 fences cost \(format1(b / a))x what 10 fences cost per fix")
        }
        if sink == 42 { print("") }
    }

    /// Runs bench/python_pipeline.py (Shapely STRtree + GeographicLib) on the same log and
    /// 1,000 fences, when `GPSTRACKD_BENCH_PYTHON` names a Python that has both.
    static func comparePython(lines: [[UInt8]], origin: Coordinate, swiftFixesPerSecond: Double?) {
        guard let python = getenv("GPSTRACKD_BENCH_PYTHON").map({ String(cString: $0) }), !python.isEmpty,
              let ours = swiftFixesPerSecond else {
            print("  (set GPSTRACKD_BENCH_PYTHON to a Python with shapely and geographiclib to compare; make bench does)")
            return
        }
        let log = "/tmp/gpstrackd-bench-py-\(getpid()).json", fences = "/tmp/gpstrackd-bench-py-\(getpid()).geojson"
        defer { unlink(log); unlink(fences) }
        func write(_ path: String, _ chunks: [[UInt8]], newline: Bool) {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            let w = OutputWriter(fd: fd)
            for c in chunks { try? w.writeLine(String(decoding: c, as: UTF8.self)) }
            try? w.flush()
            close(fd)
        }
        write(log, lines, newline: true)
        let geojson = FenceGenerator.geoJSON(FenceGenerator.fences(count: 1_000, origin: origin, sideM: 20_000, seed: 17))
        write(fences, [Array(geojson.utf8)], newline: false)
        let out = "/tmp/gpstrackd-bench-py-\(getpid()).out"
        defer { unlink(out) }
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(python), strdup("bench/python_pipeline.py"), strdup(log), strdup(fences), nil]
        defer { for p in argv { free(p) } }
        guard posix_spawn(&pid, python, &actions, nil, argv, environ) == 0 else { print("  cannot run \(python)"); return }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard let text = try? FileIO.readAll(out), let first = String(decoding: text, as: UTF8.self).split(separator: " ").first,
              let theirs = Double(first), theirs > 0 else {
            print("  the Python pipeline failed (status \(status))")
            return
        }
        print("  Python + Shapely STRtree + GeographicLib, 1000 fences: \(Int(theirs)) fixes/s; gpstrackd is \(format1(ours / theirs))x faster")
    }

    static func format1(_ v: Double) -> String { "\((v * 100).rounded() / 100)" }
}
