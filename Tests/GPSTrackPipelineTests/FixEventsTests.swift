import GPSTrackCore
import GPSTrackDaemon
import GPSTrackJSON
import GPSTrackProtocol
import GPSTrackSim
import GPSTrackTestKit
import Testing

/// `fix_acquired` and `fix_lost` are the session's events (issue 21): sequenced among the
/// others, stored, on `watch`, and journaled with their sequence number and reason.
@Suite struct FixEventsTests {
    @Test func aStaleSpellAndALostGPSDAreSequencedStoredAndJournaled() async throws {
        let trace = Simulator.run(DayScenario.make(seed: 5).scenario, seed: 5)
        let good = trace.fixes.filter { $0.mode >= 2 && $0.time != nil }
        try #require(good.count > 200)
        let h = try await TrackerHarness { $0.pedometer = .off }
        await h.feed(Array(good.prefix(60)))
        // 30 s of no-fix reports (mode 1) after the 60th: stale after stale_after_s (15 s).
        let last = try #require(good[59].time)
        let silent = (1...30).map { i -> Fix in
            var f = good[59]
            f.mode = 1
            f.time = last + Double(i)
            return f
        }
        await h.feed(silent)
        let resumed = good.dropFirst(60).filter { $0.time! > last + 30 }.prefix(20)
        await h.feed(Array(resumed))
        await h.tracker.handle(.lost(reason: "connection reset"))

        let stored = try await h.request(.events(since: nil, fence: nil), as: EventsReply.self).events
        let fixEvents = stored.filter { ["fix_acquired", "fix_lost"].contains($0.body.name.rawValue) }
        #expect(fixEvents.map(\.body.name.rawValue) == ["fix_acquired", "fix_lost", "fix_acquired", "fix_lost"])
        guard fixEvents.count == 4 else { return }
        // The first event of all is the first fix's acquisition.
        #expect(stored.first?.seq == fixEvents[0].seq && fixEvents[0].seq == 1)
        if case .fixAcquired(let a) = fixEvents[0].body {
            #expect(a.time == Timestamp.iso8601(good[0].time!) && a.lat == good[0].latitude)
        } else {
            Issue.record("not fix_acquired: \(fixEvents[0])")
        }
        if case .fixLost(let l) = fixEvents[1].body {
            #expect(l.reason == "stale" && l.time == Timestamp.iso8601(last), "the last accepted fix's time: \(l)")
        } else {
            Issue.record("not fix_lost: \(fixEvents[1])")
        }
        if case .fixLost(let l) = fixEvents[3].body { #expect(l.reason == "gpsd_lost") }
        // The journal's entries carry the same sequence numbers.
        let journaled = h.journal.entries.filter { $0.event == .fixAcquired || $0.event == .fixLost }
        let seqs = journaled.map { e in e.fields.first { $0.0 == .seq }?.1 }
        #expect(seqs == fixEvents.map { String($0.seq) })
        #expect(
            journaled.filter { $0.event == .fixLost }.map { $0.fields.first { $0.0 == .reason }?.1 } == [
                "stale", "gpsd_lost",
            ])
        let watched = h.watchLines.compactMap { try? ReplyDecoder.decode(EventLine.self, line: $0) }
        #expect(watched.filter { ["fix_acquired", "fix_lost"].contains($0.body.name.rawValue) } == fixEvents)
        await h.close()
    }
}
