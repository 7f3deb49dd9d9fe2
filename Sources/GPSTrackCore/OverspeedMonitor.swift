/// Overspeed: a speed above the limit in force (the lowest of `speed_limit_kmh` and the
/// `speed_limit_kmh` of every fence the receiver is inside) for `overspeed_min_s` starts an
/// excess; the first fix at or below it ends one, with the maximum speed, the duration and
/// the distance driven over the limit. The speed is the receiver's Doppler speed where it
/// reports one, else the one derived from the odometer's delivered positions.
public struct OverspeedMonitor: Sendable {
    struct Excess: Sendable {
        var since: Double
        var at: Coordinate
        var limitKmh: Double
        var maxSpeed: Double
        var distanceM = 0.0
        var lastTime: Double
        var lastSpeed: Double
        var started = false
    }

    private var excess: Excess?
    /// Whether an excess is under way: `overspeed_start` said, its end not yet.
    public var active: Bool { excess?.started ?? false }
    private var lastDelivery: (time: Double, at: Coordinate)?
    private var derivedSpeed: Double?

    public init() {}

    /// Takes an accepted fix, the odometer's hop when it delivered it, the limit in force, and
    /// how long it must be exceeded before that is told (`overspeed_min_s`).
    mutating func observe(_ fix: Fix, hop: Double?, limitKmh: Double?, minS: Double) -> [TrackerEvent] {
        guard let t = fix.time else { return [] }
        if let hop, hop > 0 {
            if let last = lastDelivery, t > last.time { derivedSpeed = hop / (t - last.time) }
            lastDelivery = (t, fix.coordinate)
        }
        let speed = fix.speed.isFinite && fix.speed >= 0 ? fix.speed : (derivedSpeed ?? 0)
        guard let limitKmh, speed * 3.6 > limitKmh else {
            defer { excess = nil }
            guard let e = excess, e.started else { return [] }
            return [
                .overspeedEnd(
                    time: t, at: fix.coordinate, limitKmh: e.limitKmh, maxSpeedMps: e.maxSpeed,
                    durationS: t - e.since, distanceM: e.distanceM + (e.lastSpeed + speed) / 2 * (t - e.lastTime))
            ]
        }
        guard var e = excess else {
            excess = Excess(
                since: t, at: fix.coordinate, limitKmh: limitKmh, maxSpeed: speed, lastTime: t, lastSpeed: speed)
            return []
        }
        e.distanceM += (e.lastSpeed + speed) / 2 * (t - e.lastTime)
        e.lastTime = t
        e.lastSpeed = speed
        e.maxSpeed = max(e.maxSpeed, speed)
        e.limitKmh = min(e.limitKmh, limitKmh)
        var events: [TrackerEvent] = []
        if !e.started, t - e.since >= minS {
            e.started = true
            events.append(.overspeedStart(time: e.since, at: e.at, limitKmh: e.limitKmh, speedMps: e.maxSpeed))
        }
        excess = e
        return events
    }
}
