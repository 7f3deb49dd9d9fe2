/// The guard's breach latched until acknowledged (`gpstrackctl guard ack`), as the anchor
/// watch's alarms are: said again every `guard_repeat_s` of fix time until then.
extension ParkedGuard {
    /// Acknowledges the latched breach and no-position alarm; nothing happens without an
    /// unacknowledged one.
    mutating func acknowledge(time: Double) -> [TrackerEvent] {
        var l = latch
        var n = silence
        let breach = l?.alarm.acknowledge() ?? false
        let silent = n?.acknowledge() ?? false
        setLatch(l)
        setSilence(n)
        return breach || silent ? [.guardAck(time: time)] : []
    }

    /// The breach said again when `guard_repeat_s` has passed since it was last said, with where
    /// the vehicle is now (the last accepted fix's place, distance and speed).
    mutating func repeats(now: Double, config: TrackerConfig) -> [TrackerEvent] {
        guard var l = latch, let n = l.alarm.repeatDue(now: now, every: config.guardRepeatS) else { return [] }
        setLatch(l)
        return [
            .guardRepeat(
                time: now, at: l.at, parkedAt: l.parkedAt, distanceM: l.distanceM, speedMps: l.speedMps, repeat: n)
        ]
    }

    /// The time passing (`now` on the fixes' scale) with the last accepted fix's time: while
    /// armed, `guard_no_position_s` without one raises the no-position alarm, once a silence
    /// (an acknowledged one stays quiet until a fix ends the silence); an unacknowledged one is
    /// said again every `guard_repeat_s`, armed or not, until `guard ack`.
    mutating func noPosition(now: Double, lastFix: Double?, config: TrackerConfig) -> [TrackerEvent] {
        guard enabled else { return [] }
        if armedAt != nil, let since = armedSince {
            // The silence counts from the arming at the earliest: a fix before it is another parking's.
            let last = max(lastFix ?? since, since)
            let silent = now - last
            let thisSilence = silence.map { $0.raisedAt >= last } ?? false
            if silent >= config.guardNoPositionS, !thisSilence, silence?.acknowledged != false {
                setSilence(LatchedAlarm(raisedAt: now))
                return [.guardNoPosition(time: now, silentS: silent, repeat: 0)]
            }
        }
        guard var n = silence, let k = n.repeatDue(now: now, every: config.guardRepeatS) else { return [] }
        setSilence(n)
        return [.guardNoPosition(time: now, silentS: now - (lastFix ?? n.raisedAt), repeat: k)]
    }

    /// `alarm` (a breach or no-position alarm not acknowledged), `acknowledged`, or nil with
    /// neither latched.
    public var alarmState: String? {
        let acks = [latch?.alarm.acknowledged, silence?.acknowledged].compactMap { $0 }
        return acks.isEmpty ? nil : acks.contains(false) ? "alarm" : "acknowledged"
    }

    /// Whether the clock must tick the guard while no fix comes (armed, or an alarm latched).
    public var needsClock: Bool { enabled && (armedAt != nil || latch != nil || silence != nil) }
}
