/// The pedometer's figures: steps from a hardware counter or the step detector, cadence, and
/// walking distance (steps times a stride learned from GPS distance while walking), since the
/// first start and for the current trip. Pure: times come from the caller (fix or source time).
public struct Pedometer: Sendable {
    /// What is kept across restarts.
    public struct Memory: Sendable, Equatable {
        public var total = 0
        public var distanceM = 0.0
        public var walkingS = 0.0
        public var tripSteps = 0
        public var tripDistanceM = 0.0
        public var tripWalkingS = 0.0
        /// The hardware counter's last reading, to count the steps taken while the daemon was down.
        public var lastCounter: Int?
        /// GPS distance and steps of the walks the stride was learned from.
        public var learnedDistanceM = 0.0
        public var learnedSteps = 0

        public init() {}
    }

    public private(set) var memory: Memory
    /// The stride used until one is learned, metres.
    public let defaultStrideM: Double
    /// Steps a stride must be learned from before it replaces the default.
    public static let minLearnedSteps = 50
    /// Seconds of history for the cadence.
    public static let cadenceWindowS = 60.0
    /// A counter advancing faster than this (steps/s, a sprint is 4), beyond `stepSlack`,
    /// is not believed.
    public static let maxStepRate = 10.0
    public static let stepSlack = 200.0

    private var recent: [(time: Double, steps: Int)] = []
    private var anchor: (time: Double, traveledM: Double, steps: Int)?
    /// The figures at each accepted fix of the last `historyS` seconds (fix time), so that a
    /// trip reported after its departure can take the steps since then.
    private var history: [(time: Double, total: Int, distanceM: Double, walkingS: Double)] = []
    public static let historyS = 1800.0
    private var lastCounterTime: Double?

    public init(defaultStrideM: Double, memory: Memory = Memory()) {
        self.defaultStrideM = defaultStrideM
        self.memory = memory
    }

    /// The stride in use: learned once enough walking was seen, else the default.
    public var strideM: Double {
        memory.learnedSteps >= Self.minLearnedSteps
            ? memory.learnedDistanceM / Double(memory.learnedSteps) : defaultStrideM
    }

    /// Whether `strideM` was learned.
    public var strideLearned: Bool { memory.learnedSteps >= Self.minLearnedSteps }

    /// Steps per minute over the last `cadenceWindowS` seconds before `now` (0 standing still).
    public func cadence(at now: Double) -> Double {
        guard let first = recent.first(where: { now - $0.time <= Self.cadenceWindowS }), let last = recent.last,
            last.time > first.time
        else { return 0 }
        let span = max(now, last.time) - first.time
        return span > 0 ? Double(memory.total - first.steps) / span * 60 : 0
    }

    /// Average cadence of the trip's walking, steps per minute (nil without walking).
    public var tripCadence: Double? {
        memory.tripWalkingS > 0 ? Double(memory.tripSteps) / memory.tripWalkingS * 60 : nil
    }

    /// Steps found by the detector at `time` (over `walkingS` seconds of walking). Returns the steps added.
    @discardableResult
    public mutating func detected(_ steps: Int, walkingS: Double, at time: Double) -> Int {
        add(max(0, steps), walkingS: max(0, walkingS), at: time)
    }

    /// What a counter reading means.
    public enum Reading: Sendable, Equatable {
        /// Counted steps.
        case steps(Int)
        /// The first reading of a run with nothing stored: the baseline.
        case baseline
        /// The counter went back (the chip was reset): steps since the reset counted.
        case reset(Int)
        /// A jump no walker makes: taken as the new baseline, nothing counted.
        case implausible
    }

    /// A hardware counter's reading `raw` at `time`. A counter that goes back was reset: the
    /// steps since its reset count (those between the previous reading and the reset are
    /// unknowable, so polling often keeps them few). Steps taken while the daemon was down
    /// count when the stored reading is known.
    public mutating func counter(_ raw: Int, at time: Double) -> Reading {
        defer {
            memory.lastCounter = raw
            lastCounterTime = time
        }
        guard raw >= 0 else { return .implausible }
        guard let last = memory.lastCounter else {
            add(0, walkingS: 0, at: time)
            return .baseline
        }
        let elapsed = lastCounterTime.map { time - $0 }
        let walking = { (n: Int) -> Double in
            guard n > 0, let e = elapsed, e > 0, e <= 5 else { return 0 }
            return e
        }
        if raw >= last {
            let n = raw - last
            // While the daemon ran, a counter cannot outrun a sprinter; across a restart the
            // time away is unknown, so any advance counts.
            if let e = elapsed, Double(n) > Self.maxStepRate * max(e, 1) + Self.stepSlack { return .implausible }
            add(n, walkingS: walking(n), at: time)
            return .steps(n)
        }
        if let e = elapsed, Double(raw) > Self.maxStepRate * max(e, 1) + Self.stepSlack { return .implausible }
        add(raw, walkingS: walking(raw), at: time)
        return .reset(raw)
    }

    @discardableResult
    private mutating func add(_ n: Int, walkingS: Double, at time: Double) -> Int {
        let metres = Double(n) * strideM
        memory.total += n
        memory.tripSteps += n
        memory.distanceM += metres
        memory.tripDistanceM += metres
        memory.walkingS += walkingS
        memory.tripWalkingS += walkingS
        recent.append((time, memory.total))
        if let cut = recent.firstIndex(where: { time - $0.time <= Self.cadenceWindowS }), cut > 0 {
            recent.removeFirst(cut - 1)
        }
        return n
    }

    /// The trip's GPS odometer at an accepted fix: over each 30 s or more, if the steps and the
    /// distance both look like walking, the stride is learned from them.
    public mutating func observeOdometer(traveledM: Double, at time: Double) {
        if let last = history.last, time < last.time { history.removeAll() }  // the clock went back
        history.append((time, memory.total, memory.distanceM, memory.walkingS))
        if let cut = history.firstIndex(where: { time - $0.time <= Self.historyS }), cut > 0 {
            history.removeFirst(cut)
        }
        guard let a = anchor, traveledM >= a.traveledM, time > a.time, memory.total >= a.steps else {
            anchor = (time, traveledM, memory.total)
            return
        }
        let dt = time - a.time
        guard dt >= 30 else { return }
        let steps = memory.total - a.steps
        let metres = traveledM - a.traveledM
        anchor = (time, traveledM, memory.total)
        guard steps >= 20 else { return }
        let cadence = Double(steps) / dt * 60
        let speed = metres / dt
        let stride = metres / Double(steps)
        guard (50...200).contains(cadence), (0.4...4.5).contains(speed), (0.3...2.0).contains(stride) else { return }
        memory.learnedDistanceM += metres
        memory.learnedSteps += steps
    }

    /// A new trip: its figures start from zero, or, for a trip that began at `time` (fix time,
    /// reported later), from the steps counted since the last fix at or before then.
    public mutating func startTrip(since time: Double? = nil) {
        memory.tripSteps = 0
        memory.tripDistanceM = 0
        memory.tripWalkingS = 0
        guard let time, let then = history.last(where: { $0.time <= time }) else { return }
        memory.tripSteps = memory.total - then.total
        memory.tripDistanceM = memory.distanceM - then.distanceM
        memory.tripWalkingS = memory.walkingS - then.walkingS
    }
}
