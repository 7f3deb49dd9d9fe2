import Foundation
import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol
import GPSTrackTestKit
import Testing

@testable import GPSTrackDaemon

/// The tracker's clock between fixes (issue 21: one injected clock): the anchor watch's
/// no-position alarm and the status's ages and uptime read the harness's `ManualClock`, so a
/// silence of exactly 61 s is 61 s whatever the machine's load.
@Suite struct AnchorClockTests {
    static let t0 = 1_773_475_200.0  // 2026-03-14T08:00:00Z

    /// A boat at anchor: 30 3D fixes a second apart, within a metre of one point.
    static func swinging(_ n: Int) -> [Fix] {
        (0..<n).map { i in
            Fix(
                mode: 3, time: t0 + Double(i), latitude: 54.32 + Double(i % 3) * 0.000_004, longitude: 10.14,
                altitude: 2, eph: 3, speed: 0.1, track: 90)
        }
    }

    @Test func silenceAfterTheLastFixRaisesNoPositionOnTheTrackersClock() async throws {
        let h = try await TrackerHarness {
            $0.pedometer = .off
            $0.tracker.anchor.noPositionS = 60
        }
        await h.feed(Self.swinging(30))
        let drop = try await h.request(.anchor(.drop(.init(radiusM: 40))), as: AnchorReply.self)
        #expect(drop.anchor?.radiusM == 40, "dropped: \(String(describing: drop.anchor))")
        #expect(h.journal.entries(.anchorDropped).count == 1)

        // No fix from here on. 59 s of silence: not yet.
        h.clock.advance(59)
        await h.tracker.tickAnchorClock()
        #expect(h.journal.entries(.anchorNoPosition).isEmpty, "59 s is under anchor_no_position_s = 60")

        h.clock.advance(2)
        await h.tracker.tickAnchorClock()
        let alarms = h.journal.entries(.anchorNoPosition)
        try #require(alarms.count == 1, "61 s of silence raises it once: \(alarms.map(\.message))")
        let stored = try await h.request(.events(since: nil, fence: nil), as: EventsReply.self).events
        let line = try #require(stored.last, "the alarm is stored")
        guard case .anchor(let change) = line.body else {
            Issue.record("the last stored event is \(line.body.name.rawValue)")
            return
        }
        #expect(line.body.name.rawValue == "anchor_no_position" && change.silentS == 61, "\(ReplyEncoder.encode(line))")

        let status = try await h.request(.status, as: StatusReply.self)
        #expect(status.uptimeS == 61, "uptime is the tracker's clock: \(status.uptimeS)")
        #expect(status.anchor?.noPosition?.acknowledged == false, "latched until acknowledged")
        await h.close()
    }
}
