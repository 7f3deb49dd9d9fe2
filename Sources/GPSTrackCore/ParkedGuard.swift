/// The parked guard (anti-theft, towing): once the receiver has stood at a stop for
/// `guard_after_s`, it arms around the stop's settled place; the first accepted fix farther
/// than `guard_radius_m` plus its error estimate raises one breach for that parking. The breach
/// follows the vehicle (each repeat says where it is now) and no stop arms the guard again
/// until it is acknowledged: an owner asleep at the first alarm must not wake to a guard armed
/// at the place it was towed to.
public struct ParkedGuard: Sendable, Equatable {
    /// Whether the guard is on (`guard = on`, `gpstrackctl guard on|off`).
    public var enabled: Bool
    /// Where it is armed, since when, and for which stop (its arrival).
    public private(set) var armedAt: Coordinate?
    public private(set) var armedSince: Double?
    /// The stop (by arrival) the guard last armed for; a breach disarms it until the next stop.
    public private(set) var parking: Double?
    public private(set) var breached = false
    /// The stop (by arrival) whose arming was refused while a breach was latched: said once.
    public private(set) var refused: Double?
    /// The breach, latched until `guard ack` (or the guard turned off), said again every
    /// `guard_repeat_s` until then.
    public private(set) var latch: Latch?
    /// The no-position alarm (`guard_no_position`), latched and repeated as the breach is.
    public private(set) var silence: Silence?
    /// `guard_arm_on_ignition_off`: where and when the ignition went off (ParkedGuard+Ignition).
    public internal(set) var ignitionOff: StopFigures?

    /// The breach: the one rule of latched alarms, with where the vehicle is.
    public struct Latch: Sendable, Equatable {
        public var alarm: LatchedAlarm
        /// Where the vehicle is: the breach's fix, then each accepted fix's until acknowledged.
        public var at: Coordinate
        public var parkedAt: Coordinate
        public var distanceM: Double
        public var speedMps: Double? = nil
    }

    /// The no-position alarm follows the one rule of latched alarms.
    public typealias Silence = LatchedAlarm

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// `off`, `waiting` (on, not armed) or `armed`.
    public var state: String { !enabled ? "off" : armedAt == nil ? "waiting" : "armed" }

    /// Takes an accepted fix with the stop the trip detector says the receiver is at.
    mutating func observe(_ fix: Fix, stop: StopFigures?, config: TrackerConfig) -> [TrackerEvent] {
        guard enabled, let t = fix.time else { return [] }
        let speed = fix.speed.isFinite && fix.speed >= 0 ? fix.speed : nil
        // A latched breach follows the vehicle, and is said again when due, whatever else this
        // fix brings.
        if var l = latch, !l.alarm.acknowledged {
            l.at = fix.coordinate
            l.distanceM = Geodesic.shortDistance(l.parkedAt, fix.coordinate)
            l.speedMps = speed
            setLatch(l)
        }
        let said = repeats(now: t, config: config)
        if let at = armedAt {
            let d = Geodesic.shortDistance(at, fix.coordinate)
            guard d > config.guardRadiusM + (fix.horizontalError ?? config.assumedErrorM) else { return said }
            armedAt = nil
            armedSince = nil
            breached = true
            latch = Latch(
                alarm: LatchedAlarm(raisedAt: t), at: fix.coordinate, parkedAt: at, distanceM: d, speedMps: speed)
            return said + [.guardBreach(time: t, at: fix.coordinate, parkedAt: at, distanceM: d, speedMps: speed)]
        }
        // With `guard_arm_on_ignition_off` the ignition's off is the parking, not a stop.
        let parked = config.guardArmOnIgnitionOff ? ignitionOff : stop
        guard let parked, parked.arrival != parking, t - parked.arrival >= config.guardAfterS else { return said }
        return said + arm(for: parked, at: t, config: config)
    }

    /// Arms the guard for `stop` at `t`; refused (said once) while a breach is latched.
    mutating func arm(for stop: StopFigures, at t: Double, config: TrackerConfig) -> [TrackerEvent] {
        if let l = latch, !l.alarm.acknowledged {
            guard refused != stop.arrival else { return [] }
            refused = stop.arrival
            return [.guardArmRefused(time: t, at: stop.at, parkedAt: l.parkedAt)]
        }
        parking = stop.arrival
        breached = false
        if latch?.alarm.acknowledged == true { latch = nil }
        if silence?.acknowledged == true { silence = nil }
        armedAt = stop.at
        armedSince = t
        return [.guardArmed(time: t, at: stop.at, radiusM: config.guardRadiusM)]
    }

    mutating func setLatch(_ l: Latch?) { latch = l }
    /// Disarmed without a breach (the ignition on).
    mutating func disarm() {
        armedAt = nil
        armedSince = nil
    }
    mutating func setSilence(_ s: Silence?) { silence = s }

    /// Turns the guard on or off; off disarms it (and forgets a latched breach).
    public mutating func set(enabled on: Bool) {
        enabled = on
        if !on {
            armedAt = nil
            armedSince = nil
            latch = nil
            silence = nil
        }
    }

    /// Lines for the stored state (beside the trip detector's).
    public var encodedState: String {
        var lines = ["guard=\(enabled ? 1 : 0)"]
        if let a = armedAt, let s = armedSince { lines.append("guard_armed=\(a.latitude),\(a.longitude),\(s)") }
        if let p = parking { lines.append("guard_parking=\(p),\(breached ? 1 : 0)") }
        if let r = refused { lines.append("guard_refused=\(r)") }
        if let l = latch {
            // The speed last, absent when unknown: a state written before it had nine fields.
            lines.append(
                "guard_latch=\(l.alarm.encoded),\(l.at.latitude),\(l.at.longitude),\(l.parkedAt.latitude),"
                    + "\(l.parkedAt.longitude),\(l.distanceM)" + (l.speedMps.map { ",\($0)" } ?? ""))
        }
        if let n = silence { lines.append("guard_no_position=\(n.encoded)") }
        return lines.joined(separator: "\n")
    }

    /// Reads back `encodedState` from a stored state's lines; nil without a `guard=` line.
    public init?(state: String) {
        var fields: [String: [Double]] = [:]
        for line in state.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "="), line.hasPrefix("guard") else { continue }
            fields[String(line[..<eq])] = line[line.index(after: eq)...].split(separator: ",").compactMap { Double($0) }
        }
        guard let on = fields["guard"]?.first else { return nil }
        self.init(enabled: on == 1)
        if let a = fields["guard_armed"], a.count == 3 {
            armedAt = Coordinate(latitude: a[0], longitude: a[1])
            armedSince = a[2]
        }
        if let p = fields["guard_parking"], p.count == 2 {
            parking = p[0]
            breached = p[1] == 1
        }
        if let r = fields["guard_refused"], r.count == 1, r[0].isFinite { refused = r[0] }
        if let l = fields["guard_latch"], l.count == 9 || l.count == 10, l.allSatisfy(\.isFinite),
            let alarm = LatchedAlarm(fields: l[0..<4])
        {
            latch = Latch(
                alarm: alarm, at: Coordinate(latitude: l[4], longitude: l[5]),
                parkedAt: Coordinate(latitude: l[6], longitude: l[7]),
                distanceM: l[8], speedMps: l.count == 10 && l[9] >= 0 && l[9] < 1e4 ? l[9] : nil)
        }
        if let n = fields["guard_no_position"], n.count == 4 { silence = LatchedAlarm(fields: n[...]) }
    }
}
