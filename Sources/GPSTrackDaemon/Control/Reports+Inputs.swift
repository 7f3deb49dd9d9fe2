import GPSTrackCore
import GPSTrackProtocol

extension Reports {
    /// `status`'s `inputs`: each configured input's state; `now` is the fix clock, for the
    /// running ignition's engine seconds.
    static func inputs(_ m: InputMonitor, configured c: InputConfig, now: Double?) -> StatusReply.InputsStatus {
        func state(_ on: Bool?) -> String { on.map { $0 ? "on" : "off" } ?? "unknown" }
        var r = StatusReply.InputsStatus()
        if c.sources[.ignition] != nil { r.ignition = state(m.ignition) }
        r.engineS = m.engineSeconds(now: now).rounded(decimals: 1)
        if c.sources[.power] != nil {
            r.power = state(m.power)
            r.batteryPct = m.batteryPct
            r.volts = m.volts?.rounded(decimals: 2)
        }
        if c.sources[.sos] != nil { r.sos = m.sos.map { $0.acknowledged ? "acknowledged" : "raised" } ?? "none" }
        return r
    }
}
