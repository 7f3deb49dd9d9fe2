/// What a Traccar server makes of the positions it is sent, by Traccar's own rules read from
/// its code (traccar/traccar), for tests: `AlarmEventHandler` raises an event for each alarm of
/// a position less those of the device's last position (`event.ignoreDuplicateAlerts`, on by
/// default), and the last position is the latest by fix time (`PositionUtil.isLatest`: not
/// before the cached one).
public enum TraccarRules {
    /// One position as the server got it.
    public struct Position: Sendable, Equatable {
        public var time: Double
        public var lat: Double
        public var lon: Double
        public var alarms: Set<String>

        public init(time: Double, lat: Double, lon: Double, alarms: Set<String>) {
            self.time = time
            self.lat = lat
            self.lon = lon
            self.alarms = alarms
        }
    }

    /// Traccar's alarm events over the positions in the order they came: (alarm, position).
    public static func events(_ positions: [Position]) -> [(alarm: String, at: Position)] {
        var latest: Position?
        var events: [(alarm: String, at: Position)] = []
        for p in positions {
            var alarms = p.alarms
            if let latest { alarms.subtract(latest.alarms) }
            events += alarms.sorted().map { ($0, p) }
            if latest.map({ p.time >= $0.time }) ?? true { latest = p }
        }
        return events
    }
}
