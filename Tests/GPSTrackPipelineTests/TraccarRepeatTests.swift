import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import GPSTrackTestKit
import Testing

@testable import GPSTrackDaemon

/// What a Traccar server makes of a latched tow alarm, by Traccar's own rules (`TraccarRules`:
/// `AlarmEventHandler` with `event.ignoreDuplicateAlerts`, `PositionUtil.isLatest`). A car
/// parked 15 min, towed 300 m, then parked 15 min more at the new place, with the breach said
/// again every 60 s: every repeat must be an event there, from where the car is, and no
/// position carries an alarm the journal does not have.
@Suite struct TraccarRepeatTests {
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

        let positions = try server.requests(.traccar).map { r -> TraccarRules.Position in
            let items = URLComponents(string: r.url)?.queryItems ?? []
            func value(_ k: String) -> String? { items.first { $0.name == k }?.value }
            return TraccarRules.Position(
                time: try #require(value("timestamp").flatMap { Double($0) }), lat: Double(value("lat") ?? "") ?? .nan,
                lon: Double(value("lon") ?? "") ?? .nan,
                alarms: Set((value("alarm") ?? "").split(separator: ",").map(String.init)))
        }
        let sentAlarms = positions.filter { !$0.alarms.isEmpty }
        #expect(sentAlarms.count == breaches.count, "one position with alarm=tow for each breach line")
        let events = TraccarRules.events(positions)
        #expect(events.allSatisfy { $0.alarm == "tow" })
        try #require(events.count == breaches.count, "Traccar's events: \(events.count) of \(breaches.count)")
        for (e, b) in zip(events.map(\.at), breaches) {
            let t = try #require(Timestamp.parse(b.time))
            #expect(abs(e.time - t) < 1 && abs(e.lat - b.lat) < 1e-5 && abs(e.lon - b.lon) < 1e-5, "\(e), \(b)")
        }
        // The last ones from the new place, about 300 m from where the car was parked.
        #expect((breaches.last?.distanceM ?? 0) > 250)
        await h.close()
    }
}
