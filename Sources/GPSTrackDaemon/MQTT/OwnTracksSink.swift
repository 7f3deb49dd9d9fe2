import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The MQTT reporter, a sink of the tracker: what its events and fixes become on the broker as
/// OwnTracks messages, through the publisher's durable outbox. It owns what it needs to decide
/// when a location is due and the waypoints' time stamp.
final class OwnTracksSink: TrackerSink {
    let name = "mqtt"
    let mqtt: MQTTPublisher
    private let assumedErrorM: Double
    private var lastLocation: (time: Double, at: Coordinate)?
    /// When the fences in force were loaded: the waypoints' and transitions' `wtst`.
    private(set) var fencesLoadedAt = Int(time(nil))

    init(mqtt: MQTTPublisher, assumedErrorM: Double) {
        self.mqtt = mqtt
        self.assumedErrorM = assumedErrorM
    }

    func take(_ step: TrackerStep, session: TrackingSession) -> [LogEntry] {
        for e in step.events {
            if case .fence(let f) = e.event { publishTransition(f, session: session) }
            if case .tracker(.guardBreach(let t, let at, _, _)) = e.event {
                publishBreach(time: t, at: at, session: session)
            }
            if case .tracker(.anchor(let a)) = e.event { publishAnchor(a, session: session) }
        }
        if step.accepted, let fix = step.fix { publishLocation(fix, session: session) }
        return []
    }

    func fencesReplaced(session: TrackingSession) {
        fencesLoadedAt = Int(time(nil))
        publishWaypoints(session: session)
    }

    /// Publishes the circular fences as OwnTracks waypoints (at start and after a reload).
    func publishWaypoints(session: TrackingSession) {
        guard let monitor = session.geofences else { return }
        mqtt.setWaypoints(OwnTracks.waypoints(monitor.index.fences, loadedAt: fencesLoadedAt))
    }

    /// OwnTracks `location` for an accepted fix, at most every `mqtt_min_interval_s` and only
    /// after moving `mqtt_min_distance_m` (or after the heartbeat interval).
    private func publishLocation(_ fix: Fix, session: TrackingSession) {
        guard let t = fix.time else { return }
        if let last = lastLocation {
            let dt = t - last.time
            guard dt >= mqtt.config.minIntervalS else { return }
            guard dt >= mqtt.config.heartbeatS || Geodesic.distance(last.at, fix.coordinate) >= mqtt.config.minDistanceM
            else { return }
        }
        lastLocation = (t, fix.coordinate)
        mqtt.enqueue(
            kind: "location", topic: mqtt.baseTopic,
            payload: locationMessage(fix, time: t, session: session), qos: 0)
    }

    /// The OwnTracks `location` for `fix`, with the fences it is inside.
    func locationMessage(_ fix: Fix, time t: Double, session: TrackingSession, trigger: String = "t") -> String {
        OwnTracks.location(
            fix, time: t, tid: mqtt.trackerID, assumedErrorM: assumedErrorM,
            inRegions: session.geofences == nil ? nil : session.insideFenceNames, trigger: trigger)
    }

    /// OwnTracks `transition` for an enter or exit (crossings too), QoS 1, to `<base>/event`.
    private func publishTransition(_ e: FenceEvent, session: TrackingSession) {
        guard e.kind == .enter || e.kind == .exit else { return }
        let payload = OwnTracks.transition(
            tid: mqtt.trackerID, enter: e.kind == .enter, desc: e.fenceName ?? e.fenceID,
            rid: e.fenceID, wtst: fencesLoadedAt, time: e.time, at: e.coordinate,
            acc: accuracy(session))
        mqtt.enqueue(kind: "transition", topic: mqtt.baseTopic + "/event", payload: payload, qos: 1)
    }

    /// OwnTracks `transition` for a guard breach (`event: leave`, `desc: parked`), so that Home
    /// Assistant shows it.
    private func publishBreach(time: Double, at: Coordinate, session: TrackingSession) {
        let payload = OwnTracks.transition(
            tid: mqtt.trackerID, enter: false, desc: "parked", rid: "parked",
            wtst: Int(clamping: session.tracker.parkedGuard.armedSince ?? time, rounding: .towardZero), time: time,
            at: at,
            acc: accuracy(session))
        mqtt.enqueue(kind: "transition", topic: mqtt.baseTopic + "/event", payload: payload, qos: 1)
    }

    /// The `acc` of the last accepted fix.
    private func accuracy(_ session: TrackingSession) -> Int {
        OwnTracks.accuracy(session.tracker.lastAccepted?.horizontalError, assumed: assumedErrorM)
    }
}
