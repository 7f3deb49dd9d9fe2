import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The `status` reply, put together off the tracking actor from its snapshot and the other
/// parts' stats (the gpsd source's drops, the MQTT publisher's queue).
public enum StatusReport {
    /// `status` from the tracker's `snapshot`, the gpsd source's `stats` and the publisher.
    public static func reply(_ s: TrackerSnapshot, gpsd: GPSDSource.Stats?, mqtt: MQTTPublisher?) -> StatusReply {
        var r = StatusReply()
        r.gpsd = s.gpsd
        if let gpsd {
            r.gpsd.droppedFixes = gpsd.droppedFixes
            r.gpsd.droppedMalformed = gpsd.droppedMalformed
        }
        r.receivers = s.receivers
        r.fix = s.fix
        r.trip = s.trip
        r.motion = s.motion
        r.currentTrip = s.currentTrip
        r.guard = s.guardStatus
        r.fences = s.fences
        r.anchor = s.anchor
        r.inputs = s.inputs
        r.counters = s.counters
        r.storage = s.storage
        r.steps = s.steps
        let mqttStats = mqtt.map { ($0, $0.state) }
        if let (mqtt, st) = mqttStats {
            var m = StatusReply.MQTTStatus()
            m.connected = st.connected
            m.outbox = st.outbox
            m.outboxState = st.outboxFailure == nil ? "ok" : "degraded"
            m.outboxReason = st.outboxFailure
            m.broker = "\(mqtt.config.host ?? ""):\(mqtt.config.port)"
            m.topic = mqtt.baseTopic
            m.oldestAgeS = Reports.age(st.outbox, st.oldest)
            m.lastSuccess = st.lastSuccess.map(Timestamp.iso8601)
            m.tlsError = st.tlsFailure
            r.mqtt = m
        }
        r.uplinks = uplinks(s.uplinks, mqtt: mqttStats?.1)
        r.seq = s.seq
        r.version = Daemon.version
        r.uptimeS = s.uptimeS
        r.eventsTotal = s.eventsTotal
        r.tripsTotal = s.tripsTotal
        r.sky = s.sky
        r.clockOffsetS = s.clockOffsetS
        r.today = s.today
        r.odometerM = s.odometerM
        r.ha = s.ha
        return r
    }

    /// `status`'s `uplinks`: MQTT's publisher and the HTTP uplinks; nil with none configured
    /// (the reply is then as it was before uplinks).
    static func uplinks(
        _ http: [UplinkName: StatusReply.UplinkStatus],
        mqtt st: (
            connected: Bool, outbox: Int, outboxFailure: String?, oldest: Double?, lastSuccess: Double?,
            tlsFailure: String?
        )?
    ) -> StatusReply.UplinksStatus? {
        var u = StatusReply.UplinksStatus()
        if let st {
            var m = StatusReply.UplinkStatus()
            m.connected = st.connected
            m.queued = st.outbox
            m.oldestAgeS = Reports.age(st.outbox, st.oldest)
            m.lastSuccess = st.lastSuccess.map(Timestamp.iso8601)
            m.lastError = st.tlsFailure ?? st.outboxFailure
            u.mqtt = m
        }
        for (name, status) in http { u[name] = status }
        return u == StatusReply.UplinksStatus() ? nil : u
    }
}
