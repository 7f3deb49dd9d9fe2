import GPSTrackCore

#if canImport(Glibc)
import Glibc
#endif

/// OwnTracks, produced once for every transport: what a tracker step becomes as OwnTracks
/// messages (transitions and alarms by `OwnTracks.part`, locations through one throttle),
/// the waypoints and the `t: "r"` location. The MQTT sink and the OwnTracks HTTP uplink each
/// hold one and hand its messages to their own transport, so the two cannot drift apart.
struct OwnTracksReporter {
    /// One OwnTracks message: its outbox kind, its body, the fix time it reports.
    struct Message: Equatable {
        let kind: OutboxKind
        let payload: String
        let time: Double
    }

    /// The message's `tid` (`OwnTracks.trackerID`).
    let tid: String
    private let assumedErrorM: Double
    private var throttle: LocationThrottle
    /// When the fences in force were loaded: the waypoints' and transitions' `wtst`.
    private(set) var fencesLoadedAt = Int(time(nil))
    /// The battery as the last step left it, for every location (`batt`, `bs`).
    private var battery = OwnTracks.Battery()

    init(tid: String, assumedErrorM: Double, minIntervalS: Double, minDistanceM: Double, heartbeatS: Double) {
        self.tid = tid
        self.assumedErrorM = assumedErrorM
        throttle = LocationThrottle(minIntervalS: minIntervalS, minDistanceM: minDistanceM, heartbeatS: heartbeatS)
    }

    /// The step's transitions and alarms, in order, then its accepted fix's `location` when the
    /// throttle lets it through or an event asks for it (a guard breach said again at a fix; one
    /// said by the clock alone has no fix to send). `plausible` is the transport's check of a
    /// message's time (an uplink's clock check): a message it refuses is not made, and a refused
    /// location does not count as sent.
    mutating func messages(
        for step: TrackerStep, plausible: (Double) -> Bool = { _ in true }
    ) -> [Message] {
        var out: [Message] = []
        battery = OwnTracks.Battery(step.inputs)
        let acc = OwnTracks.accuracy(step.tracker.lastAccepted?.horizontalError, assumed: assumedErrorM)
        var now = false
        for e in step.events {
            switch OwnTracks.part(for: e.event, tid: tid, fencesLoadedAt: fencesLoadedAt, acc: acc, after: step) {
            case .transition(let m)?:
                guard plausible(m.time) else { continue }
                out.append(Message(kind: m.isAlarm ? .alarm : .transition, payload: m.payload, time: m.time))
            case .locationNow?: now = true
            case nil: continue
            }
        }
        if step.accepted, let fix = step.fix, let t = fix.time, now || throttle.due(time: t, at: fix.coordinate),
            plausible(t)
        {
            throttle.sent(time: t, at: fix.coordinate)
            out.append(Message(kind: .location, payload: location(fix, time: t, inside: step.fences.inside), time: t))
        }
        return out
    }

    /// The `location` for `fix`, with the fences it is inside (nil: no fences in force);
    /// `trigger` "r" answers `reportLocation`.
    func location(_ fix: Fix, time t: Double, inside: [String]?, trigger: String = "t") -> String {
        OwnTracks.location(
            fix, time: t, tid: tid, assumedErrorM: assumedErrorM, inRegions: inside, trigger: trigger,
            battery: battery)
    }

    /// A new set of fences is in force: their `wtst` becomes now.
    mutating func fencesReplaced() { fencesLoadedAt = Int(time(nil)) }

    /// The circular fences as `waypoints`, nil without fences.
    func waypoints(_ fences: [Fence]?) -> String? {
        fences.map { OwnTracks.waypoints($0, loadedAt: fencesLoadedAt) }
    }
}
