import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import GPSTrackTestKit
import Testing

@testable import GPSTrackDaemon

/// What the HTTP uplinks put on the wire for a seeded day (automatic trips, the parked guard, a
/// speed limit, a depot fence), in-process: the same fixes give each uplink the same requests
/// in the same order, byte for byte, but for OwnTracks' `wtst` and the waypoints' `tst` (the
/// fences' load time, from the wall clock). With `GPSTRACK_WIRE_DUMP=FILE` the requests are
/// written to FILE, one per line, so that two builds' wires can be compared (docs/TESTING.md).
@Suite struct UplinkWireTests {
    /// Every request of one run of the day, as `uplink method url headers body` lines.
    static func wire() async throws -> [String] {
        let day = DayScenario.make(seed: 5)
        let trace = Simulator.run(day.scenario, seed: 5)
        let centre = trace.truth[trace.truth.count / 3]
        let fences = [Fence(index: 0, id: "depot", name: "Depot", shape: .circle(center: centre, radiusM: 60))]
        let server = InMemoryHTTPServer()
        let h = try await TrackerHarness(
            fences: fences,
            configure: {
                $0.pedometer = .off
                $0.tracker.tripMode = .auto
                $0.tracker.guardOn = true
                $0.tracker.speedLimitKmh = 30
                $0.uplinkMaxClockOffsetS = 1e10
                $0.traccar.url = "http://traccar.test/"
                $0.traccar.deviceID = "box"
                $0.owntracksHTTP.url = "http://owntracks.test/pub"
                $0.owntracksHTTP.device = "box"
                $0.webhook.url = "http://webhook.test/hook"
                $0.webhook.events = EventName.webhookKinds
            }, transport: { server.transport($0) })
        await h.feed(trace.fixes)
        await h.endFeed()
        let deadline = Date().addingTimeInterval(120)
        while true {
            let u = try await h.request(.status, as: StatusReply.self).uplinks
            let queued = [u?.traccar, u?.owntracksHTTP, u?.webhook].map { $0?.queued ?? -1 }
            if queued == [0, 0, 0] { break }
            try #require(Date() < deadline, "still queued after 120 s: \(queued)")
            try await Task.sleep(for: .milliseconds(20))  // polls the condition above
        }
        await h.close()
        // The wall clock's part: OwnTracks' `wtst` and the waypoints' `tst` (the fences' load
        // time). Each uplink sends on its own thread: its requests in order, the uplinks apart.
        let loadTime = try NSRegularExpression(pattern: #""(wtst|tst)":[0-9]+"#)
        return [UplinkName.traccar, .owntracksHTTP, .webhook].flatMap { uplink in
            server.requests(uplink).map { r in
                let line = "\(r.uplink.rawValue) \(r.method) \(r.url) \(r.headers.joined(separator: "|")) \(r.body)"
                guard line.contains(#""wtst":"#) || line.contains(#""_type":"waypoints""#) else { return line }
                return loadTime.stringByReplacingMatches(
                    in: line, range: NSRange(line.startIndex..., in: line), withTemplate: #""$1":0"#)
            }
        }
    }

    @Test func theSameDayGivesTheSameWire() async throws {
        let first = try await Self.wire()
        let second = try await Self.wire()
        #expect(first.count > 100, "the day makes requests to every uplink: \(first.count)")
        for uplink in ["traccar", "owntracks_http", "webhook"] {
            #expect(first.contains { $0.hasPrefix(uplink + " ") }, "nothing sent to \(uplink)")
        }
        #expect(first == second, "\(zip(first, second).first { $0 != $1 }.map { "\($0)\n\($1)" } ?? "counts differ")")
        if let path = ProcessInfo.processInfo.environment["GPSTRACK_WIRE_DUMP"] {
            try (first.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
    }
}
