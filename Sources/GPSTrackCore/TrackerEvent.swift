/// Something the tracker reports as it happens.
public enum TrackerEvent: Sendable {
    /// A trip began at its first accepted fix.
    case tripStart(time: Double, at: Coordinate)
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
        case .tripStop: "trip_stop"
        case .discontinuity: "discontinuity"
        }
    }
}
