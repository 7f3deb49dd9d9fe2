import GPSTrackProtocol

/// The guard's breach latched until acknowledged (`gpstrackctl guard ack`), as the anchor
/// watch's alarms are: said again every `guard_repeat_s` of fix time until then.
extension ParkedGuard {
    /// Acknowledges a latched breach; nothing happens without an unacknowledged one.
    mutating func acknowledge(time: Double) -> [TrackerEvent] {
        guard var l = latch, !l.acknowledged else { return [] }
        l.acknowledged = true
        setLatch(l)
        return [.guardAck(time: time)]
    }

    /// The breach said again when `guard_repeat_s` has passed since it was last said.
    mutating func repeats(now: Double, config: TrackerConfig) -> [TrackerEvent] {
        guard var l = latch, !l.acknowledged, now - l.lastSaidAt >= config.guardRepeatS else { return [] }
        l.repeats += 1
        l.lastSaidAt = now
        setLatch(l)
        return [.guardRepeat(time: now, at: l.at, parkedAt: l.parkedAt, distanceM: l.distanceM, repeat: l.repeats)]
    }

    /// `alarm` (a breach not acknowledged), `acknowledged`, or nil without a latched breach.
    public var alarmState: String? { latch.map { $0.acknowledged ? "acknowledged" : "alarm" } }
}
