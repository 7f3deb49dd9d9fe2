/// Something the tracker reports as it happens.
public enum TrackerEvent: Sendable {
    /// A trip began: in `manual` mode at its first accepted fix (no id); in `auto` mode at the
    /// departure from a stop, reported once the movement qualified as a trip.
    case tripStart(trip: Int?, time: Double, at: Coordinate)
    /// An automatic trip ended (the receiver settled at a stop, a gap, or `stop`).
    case tripEnd(TripFigures)
    /// The trip's figures were frozen.
    case tripStop(time: Double?, traveledM: Double)
    /// The reference moved after a run of consistent rejections (time stepped back, or the
    /// earlier position was the outlier). `counted` tells whether the hop to the new position
    /// was within reach and counted; a longer jump is not counted as travel.
    case discontinuity(time: Double, at: Coordinate, counted: Bool)

    /// The event's name as used in output (`trip_start`, ...).
    public var name: String {
        switch self {
        case .tripStart: "trip_start"
        case .tripEnd: "trip_end"
        case .tripStop: "trip_stop"
        case .discontinuity: "discontinuity"
        }
    }
}
