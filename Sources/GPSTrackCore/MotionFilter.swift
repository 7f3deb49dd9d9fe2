#if canImport(Glibc)
import Glibc
#endif

/// Steps 5 and 6 of the pipeline: the distance filter and stationary suppression. Decides
/// which accepted fixes are delivered to the odometer.
///
/// The rule, per accepted fix at distance `d` from the last delivered position:
/// - moving (reported speed at or above `stationary_speed_mps`) and the hop backed by the
///   velocities reported since the last delivery (see below): delivered when
///   `d >= distance_filter_m`, like CoreLocation's `distanceFilter`;
/// - otherwise (standing still, no speed reported, or a hop the reported velocities do not
///   explain, which is how a receiver with a poor sky view jitters while its Doppler speed
///   claims it creeps along in a new direction every few seconds): delivered only when `d`
///   also exceeds the creep distance, `max(creep_distance_m, creep_error_factor × error)`, so
///   that a parked receiver's wander adds nothing while slow real movement is still counted,
///   late but whole (the hop from the last delivered position).
///
/// A hop is backed when it lies within one distance filter of the displacement that the
/// reported velocities integrate to since the last delivery (speed and track, trapezoidal;
/// with speed alone or across a gap of over 10 s, within one filter beyond the path length
/// the speeds allow; with no speed or across a clock step, always). Real
/// movement integrates to its own chord; jitter in random directions does not. The allowance
/// is for the change of the receiver's error between the two fixes, far smaller than eph for
/// a healthy receiver because its error drifts slowly.
public struct MotionFilter: Sendable {
    public let config: TrackerConfig
    /// The last delivered position, nil before the first delivery.
    public private(set) var lastDelivered: Coordinate?
    /// How far a backed hop may lie from the displacement the velocities predict: the change
    /// of a healthy receiver's error over seconds, plus the error of integrating its Doppler.
    public static let slackM = 5.0
    /// The last fix offered, for integrating the reported velocities.
    private var previous: Fix?
    /// What the reported velocities say about the way since the last delivery.
    private var predicted = Prediction()
    /// The held fixes of a receiver without speed, for a creep delivery's way.
    private var held = HeldPath()
    /// The cosine of the latitude for the quick hop bound, kept while the fixes stay near it.
    private var band = Geodesic.BandCosine()

    public init(config: TrackerConfig) {
        self.config = config
    }

    /// Carries on from a stored last delivered position (the way since is not known).
    public mutating func restore(lastDelivered: Coordinate?) {
        self.lastDelivered = lastDelivered
        previous = nil
        predicted = Prediction(known: .nothing)
        held.clear()
    }

    /// Forgets the last delivered position: the next fix is delivered as a new start.
    public mutating func reset() {
        lastDelivered = nil
        previous = nil
        predicted = Prediction(known: .nothing)
        held.clear()
    }

    /// Returns the hop length in metres when the fix is delivered, nil when it is held back.
    /// The first fix after a reset is delivered with a hop of 0.
    public mutating func offer(_ fix: Fix) -> Double? {
        if let previous { predicted.integrate(from: previous, to: fix) }
        previous = fix
        let position = fix.coordinate
        guard let last = lastDelivered else {
            deliver(fix)
            return 0
        }
        let moving = claimsMotion(fix)
        let floor = moving ? config.distanceFilterM : creepThreshold(for: fix)
        // Most fixes are held back: skip the geodesic when it is certainly too short.
        if Geodesic.closeUpperBound(last, position, band: &band) < floor { return hold(fix) }
        let hop = Geodesic.shortInverse(last, position)
        let d = hop.distance
        guard d >= floor else { return hold(fix) }
        if moving, !predicted.backs(hop, slack: Self.slackM), d < creepThreshold(for: fix) { return hold(fix) }
        // Without a speed, the way went through the held fixes: count its corners.
        let way =
            fix.speed.isFinite ? d : held.length(from: last, to: position, chord: d, tolerance: config.distanceFilterM)
        deliver(fix)
        return way
    }

    /// The feed ends (or stops, or the fix is lost): resolves the fixes held since the last
    /// delivery by delivering the last one offered, when it is movement: a receiver that
    /// claims motion with its velocities backing the hop, or one without speed that has been
    /// seen to move (`moved`) and whose held fixes recede from the last delivery. Returns the way to it, nil when it stays held.
    public mutating func settle(moved: Bool) -> Double? {
        guard let fix = previous, let last = lastDelivered, holdsMovement(moved: moved) else { return nil }
        let hop = Geodesic.shortInverse(last, fix.coordinate)
        let way =
            fix.speed.isFinite
            ? hop.distance
            : held.length(from: last, to: fix.coordinate, chord: hop.distance, tolerance: config.distanceFilterM)
        deliver(fix)
        return way
    }

