import GPSTrackCore
import GPSTrackProtocol

/// The MQTT reporter, a sink of the tracker: the `OwnTracksReporter`'s messages published
/// through the publisher's durable outbox, transitions and alarms to `<base>/event` at QoS 1,
/// locations to `<base>` at QoS 0.
final class OwnTracksSink: TrackerSink {
    let name = UplinkName.mqtt.rawValue
    let mqtt: MQTTPublisher
    private(set) var reporter: OwnTracksReporter

    init(mqtt: MQTTPublisher, assumedErrorM: Double) {
        self.mqtt = mqtt
        reporter = OwnTracksReporter(
            tid: mqtt.trackerID, assumedErrorM: assumedErrorM, minIntervalS: mqtt.config.minIntervalS,
            minDistanceM: mqtt.config.minDistanceM, heartbeatS: mqtt.config.heartbeatS)
    }

    /// When the fences in force were loaded: the waypoints' `wtst`.
    var fencesLoadedAt: Int { reporter.fencesLoadedAt }

    func take(_ step: TrackerStep) -> [LogEntry] {
        for m in reporter.messages(for: step) {
            let (topic, qos): (String, Int32) =
                m.kind == .location ? (mqtt.baseTopic, 0) : (mqtt.baseTopic + "/event", 1)
            mqtt.enqueue(kind: m.kind, topic: topic, payload: m.payload, qos: qos)
        }
        return []
    }

    func fencesReplaced(_ fences: [Fence]?) {
        reporter.fencesReplaced()
        publishWaypoints(fences)
    }

    /// Publishes the circular fences as OwnTracks waypoints (at start and after a reload).
    func publishWaypoints(_ fences: [Fence]?) {
        if let payload = reporter.waypoints(fences) { mqtt.setWaypoints(payload) }
    }

    /// The OwnTracks `location` for `fix`, with the fences it is inside (nil: none in force).
    func locationMessage(_ fix: Fix, time t: Double, inside: [String]?, trigger: String = "t") -> String {
        reporter.location(fix, time: t, inside: inside, trigger: trigger)
    }
}
