import GPSTrackCore
import GPSTrackProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Writes the daemon's metrics (`Metrics.render` of the status) to `metrics_file` for
/// node_exporter's textfile collector: to FILE.tmp, then renamed over FILE, so that a scrape
/// never reads half a file. Opens no port. A failure is logged once per spell.
final class MetricsFile: Sendable {
    let path: String
    let intervalS: Double
    let journal: Journal
    private let failing = Synchronization.Mutex(false)

    init(path: String, intervalS: Double, journal: Journal) {
        self.path = path
        self.intervalS = intervalS
        self.journal = journal
    }

    /// Writes the file every interval until cancelled, from `status` (the control socket's
    /// reply). Run it in a task that prefers the tracker's executor, so that the write, a
    /// blocking call, happens on the tracker's thread, not the cooperative pool.
    func run(status: @Sendable () async -> StatusReply) async {
        while !Task.isCancelled {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            write(Metrics.render(await status(), now: Double(now.tv_sec)))
            try? await Task.sleep(for: .seconds(intervalS))
        }
    }

    /// Replaces the file with `text`; logs the first failure of a spell and the recovery.
    func write(_ text: String) {
        let result = Self.replace(path, with: Array(text.utf8))
        failing.withLock { failing in
            switch result {
            case .success where failing:
                failing = false
                journal.log(
                    LogEntry(
                        event: .metricsWritten, priority: .info, message: "Metrics written to \(path) again",
                        fields: [(.metricsFile, path)]))
            case .failure(let error) where !failing:
                failing = true
                journal.log(
                    LogEntry(
                        event: .metricsFailed, priority: .warning,
                        message:
                            "Metrics not written to \(path): \(error); retrying every \(Int(clamping: intervalS, rounding: .towardZero)) s",
                        fields: [(.metricsFile, path)]))
            default: break
            }
        }
    }

    /// Writes `bytes` to `path`.tmp (mode 0644: the collector runs as another user) and renames
    /// it over `path`.
    static func replace(_ path: String, with bytes: [UInt8]) -> Result<Void, ErrnoError> {
        let temporary = path + ".tmp"
        do throws(ErrnoError) {
            let fd = try syscall("open \(temporary)") {
                open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            }
            defer { FileIO.close(fd) }
            let code = writeAll(fd, bytes)
            if code != 0 { throw ErrnoError(call: "write \(temporary)", code: code) }
            _ = try syscall("rename \(temporary)") { rename(temporary, path) }
            return .success(())
        } catch {
            unlink(temporary)
            return .failure(error)
        }
    }
}
