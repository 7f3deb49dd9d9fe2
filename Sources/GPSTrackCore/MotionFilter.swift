/// Steps 5 and 6 of the pipeline: the distance filter and stationary suppression. Decides
/// which accepted fixes are delivered to the odometer.
///
/// The rule, per accepted fix at distance `d` from the last delivered position:
/// - moving (reported speed at or above `stationary_speed_mps`): delivered when
///   `d >= distance_filter_m`, like CoreLocation's `distanceFilter`;
/// - standing still (reported speed below it) or no speed reported: delivered only when `d`
///   also exceeds the creep distance, `max(creep_distance_m, creep_error_factor × error)`,
///   so that a parked receiver's wander of several metres adds nothing while slow real
///   movement is still counted, late but whole (the hop from the last delivered position).
public struct MotionFilter: Sendable {
    public let config: TrackerConfig
    /// The last delivered position, nil before the first delivery.
    public private(set) var lastDelivered: Coordinate?

    public init(config: TrackerConfig) {
        self.config = config
    }

    /// Carries on from a stored last delivered position.
    public mutating func restore(lastDelivered: Coordinate?) {
        self.lastDelivered = lastDelivered
    }

    /// Forgets the last delivered position: the next fix is delivered as a new start.
    public mutating func reset() {
        lastDelivered = nil
    }

    /// Returns the hop length in metres when the fix is delivered, nil when it is held back.
    /// The first fix after a reset is delivered with a hop of 0.
    public mutating func offer(_ fix: Fix) -> Double? {
        let position = fix.coordinate
        guard let last = lastDelivered else {
            lastDelivered = position
            return 0
        }
        let needed = threshold(for: fix)
        // Most fixes are held back: skip the geodesic when it is certainly too short.
        if Geodesic.closeUpperBound(last, position) < needed { return nil }
        let d = Geodesic.distance(last, position)
        guard d >= needed else { return nil }
        lastDelivered = position
        return d
    }

    /// The distance a fix must lie from the last delivered position to be delivered.
    public func threshold(for fix: Fix) -> Double {
        if fix.speed.isFinite && fix.speed >= config.stationarySpeedMps {
            return config.distanceFilterM
        }
        let error = fix.horizontalError ?? config.assumedErrorM
        return max(config.distanceFilterM, config.creepDistanceM, config.creepErrorFactor * error)
    }
}
