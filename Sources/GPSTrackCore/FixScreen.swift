#if canImport(Glibc)
import Glibc
#endif

/// Steps 1-4 of the pipeline: validity, accuracy, time order and plausibility. Keeps the last
/// accepted fix as the reference for the next one.
///
/// A receiver can also be right while the reference is wrong (the first fix was an outlier,
/// or the clock stepped back). So that one bad reference cannot lock the tracker out, a run of
/// `recoveryRun` rejected fixes that agree with each other (increasing times, plausible hops
/// between them) is accepted as a *discontinuity*: the reference moves to the newest of them
/// and the jump itself is not counted as travel.
public struct FixScreen: Sendable {
    /// What the screen decided about a fix.
    public enum Verdict: Sendable, Equatable {
        case rejected(RejectReason)
        /// Accepted.
        case accepted
        /// Accepted after a run of rejections: a new reference. `reachM` is how far the
        /// receiver could have moved over the run, judged by the run's own times and speeds.
        case discontinuity(reachM: Double)
    }

    /// Fixes in a consistent run of rejections needed to move the reference.
    public static let recoveryRun = 3
    /// Acceleration allowed on top of the reported velocities when judging a jump, m/s².
    static let maxAccelerationMps2 = 5.0
    /// What a hop may differ from the motion the velocities predict, before error growth.
    /// Consecutive fixes err alike (the error wanders slowly), so this is far below eph.
    static let jumpSlackM = 15.0
    /// Share of the two fixes' error estimates that a jump may add as time passes between
    /// them (the errors decorrelate over about `errorDecorrelationS`).
    static let jumpErrorShare = 0.5
    static let errorDecorrelationS = 30.0
    /// Times before this (1999-08-22, GPS week rollover 1) are taken as no time at all.
    static let earliestTime = 935_280_000.0
    /// Times from 2100 on are taken as no time (a corrupt date, not a rollover guess).
    static let latestTime = 4_102_444_800.0

    /// The three figures of the configuration it judges by (`max_horizontal_error_m`, the
    /// error assumed when a receiver gives none, `max_speed_mps`): the whole configuration
    /// held here was copied with the screen on every fix.
    let limits: Limits
    struct Limits {
        let maxHorizontalErrorM: Double
        let assumedErrorM: Double
        let maxSpeedMps: Double
    }
    /// The last accepted fix: the reference for time order and plausibility.
    public private(set) var reference: Fix?
    /// The accepted fix before the reference: with it, a receiver that reports no speed still
    /// has a velocity (from the two positions) to judge a jump by.
    private var previous: Fix?
    private var candidates: [Fix] = []

    public init(config: TrackerConfig) {
        limits = Limits(
            maxHorizontalErrorM: config.maxHorizontalErrorM, assumedErrorM: config.assumedErrorM,
            maxSpeedMps: config.maxSpeedMps)
    }

    /// Forgets the reference (the next valid, accurate fix is accepted as it is).
    public mutating func clearReference() {
        reference = nil
        previous = nil
        candidates = []
    }

    /// Judges one fix and, when it is accepted, makes it the reference.
    public mutating func screen(_ fix: Fix) -> Verdict {
        if let reason = Self.invalidity(of: fix, maxHorizontalErrorM: limits.maxHorizontalErrorM) {
            return .rejected(reason)
        }
        guard let ref = reference else {
            reference = fix
            return .accepted
        }
        if let reason = rejection(of: fix, against: ref, before: previous) {
            if reason == .duplicate { return .rejected(reason) }
            if let last = candidates.last, rejection(of: fix, against: last) == nil {
                candidates.append(fix)
            } else {
                candidates = [fix]
            }
            if candidates.count >= Self.recoveryRun {
                let span = (fix.time ?? 0) - (candidates.first?.time ?? 0)
                let vmax = candidates.map(\.speed).filter { $0.isFinite && $0 >= 0 }.max() ?? 0
                let reach = (vmax + Self.maxAccelerationMps2) * (span + 1) + Self.jumpSlackM
                reference = fix
                previous = nil
                candidates = []
                return .discontinuity(reachM: reach)
            }
            return .rejected(reason)
        }
        // Moved, not copied: the reference becomes the one before it.
        swap(&previous, &reference)
        reference = fix
        if !candidates.isEmpty { candidates = [] }
        return .accepted
    }

