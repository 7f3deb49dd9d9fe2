#if canImport(Glibc)
import Glibc
#endif
import GPSTrackCore

/// The MQTT reporter: what the tracker's events and fixes become on the broker.
extension TrackerService {
    /// Publishes the circular fences as OwnTracks waypoints (at start and after a reload).
    public func publishWaypoints() {
        guard let mqtt, let monitor = session.geofences else { return }
        mqtt.setWaypoints(OwnTracks.waypoints(monitor.index.fences, loadedAt: fencesLoadedAt))
    }

    /// OwnTracks `location` for an accepted fix, at most every `mqtt_min_interval_s` and only
    /// after moving `mqtt_min_distance_m` (or after the heartbeat interval).
    func publishLocation(_ fix: Fix) {
        guard let mqtt, let t = fix.time else { return }
        if let last = lastLocation {
            let dt = t - last.time
            guard dt >= mqtt.config.minIntervalS else { return }
            guard dt >= mqtt.config.heartbeatS || Geodesic.distance(last.at, fix.coordinate) >= mqtt.config.minDistanceM else { return }
        }
        lastLocation = (t, fix.coordinate)
        mqtt.enqueue(kind: "location", topic: mqtt.baseTopic, payload: locationMessage(fix, time: t, tid: mqtt.trackerID), qos: 0)
    }

    /// The OwnTracks `location` for `fix`, with the fences it is inside.
    func locationMessage(_ fix: Fix, time t: Double, tid: String, trigger: String = "t") -> String {
        let inside = session.geofences.map { monitor in
            monitor.index.fences.indices.filter { monitor.statuses[$0].state == .inside }
                .map { monitor.index.fences[$0].name ?? monitor.index.fences[$0].id }
        }
        return OwnTracks.location(fix, time: t, tid: tid, assumedErrorM: configuration.tracker.assumedErrorM,
                                  inRegions: inside, trigger: trigger)
    }

    /// OwnTracks `transition` for an enter or exit (crossings too), QoS 1, to `<base>/event`.
    func publishTransition(_ e: FenceEvent) {
        guard let mqtt, e.kind == .enter || e.kind == .exit else { return }
        let payload = OwnTracks.transition(tid: mqtt.trackerID, enter: e.kind == .enter, desc: e.fenceName ?? e.fenceID,
                                           rid: e.fenceID, wtst: fencesLoadedAt, time: e.time, at: e.coordinate, acc: accuracy)
        mqtt.enqueue(kind: "transition", topic: mqtt.baseTopic + "/event", payload: payload, qos: 1)
    }

    /// OwnTracks `transition` for a guard breach (`event: leave`, `desc: parked`), so that Home
    /// Assistant shows it.
    func publishBreach(time: Double, at: Coordinate) {
        guard let mqtt else { return }
        let payload = OwnTracks.transition(tid: mqtt.trackerID, enter: false, desc: "parked", rid: "parked",
                                           wtst: Int(session.tracker.parkedGuard.armedSince ?? time), time: time, at: at, acc: accuracy)
        mqtt.enqueue(kind: "transition", topic: mqtt.baseTopic + "/event", payload: payload, qos: 1)
    }

    /// The `acc` of the last accepted fix.
    private var accuracy: Int {
        OwnTracks.accuracy(session.tracker.lastAccepted?.horizontalError, assumed: configuration.tracker.assumedErrorM)
    }

    /// A trip ended: its steps go to the journal and, with MQTT, as OwnTracks `steps`.
    func stepsTripEnded(from: Double?, to: Double?) {
        guard let steps, steps.source != nil else { return }
        self.steps?.save(force: true)
        emit(steps.tripEntry())
        guard let mqtt else { return }
        let payload = steps.tripMessage(from: from, to: to)
        mqtt.enqueue(kind: "steps", topic: mqtt.baseTopic, payload: payload, qos: 1)
    }

    /// OwnTracks' `reportSteps`: a `steps` message, by default from local midnight until now.
    func reportSteps(from: Double?, to: Double?) {
        guard let mqtt, steps?.source != nil else { return }
        let now = Double(time(nil))
        var midnight = now
        var t = time_t(now)
        var local = tm()
        if localtime_r(&t, &local) != nil { local.tm_hour = 0; local.tm_min = 0; local.tm_sec = 0; midnight = Double(mktime(&local)) }
        let from = from ?? midnight
        guard let payload = steps?.reportMessage(from: from, to: max(from, to ?? now)) else { return }
        mqtt.enqueue(kind: "steps", topic: mqtt.baseTopic, payload: payload, qos: 1)
    }
}
