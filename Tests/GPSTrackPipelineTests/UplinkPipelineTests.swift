import Foundation
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import GPSTrackSim
import GPSTrackTestKit
import Testing

@testable import GPSTrackDaemon

/// The HTTP uplinks in-process: the daemon's own outlets (`Outlets.make`), each sending through
/// an in-memory server instead of libcurl. A seeded day through a depot fence; what Traccar,
/// OwnTracks over HTTP and the webhook were sent is read against the day's stored events.
@Suite struct UplinkPipelineTests {
    @Test func traccarOwnTracksAndTheWebhookHearTheDay() async throws {
        let day = DayScenario.make(seed: 3)
        let trace = Simulator.run(day.scenario, seed: 3)
        let centre = trace.truth[trace.truth.count / 3]
        let fences = [Fence(index: 0, id: "depot", name: "Depot", shape: .circle(center: centre, radiusM: 60))]
        let server = InMemoryHTTPServer()
        let h = try await TrackerHarness(
            fences: fences,
            configure: {
                $0.pedometer = .off
                // The seeded day is dated in the past: the uplinks' clock check lets it through.
                $0.uplinkMaxClockOffsetS = 1e10
                $0.traccar.url = "http://traccar.test/"
                $0.traccar.deviceID = "box"
                $0.owntracksHTTP.url = "http://owntracks.test/pub"
                $0.owntracksHTTP.device = "box"
                $0.webhook.url = "http://webhook.test/hook"
                $0.webhook.events = [.enter, .exit]
            }, transport: { server.transport($0) })
        await h.feed(trace.fixes)
        await h.endFeed()
        // Each sender delivers on its own thread: waited for until every queue is empty.
        let deadline = Date().addingTimeInterval(60)
        while true {
            let u = try await h.request(.status, as: StatusReply.self).uplinks
            let queued = [u?.traccar, u?.owntracksHTTP, u?.webhook].map { $0?.queued ?? -1 }
            if queued == [0, 0, 0] { break }
            try #require(Date() < deadline, "still queued after 60 s: \(queued)")
            try await Task.sleep(for: .milliseconds(20))  // polls the condition above
        }
        let events = try await h.request(.events(since: nil, fence: "depot"), as: EventsReply.self).events
        let crossings = events.filter { $0.body.name == .enter || $0.body.name == .exit }
        try #require(crossings.count >= 2, "the route passes through the depot")

        // The webhook: each crossing's event line, as stored, in order, and nothing else.
        let hooks = server.requests(.webhook)
        #expect(hooks.map(\.body) == crossings.map { ReplyEncoder.encode($0) })
        #expect(hooks.allSatisfy { $0.method == "POST" && $0.url == "http://webhook.test/hook" })

        // OwnTracks over HTTP: a transition per crossing (enter, then leave), the waypoints, and
        // locations, each from the Recorder's user and device.
        let owntracks = server.requests(.owntracksHTTP)
        let bodies = try owntracks.map { try JSONValue.parse(Array($0.body.utf8)) }
        let transitions = bodies.filter { $0["_type"]?.string == "transition" }
        #expect(transitions.map { $0["event"]?.string } == crossings.map { $0.body.name == .enter ? "enter" : "leave" })
        #expect(transitions.allSatisfy { $0["desc"]?.string == "Depot" })
        #expect(bodies.filter { $0["_type"]?.string == "waypoints" }.count == 1)
        #expect(bodies.filter { $0["_type"]?.string == "location" }.count > 10)
        #expect(owntracks.allSatisfy { $0.headers.contains("X-Limit-D: box") })

        // Traccar: OsmAnd positions of the device, in fix-time order.
        let positions = server.requests(.traccar).map { URLComponents(string: $0.url)?.queryItems ?? [] }
        let stamps = positions.compactMap { items in items.first { $0.name == "timestamp" }?.value.flatMap(Int.init) }
        #expect(positions.count > 10 && stamps.count == positions.count, "\(positions.prefix(2))")
        #expect(positions.allSatisfy { items in items.contains { $0.name == "id" && $0.value == "box" } })
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 <= $1 }, "in order")
        await h.close()
    }
}
