/// How a simulated receiver errs. Defaults: a correlated wander of about 3 m (a first-order
/// Gauss-Markov process per axis), white noise of about 1 m, 1.5 % no-fix epochs, 1 %
/// multipath jumps that admit a large eph, and 0.15 % jumps that do not.
public struct ReceiverModel: Sendable {
    /// Standard deviation of the correlated wander per axis, metres.
    public var wanderSigmaM = 3.0
    /// Correlation time of the wander, seconds.
    public var wanderTauS = 60.0
    /// Standard deviation of the white noise per axis, metres.
    public var whiteSigmaM = 1.0
    /// Probability of an epoch with no fix (mode 1).
    public var noFixProbability = 0.015
    /// Probability of a multipath jump reported with a large eph (60-200 m).
    public var honestJumpProbability = 0.01
    /// Probability of a jump reported with an ordinary eph.
    public var lyingJumpProbability = 0.0015
    /// Size of jumps, metres.
    public var jumpRangeM: ClosedRange<Double> = 20...80
    /// Doppler speed noise per axis, m/s.
    public var dopplerSigmaMps = 0.1
    /// Emit a partial 2D TPV without error estimates before each complete one, as gpsd 3.22
    /// does when sentences arrive one by one.
    public var partialTPVs = false
    /// Whether the receiver reports speed and course (many GGA-only receivers do not).
    public var reportsVelocity = true

    public init() {}
}
