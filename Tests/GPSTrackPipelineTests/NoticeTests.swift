import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackTestKit
import Synchronization
import Testing

@testable import GPSTrackDaemon

/// What the tracker tells beside its events (gpstrackd(8)): fixes skipped at the stop, malformed
/// gpsd lines logged at most once a minute with exact counts, and a step counter's garbage.
@Suite struct NoticeTests {
    static let t0 = 1_773_475_200.0  // 2026-03-14T08:00:00Z

    /// A walk north at 1.4 m/s, one 3D fix a second.
    static func walk(_ n: Int, from t: Double = t0) -> [Fix] {
        (0..<n).map { i in
            Fix(
                mode: 3, time: t + Double(i), latitude: 48.1 + Double(i) * 1.4 / 111_200, longitude: 11.5,
                altitude: 520, eph: 4, speed: 1.4, track: 0)
        }
    }

    static func fields(_ entry: LogEntry) -> [String: String] {
        Dictionary(entry.fields.map { ($0.0.rawValue, $0.1) }, uniquingKeysWith: { a, _ in a })
    }

    /// Once the stop has begun, the fixes still waiting are skipped and counted, outages still
    /// handled; the count is the *stop_skipped_fixes* entry's (info, GPSTRACK_SKIPPED).
    @Test func fixesWaitingAtTheStopAreSkippedAndCounted() async throws {
        let h = try await TrackerHarness { $0.pedometer = .off }
        let source = try GPSDSource(host: "127.0.0.1", port: 9)
        let (stream, input) = AsyncStream.makeStream(of: [GPSDSource.Event].self)
        let fixes = Self.walk(10)
        // The first batch before the stop, the second after it began: 7 fixes and an outage.
        input.yield(fixes.prefix(3).map { .record(.tpv($0)) })
        input.yield(fixes.dropFirst(3).map { .record(.tpv($0)) } + [.lost(reason: "test outage")])
        input.finish()
        let asked = Atomic<Int>(0)
        let skipped = await h.tracker.follow(stream, of: source) {
            asked.add(1, ordering: .relaxed).newValue > 1
        }
        #expect(skipped == 7, "the second batch's fixes")
        let status = try await h.request(.status, as: StatusReply.self)
        #expect(status.counters.fixesTotal == 3, "only the first batch's fixes were processed")
        #expect(h.journal.entries(.gpsdLost).count == 1, "the outage is handled while skipping")
        let entry = try #require(TrackerService.skippedAtStop(skipped))
        #expect(entry.event.rawValue == "stop_skipped_fixes" && entry.priority == .info)
        #expect(Self.fields(entry)["GPSTRACK_SKIPPED"] == "7")
        #expect(TrackerService.skippedAtStop(0) == nil, "nothing skipped, nothing logged")
        await h.close()
    }

    /// Malformed lines: one *malformed* warning for a burst, the next a minute later naming how
    /// many were skipped since and in all; tracking goes on between them.
    @Test func malformedLinesAreLoggedOnceAMinuteWithExactCounts() async throws {
        let h = try await TrackerHarness { $0.pedometer = .off }
        let fixes = Self.walk(60)
        for (i, fix) in fixes.prefix(30).enumerated() {
            await h.tracker.handle(.record(.tpv(fix)))
            await h.tracker.handle(.record(.malformed(reason: "burst one \(i)")))
            await h.tracker.handle(.record(.malformed(reason: "burst one \(i)b")))
        }
        let first = h.journal.entries(.malformed)
        try #require(first.count == 1, "60 malformed lines within a minute: one entry, not \(first.count)")
        #expect(first[0].priority == .warning)
        #expect(Self.fields(first[0])["GPSTRACK_REASON"] == "burst one 0")
        #expect(
            Self.fields(first[0])["GPSTRACK_SKIPPED"] == "1" && Self.fields(first[0])["GPSTRACK_MALFORMED_TOTAL"] == "1"
        )
        // A minute passes on the tracker's monotonic clock (the harness's, moved by the test).
        h.clock.advance(TrackerService.malformedLogInterval)
        for (i, fix) in fixes.dropFirst(30).enumerated() {
            await h.tracker.handle(.record(.tpv(fix)))
            await h.tracker.handle(.record(.malformed(reason: "burst two \(i)")))
        }
        let all = h.journal.entries(.malformed)
        try #require(all.count == 2, "one entry for each minute: \(all.count)")
        let second = Self.fields(all[1])
        #expect(second["GPSTRACK_REASON"] == "burst two 0")
        #expect(second["GPSTRACK_SKIPPED"] == "60", "59 unlogged from the first burst and this one")
        #expect(second["GPSTRACK_MALFORMED_TOTAL"] == "61")
        #expect(all[1].message.contains("60 malformed lines since the last entry, 61 in all"), "\(all[1].message)")
        await h.endFeed()  // the last epoch, held back for its SKY, is processed
        let status = try await h.request(.status, as: StatusReply.self)
        #expect(status.counters.fixesTotal == 60, "every fix between the garbage was processed")
        await h.close()
    }

    /// A step counter that jumps beyond what a sprinter could walk: *pedometer_garbage* (info)
    /// naming the raw value, taken as the new baseline, nothing counted for it.
    @Test func aStepCounterJumpIsGarbageNamedAndNotCounted() async throws {
        let h = try await TrackerHarness { $0.pedometer = .auto }
        await h.tracker.handleSteps(.found(source: "iio:device0", kind: "step counter", again: false))
        await h.tracker.handleSteps(.counter(raw: 1000, time: 100))  // the baseline
        await h.tracker.handleSteps(.counter(raw: 1012, time: 101))  // 12 steps
        // 10 steps/s and 200 more are believed over one second; 90,000 are not.
        await h.tracker.handleSteps(.counter(raw: 91_012, time: 102))
        await h.tracker.handleSteps(.counter(raw: 91_020, time: 103))  // 8 steps from the new baseline
        let garbage = h.journal.entries(.pedometerGarbage)
        try #require(garbage.count == 1, "one jump, one entry: \(garbage.count)")
        #expect(garbage[0].event.rawValue == "pedometer_garbage" && garbage[0].priority == .info)
        #expect(Self.fields(garbage[0])["GPSTRACK_RAW"] == "91012", "gpstrackd(8): the raw value that did not read")
        #expect(Self.fields(garbage[0])["GPSTRACK_SOURCE"] == "iio:device0")
        let status = try await h.request(.status, as: StatusReply.self)
        #expect(status.steps?.total == 20, "12 before the jump and 8 after it, none for the jump")
        #expect(h.journal.entries(.pedometerReset).isEmpty, "a jump forward is no reset")
        await h.close()
    }
}
