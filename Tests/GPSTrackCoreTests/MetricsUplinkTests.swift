import GPSTrackProtocol
import Testing

/// The outbox series carry one `uplink` label per configured uplink (MQTT and the HTTP ones),
/// from `status`'s `uplinks`; an uplink not configured has no series.
@Suite struct MetricsUplinkTests {
    @Test func everyConfiguredUplinkHasItsOutboxSeries() {
        var s = StatusReply()
        var u = StatusReply.UplinksStatus()
        var traccar = StatusReply.UplinkStatus()
        traccar.connected = false
        traccar.queued = 120
        traccar.oldestAgeS = 600.5
        traccar.lastSuccess = "2026-03-14T08:00:00.000Z"
        u.traccar = traccar
        var webhook = StatusReply.UplinkStatus()
        webhook.connected = true
        u.webhook = webhook
        s.uplinks = u
        let text = Metrics.render(s, now: 1_773_476_000)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("gpstrackd_outbox_messages{uplink=\"traccar\"} 120"))
        #expect(lines.contains("gpstrackd_outbox_oldest_age_seconds{uplink=\"traccar\"} 600.5"))
        #expect(lines.contains("gpstrackd_uplink_connected{uplink=\"webhook\"} 1"))
        #expect(lines.contains("gpstrackd_outbox_messages{uplink=\"webhook\"} 0"))
        // 2026-03-14T08:00:00Z is 1773475200 s after the epoch (date -d, by hand).
        #expect(lines.contains("gpstrackd_uplink_last_success_seconds{uplink=\"traccar\"} 1773475200"))
        #expect(!text.contains("uplink=\"mqtt\"") && !text.contains("uplink=\"owntracks_http\""))
    }
}
