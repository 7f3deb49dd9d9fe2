import Foundation
import GPSTrackCore
import GPSTrackProtocol
import Testing

@testable import GPSTrackDaemon

/// `export_page` with `anchor`, page by page over a session's anchor track: every fix once, in
/// order, the cursor moving on, and a raise between pages said.
@Suite struct AnchorExportPageTests {
    static let anchor = Coordinate(latitude: 54.32, longitude: 10.14)
    static let t0 = 1_773_475_200.0

    static func fix(_ t: Double, _ at: Coordinate) -> Fix {
        Fix(mode: 3, time: t, latitude: at.latitude, longitude: at.longitude, eph: 5, speed: .nan, track: .nan)
    }

    /// A session anchored at `t0` that then swung through `n` fixes, 12 m out, 2 degrees a second.
    static func swung(_ n: Int) -> (TrackingSession, [Coordinate]) {
        var session = TrackingSession(config: TrackerConfig())
        _ = session.ingest(fix(t0, anchor))
        _ = session.dropAnchor(at: anchor, radiusM: 40, time: t0)
        let fed = (1...n).map { Geodesic.destination(from: anchor, azimuth: Double($0 * 2 % 360), distance: 12) }
        for (k, c) in fed.enumerated() { _ = session.ingest(fix(t0 + Double(k + 1), c)) }
        return (session, fed)
    }

    static func page(_ s: TrackingSession, after: Int?, limit: Int) throws -> ExportPageReply {
        let reply = try AnchorExport.page(s, after: after, limit: limit).get()
        return try #require(reply as? ExportPageReply)
    }

    @Test func pagesGiveEveryFixOnceInOrderWithTheAnchorFirst() throws {
        let (session, fed) = Self.swung(250)
        var after: Int?
        var got: [ExportPoint] = []
        var pages: [ExportPageReply] = []
        repeat {
            let p = try Self.page(session, after: after, limit: 100)
            pages.append(p)
            got += p.points
            after = p.after
        } while after != nil && pages.count < 10
        #expect(pages.map(\.points.count) == [100, 100, 50])
        #expect(pages.first?.context != nil && pages.dropFirst().allSatisfy { $0.context == nil })
        let a = try #require(pages.first?.context?.events.first)
        #expect(
            a.kind == "anchor" && a.radiusM == 40 && a.lat == Self.anchor.latitude && a.lon == Self.anchor.longitude)
        #expect(got.count == fed.count)
        for (p, c) in zip(got, fed) {
            #expect(p.lat == c.latitude && p.lon == c.longitude)
        }
        #expect(got.map(\.time) == (1...250).map { Self.t0 + Double($0) })
        #expect(Set(got.map(\.id)).count == 250, "each id once")
        // One segment: the first point starts it, the ones after a page's end go on from it.
        #expect(got.first?.segment == true && got.dropFirst().allSatisfy { !$0.segment && $0.speedMps != nil })
    }

    @Test func theAnchorUpIsNothingToExportAndARaiseBetweenPagesAnError() throws {
        let up = try AnchorExport.page(TrackingSession(config: TrackerConfig()), after: nil, limit: 100).get()
        #expect((up as? ExportPageReply)?.empty == "the anchor is up")
        var (session, _) = Self.swung(150)
        let first = try Self.page(session, after: nil, limit: 100)
        _ = session.raiseAnchor(time: Self.t0 + 151)
        #expect(throws: ControlError.self) { try AnchorExport.page(session, after: first.after, limit: 100).get() }
    }
}
