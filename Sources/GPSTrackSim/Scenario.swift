import GPSTrackCore
import GPSTrackProtocol

/// The true motion of a simulated receiver: a speed and heading for each second.
public struct Scenario: Sendable {
    /// One second of true motion.
    public struct Step: Sendable {
        public var speed: Double
        public var heading: Double
        /// How much the receiver's slow wander is magnified this second (a poor sky view).
        public var wanderScale: Double

        public init(speed: Double, heading: Double, wanderScale: Double = 1) {
            self.speed = speed
            self.heading = heading
            self.wanderScale = wanderScale
        }
    }

    public var name: String
    public var start: Coordinate
    public var steps: [Step]

    public init(name: String, start: Coordinate, steps: [Step]) {
        self.name = name
        self.start = start
        self.steps = steps
    }

    /// A walk of `lengthM` metres at `speed` m/s, turning every 80-250 m.
    public static func walk(lengthM: Double = 2000, speed: Double = 1.4, rng: inout SeededRandom) -> Scenario {
        var steps: [Step] = []
        var heading = rng.uniform(0...360)
        var covered = 0.0
        var nextTurn = rng.uniform(80...250)
        while covered < lengthM {
            let v = min(speed, lengthM - covered)
            steps.append(Step(speed: v, heading: heading))
            covered += v
            if covered >= nextTurn {
                heading += rng.uniform(30...100) * (rng.unit() < 0.5 ? -1 : 1)
                nextTurn = covered + rng.uniform(80...250)
            }
        }
        return Scenario(name: "walk", start: Coordinate(latitude: 48.8566, longitude: 2.3522), steps: steps)
    }

    /// A drive of `lengthM` metres through town and on faster roads, with stops at traffic
    /// lights every 0.6-1.6 km (`lightsS`, 20-70 s) and gentle curves; it ends standing. With
    /// `noShortLastSegment`, a last stretch under 300 m joins the one before (so the drive does
    /// not end with a light a few metres before its destination).
    public static func drive(
        lengthM: Double = 14000, lightsS: ClosedRange<Double> = 20...70,
        noShortLastSegment: Bool = false, rng: inout SeededRandom
    ) -> Scenario {
        var steps: [Step] = []
        var heading = rng.uniform(0...360)
        var covered = 0.0
        var v = 0.0
        while covered < lengthM {
            var segment = min(rng.uniform(600...1600), lengthM - covered)
            if noShortLastSegment, lengthM - covered - segment < 300 { segment = lengthM - covered }
            let cruise = rng.unit() < 0.3 ? rng.uniform(20...27) : rng.uniform(11...15)
            let turnRate = rng.uniform(-1.5...1.5)
            var along = 0.0
            while along < segment {
                let remaining = segment - along
                let brakeDistance = v * v / (2 * 2.5)
                if remaining <= brakeDistance + v {
                    v = max(min(v - 2.5, remaining), 0.5)
                } else {
                    v = min(v + 2.0, cruise)
                }
                let step = min(v, remaining)
                steps.append(Step(speed: step, heading: heading))
                along += step
                heading += turnRate
            }
            covered += segment
            v = 0
            for _ in 0..<Int(rng.uniform(lightsS)) { steps.append(Step(speed: 0, heading: heading)) }
            heading += [0, 90, -90][Int(rng.unit() * 3)]
        }
        return Scenario(name: "drive", start: Coordinate(latitude: 52.52, longitude: 13.405), steps: steps)
    }

    /// `seconds` of driving round a circle of `radiusM` about `center` at `speed` m/s, stopping
    /// for 30 s every 1.5 km: a long trace that stays in one area.
    public static func circuit(center: Coordinate, radiusM: Double, speed: Double = 14, seconds: Int) -> Scenario {
        let start = Geodesic.destination(from: center, azimuth: 270, distance: radiusM)
        var steps: [Step] = []
        var heading = 0.0
        var along = 0.0
        while steps.count < seconds {
            if along >= 1500 {
                for _ in 0..<30 where steps.count < seconds { steps.append(Step(speed: 0, heading: heading)) }
                along = 0
                continue
            }
            steps.append(Step(speed: speed, heading: heading))
            along += speed
            heading += speed / radiusM * 180 / .pi
        }
        return Scenario(name: "circuit", start: start, steps: steps)
    }

    /// A receiver parked for `seconds`.
    public static func parked(seconds: Int = 1800) -> Scenario {
        Scenario(
            name: "parked", start: Coordinate(latitude: 59.3293, longitude: 18.0686),
            steps: Array(repeating: Step(speed: 0, heading: 0), count: seconds))
    }
}
