/// The one retry policy: the waits between attempts, doubling from `first` up to `cap`, and
/// from `first` again once the other side has answered. gpsd's connection uses it without
/// jitter (0.5 s doubling to its cap); every uplink transport (MQTT and HTTP) uses `transport`:
/// 1 s doubling to 60 s, each wait drawn between its half and its whole, so that a fleet back
/// from a broker's outage does not knock all at once, and a server back after a long outage
/// hears again within 60 s. A value of its own, so that the policy is tested without a clock
/// (ReconnectBackoffTests); the callers do the waiting.
struct ReconnectBackoff: Sendable {
    /// gpsd's first wait, and the wait after gpsd has reported again.
    static let first = 0.5
    /// The uplinks' policy (MQTT, Traccar, OwnTracks over HTTP, the webhook).
    static let transport = ReconnectBackoff(first: 1, cap: 60, jitter: true)
    /// The first wait, and the wait after an answer.
    let start: Double
    /// The longest wait.
    let cap: Double
    /// Whether a wait is drawn from its upper half (with the same cap).
    let jitter: Bool
    private var next: Double

    init(first: Double = ReconnectBackoff.first, cap: Double, jitter: Bool = false) {
        start = first
        self.cap = cap
        self.jitter = jitter
        next = first
    }

    /// The wait before the next attempt; the one after it is twice as long, up to `cap`.
    mutating func take() -> Double { take(drawn: Double.random(in: 0...1)) }

    /// `take`, the jitter's draw given: 0 takes the lowest wait (half), 1 the highest (whole).
    mutating func take(drawn: Double) -> Double {
        defer { next = min(next * 2, cap) }
        return jitter ? next * (0.5 + 0.5 * min(max(drawn, 0), 1)) : next
    }

    /// The other side answered: the next outage starts again from the first wait.
    mutating func reset() { next = start }
}
