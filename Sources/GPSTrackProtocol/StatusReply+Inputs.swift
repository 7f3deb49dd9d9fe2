import GPSTrackJSON

extension StatusReply {
    /// The box's inputs (`status`'s `inputs`; absent with none configured): each configured
    /// input's state, `on`, `off` or `unknown` before its first reading; the panic button
    /// `none`, `raised` or `acknowledged`.
    public struct InputsStatus: Codable, Sendable, Equatable {
        @Omitted public var ignition: String?
        /// Seconds of fix time the ignition was on in all, the running one included; kept across
        /// restarts in the state database.
        public var engineS = 0.0
        @Omitted public var power: String?
        @Omitted public var batteryPct: Int?
        @Omitted public var volts: Double?
        @Omitted public var sos: String?

        public init() {}

        enum CodingKeys: String, CodingKey {
            case ignition
            case engineS = "engine_s"
            case power
            case batteryPct = "battery_pct"
            case volts, sos
        }
    }
}

/// `sos_ack`'s reply: the panic button's alarm after it (`acknowledged`).
public struct SOSReply: Codable, Sendable, Equatable {
    public var ok = true
    public var sos: String
    public init(sos: String) { self.sos = sos }
}
