/// Counts of what happened to the fixes the tracker saw.
public struct FixCounters: Sendable, Equatable {
    /// Every fix (epoch) offered.
    public internal(set) var total = 0
    /// Fixes that passed validity, accuracy, time order and plausibility.
    public internal(set) var accepted = 0
    /// Accepted fixes delivered to the odometer.
    public internal(set) var delivered = 0
    /// Rejected fixes by reason.
    public internal(set) var rejected: [RejectReason: Int] = [:]
    /// The lifetime odometer: all the settled distance the trip counter added, across resets and
    /// restarts, in metres; it never goes down (a take-back is earned again before it grows).
    public internal(set) var odometerM = 0.0
    /// What the odometer would be with the take-backs subtracted (below or at `odometerM`).
    var odometerSettledM = 0.0
    var odometerGrowth = TripGrowth()

    public init() {}

    /// Counters carried on from a stored state (a restart continues them).
    public init(total: Int, accepted: Int, delivered: Int, rejected: [RejectReason: Int], odometerM: Double = 0) {
        self.total = total
        self.accepted = accepted
        self.delivered = delivered
        self.rejected = rejected
        self.odometerM = odometerM
        odometerSettledM = odometerM
    }

    /// Adds what the trip counter changed since the last look to the lifetime odometer.
    mutating func account(_ trip: Trip) {
        odometerSettledM = max(0, odometerSettledM + odometerGrowth.change(trip))
        odometerM = max(odometerM, odometerSettledM)
    }
}