    /// Whether the fixes held since the last delivery are no movement, so that the trip
    /// detector's settle (a fix lost, the feed's end) counts nothing of them: with a speed, it
    /// says the receiver stands at the last fix (0, or frozen there while a poor sky makes its
    /// positions wander) or its velocities do not back the hop; without one, the held fixes do
    /// not recede towards the last (a standing receiver's wander ends anywhere). Short ways
    /// count: the trip detector has its own rule for what moved.
    public var heldWayDisowned: Bool {
        guard let fix = previous, let last = lastDelivered else { return false }
        if fix.speed.isFinite { return !holdsMovement(moved: true) }
        return !held.recedes(from: last, to: fix.coordinate, minimum: 0, slack: Self.slackM)
    }

    /// Whether the fixes held since the last delivery are movement (`settle(moved:)`'s rule):
    /// a receiver with speed must claim motion at the last fix with its velocities backing the
    /// hop; one without speed must have moved and its held fixes recede.
    public func holdsMovement(moved: Bool) -> Bool {
        guard let fix = previous, let last = lastDelivered else { return false }
        let hop = Geodesic.shortInverse(last, fix.coordinate)
        guard hop.distance > 0 else { return false }
        if fix.speed.isFinite { return claimsMotion(fix) && predicted.backs(hop, slack: Self.slackM) }
        return moved
            && held.recedes(from: last, to: fix.coordinate, minimum: config.distanceFilterM, slack: Self.slackM)
    }

    /// The last fix offered becomes the last delivered (the trip detector resolved the way).
    public mutating func deliverLast() {
        if let previous { deliver(previous) }
    }

    /// Keeps a held fix of a receiver without speed (only those are ever used).
    private mutating func hold(_ fix: Fix) -> Double? {
        if fix.speed.isFinite { held.clear() } else { held.hold(fix.coordinate) }
        return nil
    }

    private func claimsMotion(_ fix: Fix) -> Bool {
        fix.speed.isFinite && fix.speed >= config.stationarySpeedMps
    }

    private func creepThreshold(for fix: Fix) -> Double {
        let error = fix.horizontalError ?? config.assumedErrorM
        return max(config.distanceFilterM, config.creepDistanceM, config.creepErrorFactor * error)
    }

    private mutating func deliver(_ fix: Fix) {
        lastDelivered = fix.coordinate
        predicted = Prediction()
        held.clear()
    }

    /// The reported velocities, integrated since the last delivery.
    struct Prediction: Sendable {
        enum Known: Sendable {
            /// Speed and track throughout: a displacement vector.
            case vector
            /// Speed alone somewhere: only the path length.
            case path
            /// A stretch without speed, or no previous fix: no bound.
            case nothing
        }

        var known = Known.vector
        var east = 0.0, north = 0.0, path = 0.0

        /// Over a longer stretch between two fixes the velocities say little about the way.
        static let longestStretchS = 10.0

        /// Adds the stretch between two consecutive accepted fixes (trapezoidal). A stretch
        /// longer than `longestStretchS`, or one without courses, bounds only the path (at the
        /// larger of the two speeds); one without speeds, or across a clock step, leaves the
        /// way unknown.
        mutating func integrate(from a: Fix, to b: Fix) {
            guard let t0 = a.time, let t1 = b.time, t1 > t0,
                a.speed.isFinite, b.speed.isFinite, a.speed >= 0, b.speed >= 0
            else {
                known = .nothing
                return
            }
            let dt = t1 - t0
            guard dt <= Self.longestStretchS, let va = a.velocity, let vb = b.velocity else {
                path += max(a.speed, b.speed) * dt
                if known == .vector { known = .path }
                return
            }
            path += (a.speed + b.speed) / 2 * dt
            east += (va.east + vb.east) / 2 * dt
            north += (va.north + vb.north) / 2 * dt
        }

        /// Whether `hop` lies within `slack` of what the velocities predict.
        func backs(_ hop: Geodesic.Inverse, slack: Double) -> Bool {
            switch known {
            case .nothing:
                return true
            case .path:
                return hop.distance <= path + slack
            case .vector:
                let rad = hop.azimuth1 * Double.pi / 180
                let de = hop.distance * sin(rad) - east
                let dn = hop.distance * cos(rad) - north
                return (de * de + dn * dn).squareRoot() <= slack
            }
        }
    }
}
