/// How much a trip counter's distance changed since it was last looked at: growth; a take-back
/// (negative) when the automatic trips' odometer gives back what it had counted of a wander that
/// proved a stop; nothing at a reset or a new trip (the counter begins anew, at another time).
/// The day's distance and the lifetime odometer both read the counter through it.
public struct TripGrowth: Sendable, Equatable {
    private var seen: Double?
    private var seenStart: Double?

    public init() {}

    /// The change since the last call, in metres.
    public mutating func change(_ trip: Trip) -> Double {
        let traveled = trip.traveledM
        defer { (seen, seenStart) = (traveled, trip.startedAt) }
        guard let seen, traveled >= seen || trip.startedAt == seenStart else { return 0 }
        return traveled - seen
    }
}