    /// Steps 1 and 2, which need no reference.
    static func invalidity(of fix: Fix, maxHorizontalErrorM: Double) -> RejectReason? {
        if fix.mode < 2 || fix.mode > 3 { return .noFix }
        guard let t = fix.time, t.isFinite, t >= earliestTime, t < latestTime else { return .noTime }
        let c = fix.coordinate
        if !c.isValid || (c.latitude == 0 && c.longitude == 0) { return .invalidPosition }
        if let err = fix.horizontalError, err < 0 || err > maxHorizontalErrorM { return .lowAccuracy }
        return nil
    }

    /// How far the hop from `ref` to `fix` lies from what their reported velocities predict:
    /// the mean velocity vector times `dt` when both give speed and track, else the difference
    /// of the hop length from the larger speed's reach; nil when neither reports a speed.
    static func residual(from ref: Fix, to fix: Fix, hop: Geodesic.Inverse, dt: Double) -> Double? {
        let d = hop.distance
        if let v0 = ref.velocity, let v1 = fix.velocity {
            let rad = hop.azimuth1 * Double.pi / 180
            let de = d * sin(rad) - (v0.0 + v1.0) / 2 * dt
            let dn = d * cos(rad) - (v0.1 + v1.1) / 2 * dt
            return (de * de + dn * dn).squareRoot()
        }
        let speeds = [ref.speed, fix.speed].filter { $0.isFinite && $0 >= 0 }
        guard let v = speeds.max() else { return nil }
        return max(0, d - v * dt)
    }

    /// With no speed from either fix, the hop's distance from what the velocity between the
    /// reference and the fix before it predicts (a few seconds apart at most); nil otherwise.
    static func derivedResidual(from ref: Fix, before: Fix?, to fix: Fix, hop: Geodesic.Inverse, dt: Double) -> Double?
    {
        guard let before, let t0 = before.time, let t1 = ref.time, t1 > t0, t1 - t0 <= 5, dt <= 5 else { return nil }
        let back = Geodesic.shortInverse(before.coordinate, ref.coordinate)
        let k = dt / (t1 - t0)
        let rb = back.azimuth2 * Double.pi / 180
        let rh = hop.azimuth1 * Double.pi / 180
        let de = hop.distance * sin(rh) - k * back.distance * sin(rb)
        let dn = hop.distance * cos(rh) - k * back.distance * cos(rb)
        return (de * de + dn * dn).squareRoot()
    }

    /// Steps 3 and 4 against a reference fix (and the one before it, if known).
    func rejection(of fix: Fix, against ref: Fix, before: Fix? = nil) -> RejectReason? {
        let t = fix.time ?? 0
        let t0 = ref.time ?? 0
        if t == t0 { return .duplicate }
        if t < t0 { return .outOfOrder }
        let dt = t - t0
        let hop = Geodesic.shortInverse(ref.coordinate, fix.coordinate)
        let d = hop.distance
        let margin = (ref.horizontalError ?? limits.assumedErrorM) + (fix.horizontalError ?? limits.assumedErrorM)
        if (d - margin) / dt > limits.maxSpeedMps { return .implausibleSpeed }
        if let residual = Self.residual(from: ref, to: fix, hop: hop, dt: dt)
            ?? Self.derivedResidual(from: ref, before: before, to: fix, hop: hop, dt: dt)
        {
            let allowed =
                Self.jumpSlackM + Self.maxAccelerationMps2 * dt * dt / 2
                + Self.jumpErrorShare * margin * min(1, dt / Self.errorDecorrelationS)
            if residual > allowed { return .outlierJump }
        }
        return nil
    }
}
