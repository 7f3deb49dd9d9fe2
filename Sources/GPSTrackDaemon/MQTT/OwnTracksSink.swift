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
    private var throttle: LocationThrottle
    /// When the fences in force were loaded: the waypoints' and transitions' `wtst`.
    private(set) var fencesLoadedAt = Int(time(nil))

    init(mqtt: MQTTPublisher, assumedErrorM: Double) {
        self.mqtt = mqtt
        self.assumedErrorM = assumedErrorM
        throttle = LocationThrottle(
            minIntervalS: mqtt.config.minIntervalS, minDistanceM: mqtt.config.minDistanceM,
            heartbeatS: mqtt.config.heartbeatS)
    }

    func take(_ step: TrackerStep, session: TrackingSession) -> [LogEntry] {
        for e in step.events {
            // OwnTracks `transition`s, QoS 1, to `<base>/event` (OwnTracks.message decides).
            guard
                let m = OwnTracks.message(
                    for: e.event, tid: mqtt.trackerID, fencesLoadedAt: fencesLoadedAt, acc: accuracy(session),
                    session: session)
            else { continue }
            mqtt.enqueue(
                kind: m.isAlarm ? .alarm : .transition, topic: mqtt.baseTopic + "/event", payload: m.payload, qos: 1)
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
        guard let t = fix.time, throttle.due(time: t, at: fix.coordinate) else { return }
        throttle.sent(time: t, at: fix.coordinate)
        mqtt.enqueue(
            kind: .location, topic: mqtt.baseTopic,
            payload: locationMessage(fix, time: t, session: session), qos: 0)
    }

    /// The OwnTracks `location` for `fix`, with the fences it is inside.
    func locationMessage(_ fix: Fix, time t: Double, session: TrackingSession, trigger: String = "t") -> String {
        OwnTracks.location(
            fix, time: t, tid: mqtt.trackerID, assumedErrorM: assumedErrorM,
            inRegions: session.geofences == nil ? nil : session.insideFenceNames, trigger: trigger)
    }

    /// The `acc` of the last accepted fix.
    private func accuracy(_ session: TrackingSession) -> Int {
        OwnTracks.accuracy(session.tracker.lastAccepted?.horizontalError, assumed: assumedErrorM)
    }
}
