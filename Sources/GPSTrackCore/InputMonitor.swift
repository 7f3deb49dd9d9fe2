/// The inputs' state machine (gpstrackd(8), INPUTS): it takes settled readings at their fix
/// time and returns what they mean. The first reading of an input after the start sets its
/// state quietly (a restart is no ignition change), except a pressed panic button and a low
/// battery, which are said.
public struct InputMonitor: Sendable {
    /// The battery is low below `batteryLowPct`; said again only after it has been at
    /// `batteryLowPct + batteryRearmPct` or more, so a reading that wavers about the threshold
    /// says it once.
    public struct Config: Sendable, Equatable {
        public var batteryLowPct = 20
        public static let batteryRearmPct = 5
        /// The panic button's latched alarm is said again this often (`guard_repeat_s`).
        public var repeatS: Double = 120
        public init() {}
    }

    public let config: Config
    /// The ignition (nil: not read yet) and since when it is on (fix time).
    public private(set) var ignition: Bool?
    public private(set) var ignitionSince: Double?
    /// Seconds of fix time the ignition was on, over the ignition-off events so far.
    public internal(set) var engineTotalS = 0.0
    /// The last ignition-on periods ended (at most `keptPeriods`), for a trip's engine seconds.
    public internal(set) var periods: [ClosedRange<Double>] = []
    static let keptPeriods = 64
    /// The external power (nil: not read yet), the battery's charge and voltage last read.
    public private(set) var power: Bool?
    public private(set) var batteryPct: Int?
    public private(set) var volts: Double?
    /// Whether `battery_low` was said and not re-armed yet.
    public internal(set) var batteryLow = false
    /// The panic button's last level and its latched alarm.
    public private(set) var sosPressed: Bool?
    public internal(set) var sos: LatchedAlarm?
    /// The power lost while the guard was armed: an alarm latched like its breach.
    public internal(set) var powerAlarm: LatchedAlarm?

    public init(config: Config = Config()) { self.config = config }

    /// The engine's seconds so far, with the running ignition's counted up to `now`.
    public func engineSeconds(now: Double?) -> Double {
        guard ignition == true, let since = ignitionSince, let now else { return engineTotalS }
        return engineTotalS + max(0, now - since)
    }

    /// The seconds from `start` to `end` the ignition was on (nil before any ignition reading):
    /// a trip's engine seconds.
    public func engineSeconds(from start: Double, to end: Double) -> Double? {
        guard ignition != nil || !periods.isEmpty, end >= start else { return nil }
        var open: [ClosedRange<Double>] = []
        if ignition == true, let since = ignitionSince, since <= end { open = [since...max(since, end)] }
        return (periods + open).reduce(0) { sum, p in sum + max(0, min(p.upperBound, end) - max(p.lowerBound, start)) }
    }

    /// Whether a panic button alarm is raised and not acknowledged.
    public var sosRaised: Bool { sos.map { !$0.acknowledged } ?? false }

    /// Takes one settled reading at fix time `time`; `at` is the last accepted fix's place.
    /// `guardArmed`: a power loss now is an alarm, latched until `guard ack`.
    public mutating func ingest(_ reading: InputReading, time: Double, at: Coordinate?, guardArmed: Bool = false)
        -> [InputEvent]
    {
        switch reading {
        case .level(.ignition, let on):
            defer { ignition = on }
            guard let was = ignition else {
                if on { ignitionSince = time }
                return []
            }
            guard was != on else { return [] }
            if on {
                ignitionSince = time
                return [.ignitionOn(time: time, at: at)]
            }
            let engine = ignitionSince.map { max(0, time - $0) } ?? 0
            engineTotalS += engine
            if let since = ignitionSince, since <= time {
                periods.append(since...time)
                if periods.count > Self.keptPeriods { periods.removeFirst(periods.count - Self.keptPeriods) }
            }
            ignitionSince = nil
            return [.ignitionOff(time: time, at: at, engineS: engine, engineTotalS: engineTotalS)]
        case .level(.sos, let on):
            defer { sosPressed = on }
            // A press (or a button found pressed at the start) raises it, unless one is raised.
            guard on, sosPressed != true, !sosRaised else { return [] }
            sos = LatchedAlarm(raisedAt: time)
            return [.sos(time: time, at: at, repeat: 0)]
        case .level(.power, let on):
            return ingest(
                .power(online: on, batteryPct: batteryPct, volts: volts), time: time, at: at, guardArmed: guardArmed)
        case .power(let online, let pct, let v):
            var out: [InputEvent] = []
            batteryPct = pct
            volts = v
            if let was = power, was != online {
                if online {
                    out.append(.powerRestored(time: time, at: at, batteryPct: pct, volts: v))
                } else {
                    let alarm = guardArmed && powerAlarm.map { $0.acknowledged } != false
                    if alarm { powerAlarm = LatchedAlarm(raisedAt: time) }
                    out.append(.powerLost(time: time, at: at, batteryPct: pct, volts: v, repeat: alarm ? 0 : nil))
                }
            }
            power = online
            if let pct {
                if pct < config.batteryLowPct, !batteryLow {
                    batteryLow = true
                    out.append(.batteryLow(time: time, at: at, batteryPct: pct))
                } else if pct >= config.batteryLowPct + Config.batteryRearmPct {
                    batteryLow = false
                }
            }
            return out
        }
    }

    /// Time passing at `now` (fix time): a latched panic alarm said again when due.
    public mutating func tick(now: Double, at: Coordinate?) -> [InputEvent] {
        var out: [InputEvent] = []
        if var alarm = sos, let n = alarm.repeatDue(now: now, every: config.repeatS) {
            sos = alarm
            out.append(.sos(time: now, at: at, repeat: n))
        }
        if var alarm = powerAlarm, let n = alarm.repeatDue(now: now, every: config.repeatS) {
            powerAlarm = alarm
            out.append(.powerLost(time: now, at: at, batteryPct: batteryPct, volts: volts, repeat: n))
        }
        return out
    }

    /// `guard ack`: the power-loss alarm acknowledged; false when none was raised.
    public mutating func acknowledgePowerAlarm() -> Bool {
        guard var alarm = powerAlarm, alarm.acknowledge() else { return false }
        powerAlarm = alarm
        return true
    }

    /// Whether a latched alarm of the inputs wants the clock while no fix comes.
    public var needsClock: Bool { sosRaised || powerAlarm.map { !$0.acknowledged } ?? false }

    /// `gpstrackctl sos ack`: the latched panic alarm acknowledged (none raised: no event).
    public mutating func acknowledgeSOS(time: Double) -> [InputEvent] {
        guard var alarm = sos, alarm.acknowledge() else { return [] }
        sos = alarm
        return [.sosAck(time: time)]
    }
}
