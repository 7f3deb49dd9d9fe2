import Foundation
import GPSTrackCore
import GPSTrackExport
import GPSTrackJSON
import GPSTrackProtocol
import Testing

/// The map page's labels never overlap (issue 44): measured in a real browser, headless
/// Chromium with the network off (scripts/page-screenshot.sh), as the boxes its layout gives
/// the label texts, not as the page's own estimates. The seeded day's page is checked in
/// `MapPageTests`; here a day whose 30 events lie within 100 m of each other.
@Suite(.serialized, .needs(.tool("/usr/bin/chromium", package: "chromium"), .root))
struct MapLabelsTests {
    /// What the browser laid out: every label's box, every marker's, in the map's units.
    struct Layout {
        var labels: [[Double]]
        var markers: [[Double]]
        var listed: Int
    }

    /// Renders `page` with a script of the test's appended that writes the boxes into the DOM.
    static func layout(_ page: String) throws -> Layout {
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let probe = """
            <script>(function(){function boxes(q){var r=[];document.querySelectorAll(q).forEach(function(t){\
            var b=t.getBBox();r.push([b.x,b.y,b.width,b.height]);});return JSON.stringify(r);}\
            document.body.setAttribute('data-labels',boxes('#map text.lbl'));\
            document.body.setAttribute('data-markers',boxes('#map .ev, #map .stop'));\
            document.body.setAttribute('data-listed',document.querySelectorAll('#labels li').length);})();</script>
            """
        let probed = try ExecutableRunner.temporaryFile(
            "labels-\(UUID().uuidString).html",
            contents: html.replacingOccurrences(of: "</body>", with: probe + "</body>"))
        defer { try? FileManager.default.removeItem(atPath: probed) }
        let dom = try ExportDay.tool("/bin/sh", [MapPageTests.script, probed, "-"])
        try #require(dom.status == 0, "\(dom.err.suffix(2000))")
        #expect(!dom.err.contains("CONSOLE"), "\(dom.err.suffix(2000))")
        func attribute(_ name: String) throws -> String {
            let m = try #require(dom.out.firstMatch(of: try Regex("\(name)=\"([^\"]*)\"")), "no \(name)")
            return String(m.output[1].substring ?? "")
        }
        func boxes(_ name: String) throws -> [[Double]] {
            let v = try JSONValue.parse(Array(try attribute(name).utf8))
            return (v.array ?? []).map { ($0.array ?? []).compactMap(\.number) }
        }
        return Layout(
            labels: try boxes("data-labels"), markers: try boxes("data-markers"),
            listed: Int(try attribute("data-listed")) ?? -1)
    }

    static func intersect(_ a: [Double], _ b: [Double]) -> Bool {
        a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]
    }

    /// Every pair of label boxes apart, and no label over a marker; returns the pairs that are not.
    static func overlaps(_ l: Layout) -> [String] {
        var bad: [String] = []
        for i in l.labels.indices {
            for j in l.labels.indices where j > i && intersect(l.labels[i], l.labels[j]) {
                bad.append("labels \(l.labels[i]) and \(l.labels[j])")
            }
            for m in l.markers where intersect(l.labels[i], m) { bad.append("label \(l.labels[i]) over marker \(m)") }
        }
        return bad
    }

    /// A day of 3 km with 30 fence events within 100 m of the shop, and two stops there; the
    /// first half of the track at 3 m/s, the second at 15 m/s (two of the speed colours).
    static func crowdedPage(tiles: MapPage.TilesChoice = .daemon, leaflet: MapPage.Leaflet? = nil) throws -> String {
        let shop = Self.shop
        let t0 = 1_773_475_200.0
        let track = Self.track
        let events = (0..<30).map { i in
            let at = Geodesic.destination(from: shop, azimuth: Double(i) * 37, distance: Double(i % 10) * 10)
            return ExportEvent(
                kind: i % 2 == 0 ? "enter" : "exit", fence: "shop", name: "Shop",
                time: Timestamp.iso8601(t0 + Double(i) * 60),
                lat: at.latitude, lon: at.longitude)
        }
        let stops = (0..<2).map { i in
            StopRow(
                arrival: Timestamp.iso8601(t0 + Double(i) * 900),
                departure: Timestamp.iso8601(t0 + Double(i) * 900 + 600),
                durationS: 600, at: Place(lat: shop.latitude, lon: shop.longitude, fences: ["Shop"]), afterTrip: nil)
        }
        let lats = track.map(\.latitude)
        let lons = track.map(\.longitude)
        let bounds = ExportBounds(
            points: track.count, first: t0, last: t0 + 3000, minLat: lats.min()!, maxLat: lats.max()!,
            minLon: lons.min()!,
            maxLon: lons.max()!, minAlt: nil, maxAlt: nil)
        var html = ""
        var page = MapPage(title: "A crowded day", tiles: tiles, leaflet: leaflet) { html += $0 }
        page.begin(ExportContext(trips: [], stops: stops, events: events, fences: [], bounds: bounds))
        for (i, c) in track.enumerated() {
            page.point(
                ExportPoint(
                    id: i + 1, time: t0 + Double(i) * 10, lat: c.latitude, lon: c.longitude, alt: nil, eph: 4, mode: 3,
                    speedMps: i < 150 ? 3 : 15, courseDeg: 60, segment: i == 0))
        }
        page.finish()
        return try ExecutableRunner.temporaryFile("crowded-\(UUID().uuidString).html", contents: html)
    }

    static let shop = Coordinate(latitude: 52.5200, longitude: 13.4050)
    /// 3 km through the shop, a point every 10 m.
    static let track = (0..<300).map { i in
        Geodesic.destination(from: shop, azimuth: 60, distance: Double(i - 150) * 10)
    }

    @Test func thirtyEventsWithin100mHaveNoTwoLabelsOverlapping() throws {
        let page = try Self.crowdedPage()
        defer { try? FileManager.default.removeItem(atPath: page) }
        let l = try Self.layout(page)
        // 32 markers (30 events, 2 stops); each label drawn whole or as its number, listed.
        #expect(l.markers.count == 32, "\(l.markers.count) markers")
        #expect(l.labels.count == 32, "every label drawn, whole or numbered: \(l.labels.count)")
        #expect(l.listed > 0, "so many in 100 m cannot all be drawn whole")
        let bad = Self.overlaps(l)
        #expect(bad.isEmpty, "\(bad.count) overlaps: \(bad.prefix(5))")
    }
}
