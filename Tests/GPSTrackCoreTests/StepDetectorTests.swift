import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The step detector on seeded simulated recordings (seeds other than the ones it was tuned on).
@Suite struct StepDetectorTests {
    static let cadences: [Double] = [60, 80, 100, 120, 140, 160, 180]

    static func count(_ samples: [AccelSample], config: StepDetectorConfig = StepDetectorConfig()) -> StepDetector {
        var d = StepDetector(config: config)
        var confirmed = 0
        for s in samples { confirmed += d.ingest(s) }
        #expect(confirmed == d.steps)
        return d
    }

    @Test(arguments: Carry.allCases, cadences)
    func walksAndRunsWithinThreePercent(carry: Carry, cadence: Double) throws {
        let trace = AccelSimulator.walk(cadence: cadence, carry: carry, duration: 600, seed: 1000 + UInt64(cadence))
        let d = Self.count(trace.samples)
        let error = Double(d.steps - trace.trueSteps) / Double(trace.trueSteps)
        #expect(abs(error) <= 0.03, "\(carry) at \(cadence) spm: \(d.steps) steps, truly \(trace.trueSteps)")
        let cadenceFound = try #require(d.cadence)
        #expect(abs(cadenceFound / cadence - 1) <= 0.03, "cadence \(cadenceFound) vs \(cadence)")
        // The walking time is the sum of step intervals: one interval fewer than steps per bout.
        #expect(abs(d.walkingSeconds / trace.walkingSeconds - 1) <= 0.05)
    }

    /// 30 minutes of a ride must count under 1 % of what 30 minutes of the slowest walk
    /// (60 steps/min, 1,800 steps) would.
    @Test(arguments: Ride.allCases, [UInt64(21), 22])
    func ridesAndLyingStillCountAlmostNothing(ride: Ride, seed: UInt64) {
        let trace = AccelSimulator.ride(ride, duration: 1800, seed: seed)
        let d = Self.count(trace.samples)
        #expect(d.steps < 18, "\(ride): \(d.steps) steps in 30 min")
    }

    @Test func orientationDoesNotMatter() {
        let trace = AccelSimulator.walk(cadence: 110, carry: .hand, duration: 120, seed: 5)
        // The same recording with the axes permuted and one flipped: a rotation of the device.
        let turned = trace.samples.map { AccelSample(t: $0.t, x: $0.z, y: -$0.x, z: $0.y) }
        #expect(Self.count(turned).steps == Self.count(trace.samples).steps)
        #expect(Self.count(turned).steps > 150)
    }

    @Test func aShortShuffleIsNotAWalk() {
        // Five regular steps: fewer than a walk needs to be believed.
        let trace = AccelSimulator.walk(cadence: 100, carry: .pocket, duration: 3.2, seed: 9, pauses: false)
        #expect(trace.trueSteps == 5)
        #expect(Self.count(trace.samples).steps == 0)
    }

    @Test func hostileSamplesNeitherCountNorCrash() {
        let trace = AccelSimulator.walk(cadence: 120, carry: .pocket, duration: 120, seed: 6, pauses: false)
        let clean = Self.count(trace.samples).steps
        var hostile: [AccelSample] = []
        for (i, s) in trace.samples.enumerated() {
            hostile.append(s)
            if i % 97 == 0 { hostile.append(AccelSample(t: s.t, x: .nan, y: .infinity, z: 0)) }
            if i % 89 == 0 { hostile.append(AccelSample(t: s.t - 5, x: 1e6, y: 1e6, z: 1e6)) }  // back in time
            if i % 83 == 0 { hostile.append(s) }  // repeated
        }
        let d = Self.count(hostile)
        #expect(abs(d.steps - clean) <= 2, "\(d.steps) vs \(clean)")
    }

    @Test func aGapRestartsTheFiltersButKeepsTheCount() {
        let a = AccelSimulator.walk(cadence: 100, carry: .backpack, duration: 60, seed: 3, pauses: false)
        let b = a.samples.map { AccelSample(t: $0.t + 1000, x: $0.x, y: $0.y, z: $0.z) }
        let d = Self.count(a.samples + b)
        let one = Self.count(a.samples).steps
        #expect(one > 90)
        #expect(d.steps == 2 * one)
    }
}
