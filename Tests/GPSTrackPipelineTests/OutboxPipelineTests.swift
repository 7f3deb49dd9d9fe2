import Foundation
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import GPSTrackSim
import GPSTrackTestKit
import Testing

@testable import GPSTrackDaemon

/// The MQTT outbox in-process (gpstrackd(8), MQTT): every message is written to the state
/// database's outbox before anything is sent. With a publisher that never starts, nothing
/// leaves: the outbox is then exactly what the day produced.
@Suite struct OutboxPipelineTests {
    @Test func everyEnterAndExitIsATransitionInTheOutboxAndLocationsKeepTheirInterval() async throws {
        let day = DayScenario.make(seed: 3)
        let trace = Simulator.run(day.scenario, seed: 3)
        let centre = trace.truth[trace.truth.count / 3]
        let fences = [Fence(index: 0, id: "depot", name: "Depot", shape: .circle(center: centre, radiusM: 60))]
        let h = try await TrackerHarness(fences: fences) {
            $0.pedometer = .off
            $0.mqtt.host = "127.0.0.1"
            $0.mqtt.port = 1
            $0.mqtt.topic = "owntracks/test/box"
        }
        await h.feed(trace.fixes)
        await h.endFeed()

        let events = try await h.request(.events(since: nil, fence: "depot"), as: EventsReply.self).events
        let crossings: [(String, EventLine.FenceChange, String)] = events.compactMap { line in
            switch line.body {
            case .enter(let f): ("enter", f, f.time)
            case .exit(let f): ("leave", f, f.time)
            default: nil
            }
        }
        try #require(crossings.count >= 2, "the route passes through the depot: \(events.map(\.body.name.rawValue))")

        let db = try SQLiteDatabase(path: h.databasePath)
        let rows = try db.query("SELECT kind, topic, payload, qos FROM uplink_outbox WHERE uplink = 'mqtt' ORDER BY id")
        let transitions = try rows.filter { $0[0] == .text("transition") }.map { row -> JSONValue in
            #expect(row[1] == .text("owntracks/test/box/event") && row[3] == .int(1), "\(row)")
            guard case .text(let payload) = row[2] else { throw HarnessError("payload \(row[2])") }
            return try JSONValue.parse(Array(payload.utf8))
        }
        // One transition per stored enter and exit, in their order, naming the fence and the time.
        try #require(
            transitions.count == crossings.count, "\(transitions.count) transitions, \(crossings.count) events")
        for (t, (event, change, time)) in zip(transitions, crossings) {
            #expect(t["_type"] == .string("transition") && t["event"] == .string(event), "\(t)")
            #expect(t["rid"] == .string("depot") && t["desc"] == .string("Depot") && change.fence == "depot")
            let seconds = try #require(Timestamp.parse(time))
            #expect(
                t["tst"] == .number(seconds.rounded(.down)), "tst \(String(describing: t["tst"])), event at \(time)")
        }

        // Locations: at most one per mqtt_min_interval_s (30 s) of fix time.
        let tsts = try rows.filter { $0[0] == .text("location") }.map { row -> Double in
            guard case .text(let payload) = row[2],
                case .number(let t)? = try JSONValue.parse(Array(payload.utf8))["tst"]
            else { throw HarnessError("location \(row)") }
            return t
        }
        #expect(tsts.count > 10, "a day's drives publish locations: \(tsts.count)")
        #expect(zip(tsts, tsts.dropFirst()).allSatisfy { $1 - $0 >= 30 }, "\(tsts.prefix(20))")

        let status = try await h.request(.status, as: StatusReply.self)
        #expect(status.mqtt?.outbox == rows.count, "status counts the outbox: \(String(describing: status.mqtt))")
        #expect(status.mqtt?.connected == false)
        await h.close()
    }
}
