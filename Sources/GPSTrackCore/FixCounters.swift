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

    public init() {}

    /// Counters carried on from a stored state (a restart continues them).
    public init(total: Int, accepted: Int, delivered: Int, rejected: [RejectReason: Int]) {
        self.total = total
        self.accepted = accepted
        self.delivered = delivered
        self.rejected = rejected
    }
}
