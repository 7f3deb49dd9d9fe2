import GPSTrackCore
import Testing

/// The one location throttle of MQTT, OwnTracks over HTTP and Traccar (issue 37): due at most
/// every `minIntervalS` of fix time, and then only after `minDistanceM` or `heartbeatS`. The
/// positions are GeodSolve's, a metre either side of the distance.
@Suite struct LocationThrottleTests {
    static let start = Coordinate(latitude: 47.3769, longitude: 8.5417)

    @Test func theFirstIsDueThenTheIntervalTheDistanceAndTheHeartbeatDecide() throws {
        let points = try GeodSolveDirect.solve([
            .init(from: Self.start, azimuth: 30, distance: 49),
            .init(from: Self.start, azimuth: 30, distance: 51),
        ])
        let (near, far) = (points[0].point, points[1].point)
        var throttle = LocationThrottle(minIntervalS: 30, minDistanceM: 50, heartbeatS: 900)
        #expect(throttle.due(time: 1000, at: Self.start), "nothing sent yet")
        throttle.sent(time: 1000, at: Self.start)
        #expect(!throttle.due(time: 1029, at: far), "51 m away but 29 s: the interval holds")
        #expect(throttle.due(time: 1030, at: far), "51 m away after 30 s")
        #expect(!throttle.due(time: 1899, at: near), "49 m away, 899 s: neither moved nor the heartbeat")
        #expect(throttle.due(time: 1900, at: near), "the heartbeat after 900 s")
        #expect(throttle.due(time: 1900, at: Self.start), "the heartbeat while parked")
        throttle.sent(time: 1900, at: near)
        #expect(!throttle.due(time: 1930, at: near), "intervals count from the last sent")
    }
}
