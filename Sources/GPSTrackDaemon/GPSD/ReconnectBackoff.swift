/// The waits between connection attempts to gpsd: 0.5 s, doubling up to a cap, and 0.5 s again
/// once gpsd reports a fix. A value of its own, so that the policy is tested without a clock
/// (ReconnectBackoffTests); GPSDSource does the waiting.
struct ReconnectBackoff: Sendable {
    /// The first wait, and the wait after gpsd has reported again.
    static let first = 0.5
    /// The longest wait.
    let cap: Double
    private var next = ReconnectBackoff.first

    init(cap: Double) { self.cap = cap }

    /// The wait before the next attempt; the one after it is twice as long, up to `cap`.
    mutating func take() -> Double {
        defer { next = min(next * 2, cap) }
        return next
    }

    /// gpsd has reported: the next outage starts again from the first wait.
    mutating func reset() { next = Self.first }
}
