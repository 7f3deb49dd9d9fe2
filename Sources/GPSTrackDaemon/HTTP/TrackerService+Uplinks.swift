import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

extension TrackerService {
    /// `status`'s `uplinks`: MQTT's publisher and the HTTP uplinks among the outlets; nil with
    /// none configured (the reply is then as it was before uplinks).
    func uplinksStatus() -> StatusReply.UplinksStatus? {
        var u = StatusReply.UplinksStatus()
        let now = Double(time(nil))
        func age(_ queued: Int, _ oldest: Double?) -> Double? {
            queued > 0 ? oldest.map { max(0, now - $0).rounded(decimals: 1) } : nil
        }
        if let mqtt {
            let st = mqtt.state
            var m = StatusReply.UplinkStatus()
            m.connected = st.connected
            m.queued = st.outbox
            m.oldestAgeS = age(st.outbox, st.oldest)
            m.lastSuccess = st.lastSuccess.map(Timestamp.iso8601)
            m.lastError = st.outboxFailure
            u.mqtt = m
        }
        for case let uplink as any UplinkSink in sinks {
            let s = uplink.sender.snapshot
            var t = StatusReply.UplinkStatus()
            t.connected = s.connected
            t.queued = s.queued
            t.oldestAgeS = age(s.queued, s.oldest)
            t.lastSuccess = s.lastSuccess.map(Timestamp.iso8601)
            t.lastError = s.lastError
            t.dropped = s.dropped
            t.expired = uplink.sender.outbox.maxAgeS == nil ? nil : s.expired
            t.skippedTimeOff = uplink.clock.skippedFixes
            switch uplink.name {
            case "traccar": u.traccar = t
            case "webhook": u.webhook = t
            default: u.owntracksHTTP = t
            }
        }
        return u == StatusReply.UplinksStatus() ? nil : u
    }
}
