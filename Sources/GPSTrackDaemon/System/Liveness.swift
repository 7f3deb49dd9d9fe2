import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Progress deadlines of the daemon's working parts, for the watchdog: systemd is pinged only
/// while every part meets its deadline, so a stuck thread gets the daemon restarted, and the
/// journal names the part that stalled. Each part moves its own deadline forward when it
/// makes progress (`beat`); a part with nothing to do is `idle` (never late).
public final class Liveness: Sendable {
    /// The parts watched.
    public enum Part: String, CaseIterable, Sendable {
        /// The thread reading gpsd's socket (it beats at every wake-up, data or not).
        case gpsdReader = "gpsd_reader"
        /// The tracker actor (it beats when it answers the watchdog's ping).
        case tracker
        /// The state database (late when one write has taken longer than the limit).
        case store
        /// The pedometer's IIO thread (it beats at every read or wake-up while a device is in
        /// use; a sysfs read stuck in a driver stops it).
        case pedometer
        /// The inputs' thread (it beats at every poll; a sysfs read stuck in a driver stops it).
        case inputs

        var title: String {
            switch self {
            case .gpsdReader: "the gpsd reader"
            case .tracker: "the tracker"
            case .store: "the state database"
            case .pedometer: "the pedometer"
            case .inputs: "the inputs"
            }
        }
    }

    /// The one the daemon's parts report to.
    public static let shared = Liveness()

    private static let idleDeadline = Int64.max
    private let reader = Atomic<Int64>(idleDeadline)
    private let tracker = Atomic<Int64>(idleDeadline)
    private let store = Atomic<Int64>(idleDeadline)
    private let pedometer = Atomic<Int64>(idleDeadline)
    private let inputs = Atomic<Int64>(idleDeadline)
    private let limitMS = Atomic<Int64>(30_000)
    private let pinging = Atomic<Bool>(false)
    /// A part named by GPSTRACKD_TEST_STALL stops making progress (see `stallIfAsked`).
    private let injected: Part?

    public init(environment stall: String? = Liveness.stallVariable) {
        injected = stall.flatMap(Part.init(rawValue:))
    }

    /// The test hook's variable: read by debug builds only, so the shipped binary has no hook.
    public static var stallVariable: String? {
        #if DEBUG
        getenv("GPSTRACKD_TEST_STALL").map { String(cString: $0) }
        #else
        nil
        #endif
    }

    /// How long a part may go without progress, seconds.
    public var limit: Double {
        Double(limitMS.load(ordering: .relaxed)) / 1000
    }

    public func setLimit(_ seconds: Double) {
        limitMS.store(Int64(clamping: seconds * 1000, rounding: .towardZero), ordering: .relaxed)
    }

    private func deadline(_ part: Part) -> Int64 {
        switch part {
        case .gpsdReader: reader.load(ordering: .acquiring)
        case .tracker: tracker.load(ordering: .acquiring)
        case .store: store.load(ordering: .acquiring)
        case .pedometer: pedometer.load(ordering: .acquiring)
        case .inputs: inputs.load(ordering: .acquiring)
        }
    }

    private func set(_ part: Part, _ value: Int64) {
        switch part {
        case .gpsdReader: reader.store(value, ordering: .releasing)
        case .tracker: tracker.store(value, ordering: .releasing)
        case .store: store.store(value, ordering: .releasing)
        case .pedometer: pedometer.store(value, ordering: .releasing)
        case .inputs: inputs.store(value, ordering: .releasing)
        }
    }

    private static func nowMS() -> Int64 { Int64(clamping: MonotonicClock.now() * 1000, rounding: .towardZero) }

    /// `part` made progress: it must make more within the limit (or `grace` seconds, for a
    /// step known to take long, such as a TCP connect).
    public func beat(_ part: Part, grace: Double? = nil) {
        set(
            part,
            Self.nowMS()
                + (grace.map { Int64(clamping: $0 * 1000, rounding: .towardZero) } ?? limitMS.load(ordering: .relaxed)))
    }

    /// `part` waits for nothing of its own (the store between writes).
    public func idle(_ part: Part) {
        set(part, Self.idleDeadline)
    }

    /// The parts past their deadline, with how long they have gone without progress.
    public func stalled() -> [(part: Part, seconds: Double)] {
        let now = Self.nowMS()
        let limit = limitMS.load(ordering: .relaxed)
        return Part.allCases.compactMap { part in
            let d = deadline(part)
            guard d != Self.idleDeadline, now > d else { return nil }
            return (part, Double(now - d + limit) / 1000)
        }
    }

    /// True when no ping of the tracker is outstanding (and marks one as sent).
    public func startPing() -> Bool {
        pinging.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    /// The tracker answered a ping.
    public func pingAnswered() {
        beat(.tracker)
        pinging.store(false, ordering: .releasing)
    }

    /// For the tests of the watchdog only (debug builds): a part named by the environment variable
    /// GPSTRACKD_TEST_STALL=gpsd_reader|tracker|store|pedometer|inputs stops here for good, as a thread stuck in
    /// a library call would (no real part can be made to hang on demand).
    public func stallIfAsked(_ part: Part) {
        guard injected == part else { return }
        while true { sleep(3600) }
    }
}
