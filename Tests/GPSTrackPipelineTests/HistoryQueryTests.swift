import GPSTrackCore
import GPSTrackDaemon
import GPSTrackProtocol
import GPSTrackSim
import GPSTrackTestKit
import Testing

/// `events --since/--fence` (gpstrackctl(1)) against the tracking actor's store, and the
/// fields of `fences_determined` (gpstrackd(8)), in-process.
@Suite struct HistoryQueryTests {
    /// The event's fence and fix time, read from its line's own fields.
    static func fenceAndTime(_ e: EventLine) -> (fence: String?, time: String?) {
        switch e.body {
        case .enter(let f), .exit(let f), .dwell(let f), .state(let f): (f.fence, f.time)
        case .fencesDetermined(let c): (nil, c.time)
        case .tripStart(let t): (nil, t.time)
        case .tripEnd(let t): (nil, t.end)
        case .tripStop(let t): (nil, t.time)
        case .guardArmed(let g): (nil, g.time)
        case .guardBreach(let g): (nil, g.time)
        case .overspeedStart(let o): (nil, o.time)
        case .overspeedEnd(let o): (nil, o.time)
        case .discontinuity(let d): (nil, d.time)
        case .fixAcquired(let f): (nil, f.time)
        case .fixLost(let f): (nil, f.time)
        case .anchor(let a): (nil, a.time)
        case .guardAck(let g): (nil, g.time)
        case .guardNoPosition(let g): (nil, g.time)
        case .guardArmRefused(let g): (nil, g.time)
        case .input(let i): (nil, i.time)
        }
    }

    @Test func eventsSinceAndByFenceAreTheStoredEventsFiltered() async throws {
        let seed: UInt64 = 4
        let trace = Simulator.run(DayScenario.make(seed: seed).scenario, seed: seed)
        let fences = [
            Fence(index: 0, id: "start", name: "Start", shape: .circle(center: trace.truth[0], radiusM: 80)),
            Fence(
                index: 1, id: "midway", shape: .circle(center: trace.truth[trace.truth.count / 3], radiusM: 60)),
        ]
        let h = try await TrackerHarness(fences: fences) { $0.pedometer = .off }
        await h.feed(trace.fixes)
        let all = try await h.request(.events(since: nil, fence: nil), as: EventsReply.self).events
        try #require(all.count > 8, "a day through two fences makes events: \(all.count)")

        for id in ["start", "midway"] {
            let byFence = try await h.request(.events(since: nil, fence: id), as: EventsReply.self).events
            #expect(!byFence.isEmpty, "events of \(id)")
            #expect(byFence == all.filter { Self.fenceAndTime($0).fence == id }, "--fence \(id)")
        }
        let middle = all[all.count / 2]
        let since = try #require(Self.fenceAndTime(middle).time.flatMap(Timestamp.parse))
        let recent = try await h.request(.events(since: since, fence: nil), as: EventsReply.self).events
        let expected = all.filter { e in
            Self.fenceAndTime(e).time.flatMap(Timestamp.parse).map { $0 >= since } ?? false
        }
        #expect(recent == expected, "--since \(Timestamp.iso8601(since)): \(recent.count) vs \(expected.count)")
        #expect(recent.contains(middle) && recent.count < all.count)

        // fences_determined: every fence counted once, at a fix's time, inside where it is.
        let determined = all.compactMap { e -> EventLine.FencesDetermined? in
            if case .fencesDetermined(let c) = e.body { return c }
            return nil
        }
        let first = try #require(determined.first)
        #expect(first.inside + first.outside + first.unknown == fences.count)
        #expect(first.inside == 1, "the day starts inside `start`: \(first)")
        #expect(first.time == Timestamp.iso8601(try #require(trace.fixes.first { $0.mode >= 2 }?.time)))
        await h.close()
    }
}
