/// The odometer's figures for one trip.
public struct Trip: Sendable {
    /// Whether the trip counts (`running`) or its figures are frozen (`stopped`).
    public enum State: String, Sendable { case running, stopped }

    public internal(set) var state: State = .running
    /// Time of the first accepted fix of the trip, seconds since the Unix epoch.
    public internal(set) var startedAt: Double?
    /// Where the straight line begins: the trip's first accepted fix, or where the receiver
    /// settled when it stood first, carried along by moves that were no travel (`StraightLine`).
    public internal(set) var start: Coordinate?
    /// Where the straight line ends: the position the odometer counted last (in `auto` mode a
    /// stop's settled place). `straightLineM` is the geodesic from `start` to here.
    public internal(set) var end: Coordinate?
    /// Sum of the geodesic hops between delivered positions, metres.
    public internal(set) var traveledM: Double = 0
    /// The geodesic from `start` to `end`, metres (`StraightLine`). Worked out
    /// when read (a trip's end, `status`, the store's batch), not on every fix: it was a
    /// twentieth of a replay's time.
    public var straightLineM: Double {
        if let stored { return stored }
        guard let start, let end else { return 0 }
        return Geodesic.distance(start, end)
    }
    /// A stored trip's straight line, until the odometer next moves its ends.
    private var stored: Double?
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
        stored = straightLineM
        self.lastDelivered = lastDelivered
        self.lastDeliveredTime = lastDeliveredTime
        self.deliveredCount = deliveredCount
        // The line from the stored start to the last delivery (a row of an earlier build, whose
        // line was longer than that, keeps its length: `start` is carried out along it).
        line = StraightLine(
            lengthM: min(straightLineM, traveledM), from: start, to: lastDelivered, moved: traveledM > 0)
        self.start = line.from
        end = line.to
    }

    /// Takes the straight line's figures and places from `line` (the odometer's own in
    /// `manual` mode, the trip detector's in `auto`).
    mutating func follow(_ line: StraightLine) {
        start = line.from
        end = line.to
        stored = nil
    }
}
