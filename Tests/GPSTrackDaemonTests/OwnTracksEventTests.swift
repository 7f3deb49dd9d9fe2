import GPSTrackCore
import GPSTrackJSON
import Testing

@testable import GPSTrackDaemon

/// The one rule for what a tracking event is on OwnTracks (`OwnTracks.part`), which the MQTT
/// and the HTTP reporters both follow: the HTTP reporter now sends the anchor's transitions too.
@Suite struct OwnTracksEventTests {
    static let at = Coordinate(latitude: 59.9, longitude: 10.7)
    /// The step the events come in: no guard armed, the anchor up (their `wtst` is the event's).
    static let step = TrackerStep()

    static func message(_ e: TrackingSession.Event) -> (object: [String: JSONValue], alarm: Bool)? {
        guard
            case .transition(let m)? = OwnTracks.part(
                for: e, tid: "gt", fencesLoadedAt: 1_700_000_000, acc: 4, after: step)
        else { return nil }
        guard case .object(let o) = try? JSONValue.parse(Array(m.payload.utf8)) else {
            Issue.record("not an object: \(m.payload)")
            return nil
        }
        return (o, m.isAlarm)
    }

    @Test func theAnchorRegionIsEnteredAtTheDropAndLeftAtADragsRaiseOnly() throws {
        let t = 1_773_475_200.0
        let dropped = try #require(Self.message(.tracker(.anchor(.dropped(time: t, anchor: Self.at, radiusM: 40)))))
        #expect(dropped.object["event"] == .string("enter") && dropped.object["rid"] == .string("anchor"))
        #expect(!dropped.alarm)
        let raised = try #require(
            Self.message(.tracker(.anchor(.alarm(time: t + 60, at: Self.at, distanceM: 55, repeat: 0)))))
        #expect(raised.object["event"] == .string("leave") && raised.object["desc"] == .string("anchor"))
        #expect(raised.alarm, "kept before locations")
        #expect(Self.message(.tracker(.anchor(.alarm(time: t + 180, at: Self.at, distanceM: 70, repeat: 1)))) == nil)
        #expect(Self.message(.tracker(.anchor(.warning(time: t + 30, at: Self.at, distanceM: 35)))) == nil)
        #expect(Self.message(.tracker(.anchor(.raised(time: t + 900, maxDistanceM: 70)))) == nil)
    }

    @Test func aGuardBreachLeavesTheParkedRegionOnce() throws {
        let t = 1_773_475_200.0
        let breach = try #require(
            Self.message(
                .tracker(.guardBreach(time: t, at: Self.at, parkedAt: Self.at, distanceM: 120, speedMps: 3))))
        #expect(breach.object["rid"] == .string("parked") && breach.object["event"] == .string("leave") && breach.alarm)
        // A repeat is no second transition: the fix it came with goes as a location at once.
        let repeated = TrackingSession.Event.tracker(
            .guardRepeat(time: t + 120, at: Self.at, parkedAt: Self.at, distanceM: 130, speedMps: 3, repeat: 1))
        #expect(Self.message(repeated) == nil)
        let part = OwnTracks.part(for: repeated, tid: "gt", fencesLoadedAt: 1_700_000_000, acc: 4, after: Self.step)
        if case .locationNow? = part {} else { Issue.record("a repeat's part: \(String(describing: part))") }
        #expect(Self.message(.tracker(.fixAcquired(time: t, at: Self.at, device: nil))) == nil)
    }
}
