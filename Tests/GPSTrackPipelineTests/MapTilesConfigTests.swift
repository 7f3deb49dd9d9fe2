import Foundation
import GPSTrackCore
import GPSTrackExport
import GPSTrackProtocol
import GPSTrackTestKit
import GPSTrackVocabulary
import Testing

/// `map_tiles_url` (gpstrackd.conf(5), MAP PAGE) read strictly, carried to the export, and a
/// page whose tiles have no Leaflet to draw them saying so (the browser side: MapTilesTests).
@Suite struct MapTilesConfigTests {
    @Test func aTileURLIsReadStrictly() throws {
        let osm = try #require(try MapTiles.parse("https://tile.openstreetmap.org/{z}/{x}/{y}.png").get())
        #expect(osm.origin == "https://tile.openstreetmap.org" && osm.attribution == MapTiles.osmAttribution)
        #expect(try MapTiles.parse("none").get() == nil)
        let local = try #require(try MapTiles.parse("http://10.0.0.2:8080/tiles/{z}/{x}/{y}.png?style=a").get())
        #expect(local.origin == "http://10.0.0.2:8080")
        for bad in [
            "ftp://a/{z}/{x}/{y}.png", "https://{s}.tile.example/{z}/{x}/{y}.png", "https://a/{z}/{x}.png",
            "https://a/{z}/{x}/{y}.png\"><script>", "https://a/{z}/{x}/{y}.png' x", "https://a/{z}/{x}/{y}/{r}.png",
            "https://user@a/{z}/{x}/{y}.png", "https://a/" + String(repeating: "a", count: 600) + "/{z}/{x}/{y}", "",
        ] {
            #expect(throws: MapTiles.Refusal.self, "\(bad)") { try MapTiles.parse(bad).get() }
        }
    }

    @Test func theKeysAreReadDumpedAndRefusedWithTheLine() throws {
        let c = try ConfigParser.parse(
            "map_tiles_attribution = © my tiles\nmap_tiles_url = http://127.0.0.1:8080/{z}/{x}/{y}.png\n",
            file: "t.conf")
        #expect(c.mapTiles?.url == "http://127.0.0.1:8080/{z}/{x}/{y}.png" && c.mapTiles?.attribution == "© my tiles")
        #expect(Configuration().mapTiles == nil, "none by default")
        #expect(throws: (any Error).self) {
            try ConfigParser.parse("\nmap_tiles_url = javascript:alert(1)\n", file: "t.conf")
        }
        do {
            _ = try ConfigParser.parse("\nmap_tiles_url = https://{s}.a/{z}/{x}/{y}.png\n", file: "t.conf")
        } catch {
            #expect("\(error)".contains("t.conf:2") && "\(error)".contains("map_tiles_url"), "\(error)")
        }
    }

    @Test func theDaemonsTilesReachTheExportsContext() async throws {
        let h = try await TrackerHarness {
            $0.pedometer = .off
            $0.mapTiles = try? MapTiles.parse("http://127.0.0.1:8080/{z}/{x}/{y}.png", attribution: "© test").get()
        }
        let t0 = 1_773_475_200.0
        await h.feed(
            (0..<5).map { i in
                Fix(mode: 3, time: t0 + Double(i), latitude: 52.52, longitude: 13.405 + Double(i) * 0.0001, eph: 4)
            })
        await h.endFeed()
        let page = try await h.request(
            .exportPage(ExportScope(trip: nil, since: nil, until: nil), after: nil), as: ExportPageReply.self)
        let context = try #require(page.context)
        #expect(context.tiles == "http://127.0.0.1:8080/{z}/{x}/{y}.png" && context.tilesAttribution == "© test")
        await h.close()
    }

    @Test func withoutLeafletThePageIsTheSVGPageAndSaysSo() throws {
        let bounds = ExportBounds(
            points: 1, first: 0, last: 1, minLat: 52, maxLat: 52, minLon: 13, maxLon: 13, minAlt: nil, maxAlt: nil)
        var context = ExportContext(trips: [], stops: [], events: [], fences: [], bounds: bounds)
        context.tiles = "http://127.0.0.1:8080/{z}/{x}/{y}.png"
        var html = ""
        var page = MapPage(title: "t", leaflet: MapPage.Leaflet.load(from: "/nonexistent")) { html += $0 }
        page.begin(context)
        page.finish()
        #expect(html.contains("streets under it need the package libjs-leaflet") && !html.contains("id=\"lmap\""))
        #expect(html.contains("img-src data:;"), "no origin allowed")
        // A context whose URL does not read (a hostile reply) is no tiles, quietly.
        context.tiles = "javascript:alert(1)//{z}{x}{y}"
        html = ""
        var hostile = MapPage(title: "t", leaflet: MapPage.Leaflet(js: "L.version", css: "")) { html += $0 }
        hostile.begin(context)
        hostile.finish()
        #expect(!html.contains("javascript:") && !html.contains("id=\"lmap\""))
    }
}
