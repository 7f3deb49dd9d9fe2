/// The fields of the fix's own events.
extension EventLine {
    /// `fix_acquired`: the first accepted fix after none, and the receiver it came from (null
    /// when gpsd names none).
    public struct FixAcquired: Codable, Sendable, Equatable {
        public var time: String
        public var lat: Double
        public var lon: Double
        public var device: String?

        public init(time: String, lat: Double, lon: Double, device: String?) {
            self.time = time
            self.lat = lat
            self.lon = lon
            self.device = device
        }
    }

    /// `fix_lost`: the last accepted fix's time (null if none), why (`stale`, `gpsd_lost`,
    /// `receiver_removed`) and the receiver.
    public struct FixLost: Codable, Sendable, Equatable {
        public var time: String?
        public var reason: String
        public var device: String?

        public init(time: String?, reason: String, device: String?) {
            self.time = time
            self.reason = reason
            self.device = device
        }
    }
}
