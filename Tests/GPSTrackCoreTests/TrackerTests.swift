import GPSTrackSim
import Testing

@testable import GPSTrackCore
@testable import GPSTrackProtocol

@Suite struct TrackerTests {
    /// These tests are about the odometer itself: one manual trip over everything.
    static let odometer: TrackerConfig = {
        var c = TrackerConfig()
        c.tripMode = .manual
        return c
    }()

    @Test func distanceFilterDeliversOnlyBeyondTenMetres() throws {
        var tracker = Tracker(config: Self.odometer)
        var delivered: [Coordinate] = []
        for i in 0...40 {
            _ = tracker.ingest(FixFactory.at(Double(i), east: 3 * Double(i), speed: 3, track: 90))
            if case .accepted(true, _) = tracker.lastOutcome { delivered.append(tracker.trip.lastDelivered!) }
        }
        // 120 m in 3 m steps with a 10 m filter: a delivery every 12 m (every 4th fix).
        #expect(delivered.count == 11)
        // GeodSolve measures the deliveries' spacing, not the code under test.
        let spacing = try GeodSolveTruth.lengths(zip(delivered, delivered.dropFirst()).map { [$0, $1] })
        #expect(spacing.count == 10 && spacing.allSatisfy { $0 >= 10 }, "\(spacing)")
        #expect(abs(tracker.trip.traveledM - 120) < 0.01)
        #expect(abs(tracker.trip.straightLineM - 120) < 0.01)
    }

    @Test func standingStillAddsNothing() {
        var tracker = Tracker(config: Self.odometer)
        // 20 minutes wandering on a 6 m circle with Doppler speed near zero.
        for i in 0..<1200 {
            let a = Double(i) * 0.05
            _ = tracker.ingest(
                FixFactory.at(Double(i), east: 6 * cos(a), north: 6 * sin(a), eph: 8, speed: 0.1, track: 10))
        }
        #expect(tracker.trip.traveledM == 0)
        #expect(tracker.counters.accepted == 1200)
    }

    @Test func jitterThatClaimsToCreepAddsNothing() {
        var tracker = Tracker(config: Self.odometer)
        // A receiver with a poor sky view standing still (like the quectel-eg25-g capture in
        // gpsd's regression suite): every second a position 7 m from the true one, 100° on
        // from the last (hops of 10.7 m), eph 22 m, and a Doppler speed of 0.6-2.8 m/s whose
        // course turns to a new direction every 3 s.
        for i in 0..<600 {
            let a = Double(i) * 100 * Double.pi / 180
            _ = tracker.ingest(
                FixFactory.at(
                    Double(i), east: 7 * sin(a), north: 7 * cos(a), eph: 22,
                    speed: 0.6 + Double((i * 3) % 12) * 0.2, track: Double(((i / 3) * 137) % 360)))
        }
        #expect(tracker.counters.accepted == 600)
        #expect(tracker.trip.traveledM <= 15, "standing still: at most 15 m, as for a parked receiver")
    }

    @Test func aHopTheReportedSpeedExplainsCountsAcrossAGap() {
        var tracker = Tracker(config: Self.odometer)
        // Walking north at 1.4 m/s; no fix between 60 s and 90 s (a tunnel), then on again.
        for i in Array(0...60) + Array(90...120) {
            _ = tracker.ingest(FixFactory.at(Double(i), north: 1.4 * Double(i), speed: 1.4, track: 0))
        }
        // 168 m walked; the last delivery may lag the last fix by less than the 10 m filter.
        #expect(tracker.trip.traveledM > 158 && tracker.trip.traveledM <= 168.01)
    }

    @Test func slowMovementWithoutSpeedStillCounts() {
        var tracker = Tracker(config: Self.odometer)
        // 0.4 m/s for 500 s (200 m) with no speed from the receiver.
        for i in 0...500 {
            _ = tracker.ingest(FixFactory.at(Double(i), north: 0.4 * Double(i), eph: 5))
        }
        #expect(tracker.trip.traveledM >= 175)
        #expect(tracker.trip.traveledM <= 200.01)
    }

    @Test func rejectionsAreCountedByReason() {
        var tracker = Tracker(config: Self.odometer)
        _ = tracker.ingest(FixFactory.at(0))
        _ = tracker.ingest(FixFactory.at(0, east: 1))
        _ = tracker.ingest(FixFactory.at(1, mode: 1))
        _ = tracker.ingest(FixFactory.at(2, eph: 99))
        #expect(tracker.counters.total == 4)
        #expect(tracker.counters.accepted == 1)
        #expect(tracker.counters.rejected == [.duplicate: 1, .noFix: 1, .lowAccuracy: 1])
    }

    @Test func startStopAndReset() {
        var tracker = Tracker(config: Self.odometer)
        let events = tracker.ingest(FixFactory.at(0, speed: 2, track: 90))
        guard case .tripStart(_, let t, _) = events.first else {
            Issue.record("no trip_start")
            return
        }
        #expect(t == FixFactory.t0)
        _ = tracker.ingest(FixFactory.at(10, east: 20, speed: 2, track: 90))
        #expect(abs(tracker.trip.traveledM - 20) < 0.01)

        _ = tracker.stopTrip()
        #expect(tracker.trip.state == .stopped)
        _ = tracker.ingest(FixFactory.at(20, east: 40, speed: 2, track: 90))
        #expect(abs(tracker.trip.traveledM - 20) < 0.01, "a stopped trip is frozen")

        _ = tracker.startTrip()
        #expect(tracker.trip.traveledM == 0)
        #expect(tracker.trip.start == nil)
        _ = tracker.ingest(FixFactory.at(30, east: 60, speed: 2, track: 90))
        #expect(tracker.trip.startedAt == FixFactory.t0 + 30, "the new trip starts at the next accepted fix")
        _ = tracker.ingest(FixFactory.at(40, east: 80, speed: 2, track: 90))
        #expect(abs(tracker.trip.traveledM - 20) < 0.01)

        _ = tracker.resetTrip()
        #expect(tracker.trip.traveledM == 0)
        #expect(tracker.trip.state == .running)
    }

    @Test func epochAssemblerKeepsTheMostCompleteTPV() {
        var assembler = EpochAssembler()
        let partial = Fix(mode: 2, time: 100, latitude: 1, longitude: 1)
        let complete = Fix(mode: 3, time: 100, latitude: 1.00001, longitude: 1, eph: 4, speed: 1, track: 3)
        let later = Fix(mode: 2, time: 100, latitude: 1.00002, longitude: 1)
        #expect(assembler.add(partial).isEmpty)
        #expect(assembler.add(complete).isEmpty)
        #expect(assembler.add(later).isEmpty)
        let out = assembler.add(Fix(mode: 3, time: 101, latitude: 1, longitude: 1))
        #expect(out.count == 1)
        #expect(out.first?.eph == 4)
        let timeless = assembler.add(Fix(mode: 3, time: nil))
        #expect(timeless.count == 2 && timeless[0].time == 101 && timeless[1].time == nil)
        #expect(assembler.flush().isEmpty)
    }
}

#if canImport(Glibc)
import Glibc
#endif
