/// What one automatic trip came to, as `trip_end` reports it and the trips table keeps it.
public struct TripFigures: Sendable, Equatable {
    /// The trip's id: 1, 2, ... across restarts.
    public var id: Int
    /// Departure and arrival, seconds since the Unix epoch (fix time).
    public var start: Double
    public var end: Double
    /// Where the receiver left its stop, and where it settled at the end.
    public var from: Coordinate
    public var to: Coordinate
    /// Names (else ids) of the fences containing `from` and `to`; filled in by the session.
    public var fromFences: [String] = []
    public var toFences: [String] = []
    /// Distance traveled along the way, metres (the drift-free odometer).
    public var traveledM: Double
    /// Geodesic distance from `from` to `to`, metres.
    public var straightLineM: Double
    /// Seconds the receiver was seen moving.
    public var movingS: Double
    /// The highest speed seen, m/s (the receiver's Doppler speed, else derived from positions).
    public var maxSpeedMps: Double
    /// Seconds of the trip the ignition was on; nil without an ignition read (`input_ignition`).
    public var engineS: Double?

    public init(
        id: Int, start: Double, end: Double, from: Coordinate, to: Coordinate, traveledM: Double,
        straightLineM: Double, movingS: Double, maxSpeedMps: Double
    ) {
        self.id = id
        self.start = start
        self.end = end
        self.from = from
        self.to = to
        self.traveledM = traveledM
        self.straightLineM = straightLineM
        self.movingS = movingS
        self.maxSpeedMps = maxSpeedMps
    }

    /// Seconds from departure to arrival.
    public var durationS: Double { end - start }
    /// Traveled distance over the whole duration, m/s.
    public var avgSpeedMps: Double { durationS > 0 ? traveledM / durationS : 0 }
}

/// A stop: where the receiver stayed for at least `min_stop_s`.
public struct StopFigures: Sendable, Equatable {
    /// When the receiver arrived (fix time).
    public var arrival: Double
    /// When it left, nil while it is still there.
    public var departure: Double?
    /// Where it settled (the median of its fixes there).
    public var at: Coordinate
    /// The trip that ended here, if a trip did.
    public var afterTrip: Int?

    public init(arrival: Double, departure: Double?, at: Coordinate, afterTrip: Int?) {
        self.arrival = arrival
        self.departure = departure
        self.at = at
        self.afterTrip = afterTrip
    }
}
