import GPSTrackVocabulary

/// The box's own inputs besides GPS (gpstrackd(8), INPUTS).
public enum InputName: String, Sendable, CaseIterable, Codable {
    case ignition
    case power
    case sos
}

/// One settled reading of an input, as the source hands it over (debounced, validated).
public enum InputReading: Sendable, Equatable {
    /// The ignition line or the panic button: on or off.
    case level(InputName, on: Bool)
    /// The external supply: online or not, and the battery's charge and voltage where the
    /// power supply has them (`capacity` 0-100, `voltage_now` in volts).
    case power(online: Bool, batteryPct: Int?, volts: Double?)

    /// Which input it is.
    public var input: InputName {
        switch self {
        case .level(let name, _): name
        case .power: .power
        }
    }
}

/// What the inputs decided (gpstrackd(8), INPUTS): sequenced and stored like every tracker event.
/// `at` is the last accepted fix's place, where one is known.
public enum InputEvent: Sendable, Equatable {
    case ignitionOn(time: Double, at: Coordinate?)
    /// The ignition went off: the seconds of fix time it was on, and the engine's total.
    case ignitionOff(time: Double, at: Coordinate?, engineS: Double, engineTotalS: Double)
    /// The external power went off; `repeat` 0 when the guard was armed (an alarm, latched like
    /// its breach until `guard ack`, then 1, 2... every `guard_repeat_s`), nil otherwise.
    case powerLost(time: Double, at: Coordinate?, batteryPct: Int?, volts: Double?, repeat: Int? = nil)
    case powerRestored(time: Double, at: Coordinate?, batteryPct: Int?, volts: Double?)
    /// The battery fell below `battery_low_pct` (once per crossing).
    case batteryLow(time: Double, at: Coordinate?, batteryPct: Int)
    /// The panic button: `repeat` 0 when pressed, then 1, 2... every `guard_repeat_s` until
    /// `gpstrackctl sos ack`.
    case sos(time: Double, at: Coordinate?, repeat: Int)
    case sosAck(time: Double)

    public var name: EventName {
        switch self {
        case .ignitionOn: .ignitionOn
        case .ignitionOff: .ignitionOff
        case .powerLost: .powerLost
        case .powerRestored: .powerRestored
        case .batteryLow: .batteryLow
        case .sos: .sos
        case .sosAck: .sosAck
        }
    }

    public var time: Double {
        switch self {
        case .ignitionOn(let t, _), .ignitionOff(let t, _, _, _), .powerLost(let t, _, _, _, _),
            .powerRestored(let t, _, _, _), .batteryLow(let t, _, _), .sos(let t, _, _), .sosAck(let t):
            t
        }
    }

    /// The place, where one is known.
    public var at: Coordinate? {
        switch self {
        case .ignitionOn(_, let at), .ignitionOff(_, let at, _, _), .powerLost(_, let at, _, _, _),
            .powerRestored(_, let at, _, _), .batteryLow(_, let at, _), .sos(_, let at, _):
            at
        case .sosAck: nil
        }
    }
}
