import GPSTrackJSON

extension EventLine {
    /// The inputs' events (`ignition_on`, `ignition_off`, `power_lost`, `power_restored`,
    /// `battery_low`, `sos`, `sos_ack`): one shape, the fields each kind has. `lat`/`lon` are
    /// the last accepted fix's place, where one is known.
    public struct InputChange: Codable, Sendable, Equatable {
        /// Which of the seven: the line's `event`, not a field of its own.
        public var kind: Kind
        public var time: String
        @Omitted public var lat: Double?
        @Omitted public var lon: Double?
        /// `ignition_off`: the seconds the ignition was on, and the engine's total.
        @Omitted public var engineS: Double?
        @Omitted public var engineTotalS: Double?
        /// `power_*`, `battery_low`: the battery's charge (%) and voltage, where known.
        @Omitted public var batteryPct: Int?
        @Omitted public var volts: Double?
        /// `sos`: 0 when pressed, then 1, 2... until acknowledged.
        @Omitted public var `repeat`: Int?

        public init(
            kind: Kind, time: String, lat: Double? = nil, lon: Double? = nil, engineS: Double? = nil,
            engineTotalS: Double? = nil, batteryPct: Int? = nil, volts: Double? = nil, repeat: Int? = nil
        ) {
            self.kind = kind
            self.time = time
            self.lat = lat
            self.lon = lon
            self.engineS = engineS
            self.engineTotalS = engineTotalS
            self.batteryPct = batteryPct
            self.volts = volts
            self.repeat = `repeat`
        }

        enum CodingKeys: String, CodingKey {
            case time, lat, lon
            case engineS = "engine_s"
            case engineTotalS = "engine_total_s"
            case batteryPct = "battery_pct"
            case volts
            case `repeat`
        }

        public init(from decoder: any Decoder) throws {
            // The kind comes from the line's `event`; `readers` sets it.
            let c = try decoder.container(keyedBy: CodingKeys.self)
            kind = .ignitionOn
            time = try c.decode(String.self, forKey: .time)
            _lat = try c.decode(Omitted<Double>.self, forKey: .lat)
            _lon = try c.decode(Omitted<Double>.self, forKey: .lon)
            _engineS = try c.decode(Omitted<Double>.self, forKey: .engineS)
            _engineTotalS = try c.decode(Omitted<Double>.self, forKey: .engineTotalS)
            _batteryPct = try c.decode(Omitted<Int>.self, forKey: .batteryPct)
            _volts = try c.decode(Omitted<Double>.self, forKey: .volts)
            _repeat = try c.decode(Omitted<Int>.self, forKey: .repeat)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(time, forKey: .time)
            try c.encode(_lat, forKey: .lat)
            try c.encode(_lon, forKey: .lon)
            try c.encode(_engineS, forKey: .engineS)
            try c.encode(_engineTotalS, forKey: .engineTotalS)
            try c.encode(_batteryPct, forKey: .batteryPct)
            try c.encode(_volts, forKey: .volts)
            try c.encode(_repeat, forKey: .repeat)
        }

        /// The readers of the seven names, for `EventLine.Body.readers`.
        static let readers: [EventName: @Sendable (any Decoder) throws -> Body] = Dictionary(
            uniqueKeysWithValues: Kind.allCases.map { kind in
                (
                    kind.name,
                    { @Sendable decoder in
                        var i = try InputChange(from: decoder)
                        i.kind = kind
                        return .input(i)
                    }
                )
            })

        /// The inputs' kinds, which share `InputChange`'s fields.
        public enum Kind: Sendable, CaseIterable {
            case ignitionOn, ignitionOff, powerLost, powerRestored, batteryLow, sos, sosAck

            /// The `event` field's value.
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
        }
    }
}
