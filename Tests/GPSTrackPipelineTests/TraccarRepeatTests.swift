import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import GPSTrackTestKit
import Testing

@testable import GPSTrackDaemon

/// What a Traccar server makes of a latched tow alarm, by Traccar's own rules read from its
/// code (traccar/traccar): `AlarmEventHandler` raises an event for each alarm of a position
/// less those of the device's last position (`event.ignoreDuplicateAlerts`, on by default),
/// and the last position is the latest by fix time (`PositionUtil.isLatest`: not before the
/// cached one). A car parked 15 min, towed 300 m, then parked 15 min more at the new place,
/// with the breach said again every 60 s: every repeat must be an event there, from where the
/// car is, and no position carries an alarm the journal does not have.
@Suite struct TraccarRepeatTests {
    /// One OsmAnd position as the server got it.
    struct Position {
        var time: Int
        var lat: Double
        var lon: Double
        var alarms: Set<String>
    }

    /// Traccar's alarm events over the positions in the order they came: (alarm, position).
    static func traccarEvents(_ positions: [Position]) -> [(String, Position)] {
        var latest: Position?
        var events: [(String, Position)] = []
        for p in positions {
            var alarms = p.alarms
            if let latest { alarms.subtract(latest.alarms) }
            events += alarms.sorted().map { ($0, p) }
            if latest == nil || p.time >= latest!.time { latest = p }
        }
        return events
    }

    @Test func everyRepeatOfALatchedTowAlarmIsAnEventInTraccar() async throws {
        let steps =
            Array(repeating: Scenario.Step(speed: 0, heading: 0), count: 900)
            + Array(repeating: Scenario.Step(speed: 1, heading: 110), count: 300)
            + Array(repeating: Scenario.Step(speed: 0, heading: 110), count: 900)
        let trace = Simulator.run(
            Scenario(name: "towed", start: Coordinate(latitude: 50.11, longitude: 8.68), steps: steps), seed: 21)
        let server = InMemoryHTTPServer()
        let h = try await TrackerHarness(
            configure: {
                $0.pedometer = .off
                $0.tracker.guardOn = true
                $0.tracker.guardRepeatS = 60
                $0.uplinkMaxClockOffsetS = 1e10
                $0.traccar.url = "http://traccar.test/"
                $0.traccar.deviceID = "van"
            }, transport: { server.transport($0) })
        await h.feed(trace.fixes)
        await h.endFeed()
        let deadline = Date().addingTimeInterval(60)
        while try await h.request(.status, as: StatusReply.self).uplinks?.traccar?.queued != 0 {
            try #require(Date() < deadline, "Traccar's queue not empty after 60 s")
            try await Task.sleep(for: .milliseconds(20))  // polls the condition above
        }
        let breaches = try await h.request(.events(since: nil, fence: nil), as: EventsReply.self).events
            .compactMap { e -> EventLine.GuardBreach? in if case .guardBreach(let g) = e.body { g } else { nil } }
        try #require(breaches.count >= 10, "the breach and its repeats over 20 min: \(breaches.count)")

        let positions = try server.requests(.traccar).map { r -> Position in
            let items = URLComponents(string: r.url)?.queryItems ?? []
            func value(_ k: String) -> String? { items.first { $0.name == k }?.value }
            return Position(
                time: try #require(value("timestamp").flatMap { Int($0) }), lat: Double(value("lat") ?? "") ?? .nan,
                lon: Double(value("lon") ?? "") ?? .nan,
                alarms: Set((value("alarm") ?? "").split(separator: ",").map(String.init)))
        }
        let sentAlarms = positions.filter { !$0.alarms.isEmpty }
        #expect(sentAlarms.count == breaches.count, "one position with alarm=tow for each breach line")
        let events = Self.traccarEvents(positions)
        #expect(events.allSatisfy { $0.0 == "tow" })
        try #require(events.count == breaches.count, "Traccar's events: \(events.count) of \(breaches.count)")
        for (e, b) in zip(events.map(\.1), breaches) {
            let t = try #require(Timestamp.parse(b.time))
            #expect(abs(Double(e.time) - t) < 1 && abs(e.lat - b.lat) < 1e-5 && abs(e.lon - b.lon) < 1e-5, "\(e), \(b)")
        }
        // The last ones from the new place, about 300 m from where the car was parked.
        #expect((breaches.last?.distanceM ?? 0) > 250)
        await h.close()
    }
}
