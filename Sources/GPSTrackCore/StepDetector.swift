#if canImport(Glibc)
import Glibc
#endif

/// One accelerometer sample: time in seconds and the specific force along the device's three
/// axes in m/s² (a device at rest reads 9.81 upwards, whatever its orientation).
public struct AccelSample: Sendable, Equatable {
    public var t: Double
    public var x: Double
    public var y: Double
    public var z: Double

    public init(t: Double, x: Double, y: Double, z: Double) {
        self.t = t
        self.x = x
        self.y = y
        self.z = z
    }
}

/// The step detector's tunables.
public struct StepDetectorConfig: Sendable, Equatable {
    /// A peak must rise at least this far above the gravity baseline (m/s²)...
    public var minPeak = 0.7
    /// ...and above this fraction of the recent peaks' height.
    public var relativePeak = 0.4
    /// Step intervals accepted when a walk begins, seconds (200 down to 48 steps/min).
    public var minInterval = 0.3
    public var maxInterval = 1.25
    /// Candidates in a regular row before a walk is believed (and all of them counted).
    public var confirmSteps = 8
    /// How far an interval may stray from the row's mean while a walk is being confirmed.
    public var regularity = 0.2

    public init() {}
}

/// Counts steps in accelerometer samples. Orientation does not matter: it works on the
/// magnitude of the specific force, less a slowly following gravity baseline, smoothed to the
/// step band. Each excursion above an adaptive threshold is a candidate step; candidates count
/// only once `confirmSteps` of them come at a regular walking rhythm (then all of them count,
/// so no step is lost to the confirmation), and go on counting while the rhythm holds. A
/// vehicle's vibration, a boat's swell and a device lying still rarely give such a row.
public struct StepDetector: Sendable {
    public let config: StepDetectorConfig
    /// Steps counted so far.
    public private(set) var steps = 0
    /// Seconds spent walking: the sum of the intervals between counted steps of one walk.
    public private(set) var walkingSeconds = 0.0
    /// Intervals summed in `walkingSeconds`.
    public private(set) var walkingIntervals = 0
    /// True while a walk is confirmed.
    public private(set) var walking = false

    private var lastT = -Double.infinity
    private var baseline = Double.nan
    private var smooth1 = 0.0
    private var smooth2 = 0.0
    private var peakAverage = 0.0
    /// The current excursion above the threshold: its highest value and when.
    private var excursion: (height: Double, t: Double)?
    private var pending: [Double] = []
    private var lastStep = -Double.infinity
    private var period = 0.0

    static let baselineTau = 1.0
    static let smoothTau = 0.035
    static let peakAverageTau = 4.0

    public init(config: StepDetectorConfig = StepDetectorConfig()) {
        self.config = config
        pending.reserveCapacity(16)
    }

    /// Cadence while walking, steps per minute (nil before any walk).
    public var cadence: Double? {
        walkingIntervals > 0 && walkingSeconds > 0 ? 60 * Double(walkingIntervals) / walkingSeconds : nil
    }

    /// Takes one sample; returns how many steps it confirmed (a walk's first steps are
    /// counted together, when the walk is confirmed). Samples that go back in time, are not
    /// finite, or follow a gap of more than a second restart the filters, never the count.
    public mutating func ingest(_ s: AccelSample) -> Int {
        guard s.t.isFinite, s.x.isFinite, s.y.isFinite, s.z.isFinite else { return 0 }
        let magnitude = (s.x * s.x + s.y * s.y + s.z * s.z).squareRoot()
        let dt = s.t - lastT
        guard dt > 0, dt <= 1 else {
            if dt <= 0 && lastT.isFinite { return 0 }  // a repeated or older sample
            restart(at: s.t, magnitude: magnitude)
            return 0
        }
        lastT = s.t
        baseline += (magnitude - baseline) * min(1, dt / Self.baselineTau)
        let k = min(1, dt / Self.smoothTau)
        smooth1 += (magnitude - baseline - smooth1) * k
        smooth2 += (smooth1 - smooth2) * k
        peakAverage -= peakAverage * min(1, dt / Self.peakAverageTau)
        var counted = 0
        if walking && s.t - lastStep > max(2 * period, config.maxInterval) {
            walking = false
            pending.removeAll(keepingCapacity: true)
        }
        let threshold = max(config.minPeak, config.relativePeak * peakAverage)
        let v = smooth2
        if let e = excursion {
            if v > e.height { excursion = (v, s.t) }
            if v < 0 {
                excursion = nil
                peakAverage += (e.height - peakAverage) * 0.3
                counted = candidate(at: e.t)
            }
        } else if v > threshold {
            excursion = (v, s.t)
        }
        return counted
    }

    private mutating func restart(at t: Double, magnitude: Double) {
        lastT = t
        baseline = magnitude
        smooth1 = 0
        smooth2 = 0
        excursion = nil
        walking = false
        pending.removeAll(keepingCapacity: true)
    }

    /// A peak at `t`: counts it if it continues a walk, or confirms one.
    private mutating func candidate(at t: Double) -> Int {
        if walking {
            let interval = t - lastStep
            if interval < 0.5 * period { return 0 }  // a second bump within one step
            if interval <= 1.5 * period {
                period += (interval - period) * 0.2
                walkingSeconds += interval
                walkingIntervals += 1
                lastStep = t
                steps += 1
                return 1
            }
            walking = false
            pending.removeAll(keepingCapacity: true)
        }
        if let last = pending.last {
            let interval = t - last
            if interval < config.minInterval { return 0 }
            if interval > config.maxInterval {
                pending.removeAll(keepingCapacity: true)
            } else if pending.count >= 2 {
                let mean = (last - pending[0]) / Double(pending.count - 1)
                if abs(interval / mean - 1) > config.regularity {
                    pending.removeFirst(pending.count - 1)
                }
            }
        }
        pending.append(t)
        guard pending.count >= config.confirmSteps else { return 0 }
        walking = true
        let n = pending.count
        period = (t - pending[0]) / Double(n - 1)
        walkingSeconds += t - pending[0]
        walkingIntervals += n - 1
        lastStep = t
        steps += n
        pending.removeAll(keepingCapacity: true)
        return n
    }
}
