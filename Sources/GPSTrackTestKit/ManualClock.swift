import Synchronization

/// A monotonic clock that moves only when told: in-process tests of rate limits and intervals
/// take no time and cannot be slowed into another outcome by a loaded machine.
public final class ManualClock: Sendable {
    private let seconds = Mutex(1_000.0)

    public init() {}

    /// The time now, in seconds.
    public var now: Double { seconds.withLock { $0 } }

    /// Moves the clock on by `s` seconds.
    public func advance(_ s: Double) { seconds.withLock { $0 += s } }
}
