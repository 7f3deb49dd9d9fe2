import Dispatch
import GPSTrackCore
import GPSTrackProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A part of the daemon that runs until stopped, as swift-service-lifecycle's `Service`: its
/// name (the stop's stage, "stopping \(name)") and how it stops (what it holds is kept or
/// written before it returns). It started itself when made or started; the group stops it.
public protocol Service: Sendable {
    var name: String { get }
    func stop() async
}

/// A stop written where the part is started (a task to cancel, a last word to say): a service
/// of a name and a closure.
struct StopAction: Service {
    let name: String
    let action: @Sendable () async -> Void
    func stop() async { await action() }
}

/// The daemon's services, in the manner of swift-service-lifecycle's `ServiceGroup`: each part
/// is added as it starts, with its name and how it stops; `stop` stops them all in reverse
/// order, on every way out (a failed start too), naming each in turn. Under systemd the stop has
/// a deadline below the unit's `TimeoutStopSec`, and a second stop signal escalates to an exit
/// at once; what is committed is on disk either way.
public final class ServiceGroup: Sendable {
    /// How the group stops.
    public struct Configuration: Sendable {
        /// Seconds a graceful stop may take before the daemon exits with what is committed;
        /// nil: no deadline (outside systemd no SIGKILL comes, and a heavy stop may take its time).
        public var deadlineS: Double?
        /// Whether a second SIGTERM or SIGINT during the stop exits at once.
        public var escalateOnSecondSignal = true

        public init(deadlineS: Double?, escalateOnSecondSignal: Bool = true) {
            self.deadlineS = deadlineS
            self.escalateOnSecondSignal = escalateOnSecondSignal
        }

        /// The daemon's: a deadline only under systemd (it sets INVOCATION_ID).
        public static var daemon: Configuration {
            Configuration(deadlineS: getenv("INVOCATION_ID") != nil ? ServiceGroup.deadlineS : nil)
        }
    }

    /// Seconds a graceful stop may take under systemd: below the unit's `TimeoutStopSec=15s`.
    public static let deadlineS = 10.0

    private let configuration: Configuration
    private let journal: Journal
    private let services = Mutex<[any Service]>([])
    /// What the stop is doing now, for the deadline's entry.
    private let stage = Mutex("starting to stop")
    private let begun = Atomic<Bool>(false)
    private static let queue = DispatchQueue(label: "gpstrackd.service-group")

    public init(configuration: Configuration, journal: Journal) {
        self.configuration = configuration
        self.journal = journal
        if configuration.escalateOnSecondSignal {
            // Runs on the signal queue, off the cooperative pool: a stalled part cannot hold it up.
            SignalStream.onSecondStop {
                journal.log(
                    LogEntry(event: .stoppingNow, priority: .notice, message: "Second stop signal: exiting at once"))
                _exit(ExitCode.ok.rawValue)
            }
        }
    }

    /// Adds a started service, stopped before every service added earlier.
    public func add(_ service: any Service) {
        services.withLock { $0.append(service) }
    }

    /// Adds a started part by its stop; `name` reads in "stopping \(name)".
    public func add(_ name: String, stop: @escaping @Sendable () async -> Void) {
        add(StopAction(name: name, action: stop))
    }

    /// Whether the stop has begun (a part may then skip work that would only delay it).
    public var stopping: Bool { begun.load(ordering: .relaxed) }

    /// Stops every service added, in reverse order, within the deadline; returns `code`.
    @discardableResult
    public func stop(_ code: ExitCode = .ok) async -> ExitCode {
        begun.store(true, ordering: .relaxed)
        let timer = configuration.deadlineS.map(arm)
        while let entry = services.withLock({ $0.popLast() }) {
            stage.withLock { $0 = "stopping \(entry.name)" }
            await entry.stop()
        }
        timer?.cancel()
        return code
    }

    /// The deadline: past it the daemon says what it was waiting for and exits.
    private func arm(_ seconds: Double) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: Self.queue)
        timer.schedule(deadline: .now() + seconds)
        timer.setEventHandler { [self] in
            let name = stage.withLock { $0 }
            journal.log(
                LogEntry(
                    event: .stopDeadline, priority: .err,
                    message:
                        "Stopping took over \(Int(clamping: seconds, rounding: .towardZero)) s (\(name)); exiting with what is committed",
                    fields: [(.stage, name)]))
            _exit(ExitCode.software.rawValue)
        }
        timer.resume()
        return timer
    }
}
