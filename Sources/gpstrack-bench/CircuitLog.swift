import GPSTrackCore
import GPSTrackDaemon
import GPSTrackSim

#if canImport(Glibc)
import Glibc
#endif

/// The replay benchmark's log: a drive round the 7 km-radius circuit through the fences' 20 km
/// square (the one `FenceBench` uses), written in 50,000-second laps with a seed each so that
/// a log of millions of fixes never sits in memory at once.
enum CircuitLog {
    static let origin = Coordinate(latitude: 52.42, longitude: 13.25)

    static func write(fixes: Int, path: String) -> Bool {
        let center = Geodesic.destination(
            from: Geodesic.destination(from: origin, azimuth: 90, distance: 10_000), azimuth: 0, distance: 10_000)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let writer = OutputWriter(fd: fd)
        do {
            for line in GPSDLogWriter.header { try writer.writeLine(line) }
            var written = 0
            var lap: UInt64 = 0
            while written < fixes {
                let seconds = min(50_000, fixes - written)
                let trace = Simulator.run(
                    .circuit(center: center, radiusM: 7000, seconds: seconds), seed: 5 &+ lap,
                    startTime: 1_773_475_200 + Double(written))
                for fix in trace.fixes { try writer.writeLine(GPSDLogWriter.tpv(fix)) }
                written += seconds
                lap += 1
            }
            try writer.flush()
        } catch {
            return false
        }
        return true
    }
}
