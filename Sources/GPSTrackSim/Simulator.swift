import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Turns a scenario into the fixes a receiver with the given error model would report, one per
/// second, reproducibly for a seed.
public struct SimulatedTrace: Sendable {
    public var fixes: [Fix]
    /// The true path length, metres (the sum of the true one-second steps).
    public var truePathM: Double
    /// The true positions, one per second.
    public var truth: [Coordinate]
}

public enum Simulator {
    /// Simulates `scenario` starting at `startTime` (seconds since the Unix epoch).
    public static func run(
        _ scenario: Scenario, model: ReceiverModel = ReceiverModel(), seed: UInt64,
        startTime: Double = 1_773_475_200
    ) -> SimulatedTrace {
        var rng = SeededRandom(seed: seed)
        var position = scenario.start
        var truth: [Coordinate] = []
        var fixes: [Fix] = []
        var path = 0.0
        let a = exp(-1 / model.wanderTauS)
        let drive = model.wanderSigmaM * (1 - a * a).squareRoot()
        var wanderE = model.wanderSigmaM * rng.gaussian()
        var wanderN = model.wanderSigmaM * rng.gaussian()
        let ephNominal =
            2 * (model.wanderSigmaM * model.wanderSigmaM + model.whiteSigmaM * model.whiteSigmaM).squareRoot()
        for (i, step) in scenario.steps.enumerated() {
            let time = startTime + Double(i)
            truth.append(position)
            wanderE = a * wanderE + drive * rng.gaussian()
            wanderN = a * wanderN + drive * rng.gaussian()
            var e = step.wanderScale * wanderE + model.whiteSigmaM * rng.gaussian()
            var n = step.wanderScale * wanderN + model.whiteSigmaM * rng.gaussian()
            var eph = ephNominal * max(1, step.wanderScale) * rng.uniform(0.8...1.2)
            let roll = rng.unit()
            if roll < model.noFixProbability {
                fixes.append(Fix(mode: 1, time: time))
            } else {
                if roll < model.noFixProbability + model.honestJumpProbability {
                    let (je, jn) = jump(&rng, model)
                    e += je
                    n += jn
                    eph = rng.uniform(60...200)
                } else if roll < model.noFixProbability + model.honestJumpProbability + model.lyingJumpProbability {
                    let (je, jn) = jump(&rng, model)
                    e += je
                    n += jn
                }
                let reported = offset(position, east: e, north: n)
                let rad = step.heading * .pi / 180
                let ve = step.speed * sin(rad) + model.dopplerSigmaMps * rng.gaussian()
                let vn = step.speed * cos(rad) + model.dopplerSigmaMps * rng.gaussian()
                var track = atan2(ve, vn) * 180 / .pi
                if track < 0 { track += 360 }
                var fix = Fix(
                    mode: 3, time: time, latitude: reported.latitude, longitude: reported.longitude,
                    altitude: 35 + rng.gaussian(), eph: eph, epx: eph / 2.0.squareRoot(), epy: eph / 2.0.squareRoot(),
                    speed: model.reportsVelocity ? (ve * ve + vn * vn).squareRoot() : .nan,
                    track: model.reportsVelocity ? track : .nan, climb: 0.1 * rng.gaussian())
                fix.altitudeHAE = fix.altitude + NMEAWriter.geoidSeparationM
                if model.partialTPVs {
                    fixes.append(Fix(mode: 2, time: time, latitude: reported.latitude, longitude: reported.longitude))
                }
                fixes.append(fix)
            }
            if step.speed > 0 {
                position = Geodesic.destination(from: position, azimuth: step.heading, distance: step.speed)
                path += step.speed
            }
        }
        return SimulatedTrace(fixes: fixes, truePathM: path, truth: truth)
    }

    private static func jump(_ rng: inout SeededRandom, _ model: ReceiverModel) -> (Double, Double) {
        let size = rng.uniform(model.jumpRangeM)
        let angle = rng.uniform(0...(2 * .pi))
        return (size * sin(angle), size * cos(angle))
    }

    /// The point `east` and `north` metres from `c`.
    static func offset(_ c: Coordinate, east: Double, north: Double) -> Coordinate {
        let d = (east * east + north * north).squareRoot()
        guard d > 0 else { return c }
        return Geodesic.destination(from: c, azimuth: atan2(east, north) * 180 / .pi, distance: d)
    }
}
