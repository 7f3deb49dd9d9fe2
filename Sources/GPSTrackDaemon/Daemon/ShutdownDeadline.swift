#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import GPSTrackCore

/// The graceful stop's deadline, below the unit's `TimeoutStopSec=15s`: past it the daemon says
/// what it was waiting for and exits, with what is committed on disk, before systemd's SIGKILL.
/// The timer runs on a queue of its own, off the cooperative pool, so that a stalled task
/// cannot hold it up.
public final class ShutdownDeadline {
    /// Seconds a graceful stop may take.
    public static let seconds = 10.0
    /// Whether systemd runs the daemon as a service (it sets INVOCATION_ID), whose
    /// TimeoutStopSec the deadline must beat.
    public static var underSystemd: Bool { getenv("INVOCATION_ID") != nil }
    private let timer: DispatchSourceTimer
    private static let queue = DispatchQueue(label: "gpstrackd.shutdown-deadline")

    /// Arms the deadline; `stage` names what the stop is doing (for the journal).
    public init(seconds: Double = ShutdownDeadline.seconds, journal: Journal, stage: @escaping @Sendable () -> String) {
        timer = DispatchSource.makeTimerSource(queue: Self.queue)
        timer.schedule(deadline: .now() + seconds)
        timer.setEventHandler {
            journal.log(LogEntry(event: "stop_deadline", priority: .err,
                                 message: "Stopping took over \(Int(seconds)) s (\(stage())); exiting with what is committed",
                                 fields: [("GPSTRACK_STAGE", stage())]))
            _exit(ExitCode.software.rawValue)
        }
        timer.resume()
    }

    /// The stop finished in time.
    public func disarm() { timer.cancel() }
}
