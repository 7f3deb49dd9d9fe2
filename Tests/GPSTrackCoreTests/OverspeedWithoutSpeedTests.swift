import GPSTrackCore
import GPSTrackSim
import Testing

/// Overspeed for a receiver that reports no speed (gpstrackd(8): "the speed is the
/// receiver's, else the one derived from delivered positions"): the same excess as
/// `GuardAndOverspeedTests` with Doppler, judged from the positions alone.
@Suite struct OverspeedWithoutSpeedTests {
    static let start = Coordinate(latitude: 50.11, longitude: 8.68)

    /// A drive east at `speeds` (m/s, one a second) through a 50 km/h zone, by a receiver
    /// without speed or course; the overspeed events of the session.
    static func events(_ speeds: [Double], seed: UInt64) throws -> [TrackerEvent] {
        let scenario = Scenario(
            name: "zone, no speed", start: start, steps: speeds.map { Scenario.Step(speed: $0, heading: 90) })
        var model = ReceiverModel()
        model.reportsVelocity = false
        model.noFixProbability = 0
        let trace = Simulator.run(scenario, model: model, seed: seed)
        #expect(trace.fixes.allSatisfy { !$0.speed.isFinite }, "the receiver reports no speed")
        var config = TrackerConfig()
        config.speedLimitKmh = 100
        let zone = try FenceIndex(
            fences: [
                Fence(
                    index: 0, id: "school", shape: .circle(center: start, radiusM: 3000), speedLimitKmh: 50)
            ], file: "zone.geojson")
        return GuardAndOverspeedTests.events(trace.fixes, config: config, fences: zone).filter {
            if case .overspeedStart = $0 { return true }
            if case .overspeedEnd = $0 { return true }
            return false
        }
    }

    /// 30 s at 11 m/s, 40 s at 17 m/s (61 km/h), 30 s at 11 m/s: one start and one end, the
    /// excess's maximum, duration and distance from the positions.
    @Test(arguments: [UInt64(7), 8, 9])
    func aSustainedExcessWithoutDopplerMakesOnePair(seed: UInt64) throws {
        let speeds =
            Array(repeating: 11.0, count: 30) + Array(repeating: 17.0, count: 40) + Array(repeating: 11.0, count: 30)
        let events = try Self.events(speeds, seed: seed)
        try #require(events.count == 2, "one start, one end: \(events)")
        guard case .overspeedStart(_, _, let limit, _) = events[0],
            case .overspeedEnd(_, _, _, let max, let duration, let distance) = events[1]
        else {
            Issue.record("a start, then an end: \(events)")
            return
        }
        #expect(limit == 50, "the zone's limit")
        // The maximum of 40 one-second hops: each carries the model's white noise (1 m per
        // axis, so √2 m/s along the road), and the largest of 40 lies up to 3 sigmas above.
        let hopSigma = 2.0.squareRoot() * ReceiverModel().whiteSigmaM
        #expect(max >= 17 - hopSigma && max <= 17 + 3 * hopSigma, "maximum \(max) m/s, driven at 17")
        #expect(abs(duration - 40) <= 3, "\(duration) s over the limit, 40 driven")
        #expect(abs(distance - 680) < 60, "\(distance) m over the limit, 40 s at 17 m/s")
    }

    /// Driving at 11 m/s (40 km/h) in the 50 km/h zone: the positions' jitter is no excess.
    @Test(arguments: [UInt64(7), 8, 9])
    func jitterBelowTheLimitMakesNone(seed: UInt64) throws {
        let events = try Self.events(Array(repeating: 11.0, count: 120), seed: seed)
        #expect(events.isEmpty, "\(events)")
    }
}
