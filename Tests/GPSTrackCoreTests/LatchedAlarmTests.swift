import GPSTrackCore
import GPSTrackSim
import Testing

/// The one rule of latched alarms (gpstrackd(8), LATCHED ALARMS), on the type and on the
/// anchor's drag said again without fixes.
@Suite struct LatchedAlarmTests {
    @Test func saidAgainWhenDueUntilAcknowledgedAndReadBackAsWritten() {
        var a = LatchedAlarm(raisedAt: 100)
        // Every 60 s after the last time it was said, whatever the ticks in between.
        let said = stride(from: 101.0, through: 300, by: 7).compactMap { a.repeatDue(now: $0, every: 60) }
        #expect(said == [1, 2, 3], "due at 160, 220, 280 (by the 7 s ticks: 164, 227, 290)")
        #expect(a.lastSaidAt == 290 && a.repeats == 3)
        #expect(LatchedAlarm(fields: a.encoded.split(separator: ",").compactMap { Double($0) }[...]) == a)
        #expect(a.acknowledge() && !a.acknowledge(), "acknowledged once; a second ack says nothing")
        #expect(a.repeatDue(now: 10_000, every: 60) == nil, "quiet after the ack")
        #expect(LatchedAlarm(fields: a.encoded.split(separator: ",").compactMap { Double($0) }[...]) == a)
        // A damaged row is no alarm, never a trap.
        for bad: [Double] in [[1, 2, -1, 0], [1, .nan, 0, 0], [1, 2, 1e12, 0], [1, 2, 3]] {
            #expect(LatchedAlarm(fields: bad[...]) == nil, "\(bad)")
        }
    }

    /// A drag alarm said again while no fix comes carries where the boat last was (not the
    /// anchor's place, as it once did), and its distance.
    @Test(.enabled(if: GeodSolveTruth.path != nil, "GeodSolve is installed by `make test`"))
    func aDragRepeatWithoutFixesCarriesTheLastPlace() throws {
        let anchor = Coordinate(latitude: 54.3521, longitude: 10.1743)
        var config = AnchorConfig()
        config.repeatS = 60
        config.noPositionS = 1e6
        var watch = AnchorWatch(config: config)
        _ = watch.drop(at: anchor, radiusM: 30, time: 0)
        let away = Geodesic.destination(from: anchor, azimuth: 120, distance: 55)
        var events: [AnchorEvent] = []
        for t in 0..<20 { events += watch.ingest(at: away, errorM: 3, time: Double(t)) }
        try #require(events.contains { if case .alarm(_, _, _, 0) = $0 { true } else { false } })
        var ticked: [AnchorEvent] = []
        for t in 20..<200 { ticked += watch.tick(now: Double(t)) }
        let repeats = ticked.compactMap { e -> (Coordinate, Double)? in
            if case .alarm(_, let at, let d, let n) = e, n > 0 { (at, d) } else { nil }
        }
        #expect(repeats.count == 3, "\(ticked)")
        for (at, d) in repeats {
            #expect(try GeodSolveTruth.distance(at, away) < 0.01, "said from \(at)")
            #expect(abs(d - 55) < 0.01)
        }
    }
}
