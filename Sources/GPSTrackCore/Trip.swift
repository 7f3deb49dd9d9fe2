/// The odometer's figures for one trip.
public struct Trip: Sendable {
    /// Whether the trip counts (`running`) or its figures are frozen (`stopped`).
    public enum State: String, Sendable { case running, stopped }

    public internal(set) var state: State = .running
    /// Time of the first accepted fix of the trip, seconds since the Unix epoch.
    public internal(set) var startedAt: Double?
    /// Position of the first accepted fix of the trip.
    public internal(set) var start: Coordinate?
    /// Sum of the geodesic hops between delivered positions, metres.
    public internal(set) var traveledM: Double = 0
    /// Geodesic distance from the start point to the latest delivered position, metres.
    public internal(set) var straightLineM: Double = 0
    /// The latest delivered position.
    public internal(set) var lastDelivered: Coordinate?
    /// Time of the latest delivered position.
    public internal(set) var lastDeliveredTime: Double?
    /// The last fix accepted while the trip ran.
    public internal(set) var lastFix: Fix?
    /// How many positions were delivered to the odometer.
    public internal(set) var deliveredCount = 0
    /// The straight line's stretches (`trip_mode = manual`; `auto` keeps its own).
    var line = StraightLine()

    public init() {}

    /// A trip as it was stored: the odometer carries on from here.
    public init(
        state: State, startedAt: Double?, start: Coordinate?, traveledM: Double, straightLineM: Double,
        lastDelivered: Coordinate?, lastDeliveredTime: Double?, deliveredCount: Int
    ) {
        self.state = state
        self.startedAt = startedAt
        self.start = start
        self.traveledM = traveledM
        self.straightLineM = straightLineM
        self.lastDelivered = lastDelivered
        self.lastDeliveredTime = lastDeliveredTime
        self.deliveredCount = deliveredCount
        // The stretches are not stored: one from the start, carrying what jumps had added
        // (never more than the stored traveled distance allows).
        let open = start.flatMap { s in lastDelivered.map { Geodesic.distance(s, $0) } } ?? 0
        line = StraightLine(closedM: max(0, straightLineM - open), from: start, to: lastDelivered, moved: traveledM > 0)
    }
}
