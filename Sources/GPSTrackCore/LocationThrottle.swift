/// When a location report is due: at most every `minIntervalS` of fix time, and only after
/// moving `minDistanceM` from the last one sent, or after `heartbeatS` regardless (the
/// keep-alive while parked). The one rule of every outlet that reports positions (MQTT,
/// OwnTracks over HTTP, Traccar), each with its own keys.
public struct LocationThrottle: Sendable {
    public let minIntervalS: Double
    public let minDistanceM: Double
    public let heartbeatS: Double
    /// The last position sent, and its fix time.
    public private(set) var last: (time: Double, at: Coordinate)?

    public init(minIntervalS: Double, minDistanceM: Double, heartbeatS: Double) {
        self.minIntervalS = minIntervalS
        self.minDistanceM = minDistanceM
        self.heartbeatS = heartbeatS
    }

    /// Whether a location of the fix at `time`, `at` is due.
    public func due(time: Double, at: Coordinate) -> Bool {
        guard let last else { return true }
        let dt = time - last.time
        guard dt >= minIntervalS else { return false }
        return dt >= heartbeatS || Geodesic.shortDistance(last.at, at) >= minDistanceM
    }

    /// A position was sent (a location, or what carries one: a trip's end, an alarm): the
    /// intervals count from it.
    public mutating func sent(time: Double, at: Coordinate) { last = (time, at) }
}
