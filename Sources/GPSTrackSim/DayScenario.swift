import GPSTrackCore
import GPSTrackProtocol

/// A seeded day for the trip detector: drive, 20 min parked, a walk, 2 h parked with a poor
/// sky view (the receiver wanders 5-30 m), a drive with traffic-light pauses of 60-120 s,
/// parked. `trips` says where each true trip starts and ends (indices into the steps, one a
/// second): from the first moving second to the second after the last one.
public struct DayScenario: Sendable {
    public enum Kind: String, Sendable { case drive, walk }

    /// One true trip.
    public struct Leg: Sendable {
        public var kind: Kind
        /// Index of the first second of movement.
        public var start: Int
        /// Index of the first second of the stop that follows.
        public var end: Int
    }

    public var scenario: Scenario
    public var trips: [Leg]

    public static func make(
        seed: UInt64, firstDriveM: Double = 6000, walkM: Double = 1500, secondDriveM: Double = 6000,
        shortPark: Int = 1200, longPark: Int = 7200, lastPark: Int = 900
    ) -> DayScenario {
        var rng = SeededRandom(seed: seed)
        var steps: [Scenario.Step] = []
        var trips: [Leg] = []
        func leg(_ kind: Kind, _ part: [Scenario.Step]) {
            let first = part.firstIndex { $0.speed > 0 } ?? 0
            let last = part.lastIndex { $0.speed > 0 } ?? 0
            trips.append(Leg(kind: kind, start: steps.count + first, end: steps.count + last + 1))
            steps += part
        }
        func park(_ seconds: Int, wander: Double = 1) {
            let heading = steps.last?.heading ?? 0
            steps += Array(repeating: Scenario.Step(speed: 0, heading: heading, wanderScale: wander), count: seconds)
        }
        park(180)
        leg(.drive, Scenario.drive(lengthM: firstDriveM, noShortLastSegment: true, rng: &rng).steps)
        park(shortPark)
        leg(.walk, Scenario.walk(lengthM: walkM, rng: &rng).steps)
        // Slow wander of 3 m magnified threefold: 5-30 m from the true place.
        park(longPark, wander: 3)
        leg(.drive, Scenario.drive(lengthM: secondDriveM, lightsS: 60...120, noShortLastSegment: true, rng: &rng).steps)
        park(lastPark)
        return DayScenario(
            scenario: Scenario(name: "day", start: Coordinate(latitude: 48.137, longitude: 11.575), steps: steps),
            trips: trips)
    }
}
