import Foundation
import GPSTrackCore
import GPSTrackExport
import GPSTrackVocabulary
import Testing

/// The map page's streets (issue 44) in headless Chromium, in a network namespace whose only
/// network is its loopback: a tile server of the test's there (Tests/http/tile_server.py, every
/// tile one magenta PNG) and Chromium's net log, which holds every request the page made. Up,
/// the tiles are drawn under the track and the attribution is shown, and nothing but tiles is
/// fetched; down, the page is the SVG page, quietly; with no tiles, the page fetches nothing.
@Suite(
    .serialized,
    .needs(
        .tool("/usr/bin/chromium", package: "chromium"), .root,
        .file(MapPage.Leaflet.directory + "/leaflet.min.js", package: "libjs-leaflet")))
struct MapTilesTests {
    /// The namespace is the test's own: no other program can hold this port there.
    static let port = 18_080
    static let tiles = try! MapTiles.parse("http://127.0.0.1:\(port)/{z}/{x}/{y}.png").get()!

    struct Rendered {
        var dom: String
        var err: String
        var png: String
        /// The paths the tile server was asked for, and every URL in Chromium's net log.
        var served: [String]
        var requested: [String]
    }

    /// Renders `page` twice (its DOM, then a screenshot), the tile server up or not.
    static func render(_ page: String, server: Bool, name: String, style: String = "magenta") throws -> Rendered {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gpstrackd-tests-\(getpid())/tiles-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let log = base + "/served.log"
        let png = ExecutableRunner.packageRoot.appendingPathComponent(".build/map-tiles-\(name).png").path
        var requested: [String] = []
        var out: (status: Int32, out: String, err: String) = (0, "", "")
        var err = ""
        for (i, target) in ["-", png].enumerated() {
            let net = base + "/net-\(i).json"
            var env = ["PAGE_TILE_PORT=\(port)", "PAGE_NETLOG=\(net)", "PAGE_TILE_STYLE=\(style)"]
            if server { env.append("PAGE_TILE_LOG=\(log)") }
            let r = try ExecutableRunner.run(
                env + ["/bin/sh", MapPageTests.script, page, target, "1000,1500"], executable: "/usr/bin/env")
            try #require(r.status == 0, "\(r.stderr.suffix(2000))")
            if i == 0 { out = (r.status, r.stdout, r.stderr) }
            err += r.stderr
            requested += try Self.pageRequests(net)
        }
        let served = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        return Rendered(dom: out.out, err: err, png: png, served: served, requested: requested)
    }

    /// The URLs the page asked for, from Chromium's net log: each request's start whose network
    /// isolation key is the page's (`file://`); the browser's own requests (its component
    /// updater) have none.
    static func pageRequests(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "a net log")
        let types = try #require((log["constants"] as? [String: Any])?["logEventTypes"] as? [String: Int])
        let start = try #require(types["URL_REQUEST_START_JOB"])
        let events = try #require(log["events"] as? [[String: Any]])
        return events.compactMap { e in
            guard e["type"] as? Int == start, let p = e["params"] as? [String: Any],
                (p["network_isolation_key"] as? String)?.hasPrefix("file://") == true
            else { return nil }
            return p["url"] as? String
        }
    }

    /// The network's requests among `urls` (the page's own file and data: URLs are not).
    static func network(_ urls: [String]) -> [String] {
        urls.filter { $0.hasPrefix("http") || $0.hasPrefix("ws") || $0.hasPrefix("ftp") }
    }

    /// Chromium's console lines in its log, the browser's own pages' (`chrome://`) left out.
    static func console(_ err: String) -> [Substring] {
        err.split(separator: "\n").filter { $0.contains("CONSOLE") && !$0.contains("source: chrome://") }
    }

    /// The screenshot's pixels on a 20-unit grid of the map's plot area.
    static func grid(_ png: String) throws -> [[Int]] {
        var points: [(Int, Int)] = []
        for y in stride(from: 10, to: 700, by: 20) {
            for x in stride(from: 10, to: 1000, by: 20) { points.append((x, y)) }
        }
        return Array(try MapPageTests.pixels(png, points).dropFirst())
    }

    static func magenta(_ rgb: [Int]) -> Bool { rgb.count == 3 && rgb[0] > 220 && rgb[1] < 40 && rgb[2] > 220 }

    /// The track's points where the documented projection puts them (as MapPageTests does).
    static func projected() -> [(Int, Int)] {
        let lats = MapLabelsTests.track.map(\.latitude)
        let lons = MapLabelsTests.track.map(\.longitude)
        let lat0 = (lats.min()! + lats.max()!) / 2
        let lon0 = (lons.min()! + lons.max()!) / 2
        let r = 6_371_008.8
        let c = cos(lat0 * .pi / 180)
        let k = min(
            920 / max((lons.max()! - lons.min()!) * .pi / 180 * r * c, 100),
            620 / max((lats.max()! - lats.min()!) * .pi / 180 * r, 100))
        return MapLabelsTests.track.map { p in
            (
                Int((500 + k * r * c * (p.longitude - lon0) * .pi / 180).rounded()),
                Int((350 - k * r * (p.latitude - lat0) * .pi / 180).rounded())
            )
        }
    }

    @Test func upTheTilesAreDrawnUnderTheTrackWithTheAttributionAndNothingElseIsFetched() throws {
        let leaflet = try #require(MapPage.Leaflet.load())
        let page = try MapLabelsTests.crowdedPage(tiles: .url(Self.tiles), leaflet: leaflet)
        defer { try? FileManager.default.removeItem(atPath: page) }
        let r = try Self.render(page, server: true, name: "up")
        #expect(r.dom.contains("data-tiles=\"shown\""), "a tile loaded and the map was shown")
        #expect(
            !r.served.isEmpty && r.served.allSatisfy { $0.wholeMatch(of: #/\/\d+\/\d+\/\d+\.png/#) != nil },
            "\(r.served)")
        let fetched = Self.network(r.requested)
        #expect(!fetched.isEmpty && fetched.allSatisfy { $0.hasPrefix("http://127.0.0.1:\(Self.port)/") }, "\(fetched)")
        #expect(r.dom.contains("leaflet-control-attribution") && r.dom.contains("OpenStreetMap</a> contributors"))
        #expect(Self.console(r.err).isEmpty, "\(Self.console(r.err))")
        let grid = try Self.grid(r.png)
        let tiled = grid.filter(Self.magenta).count
        #expect(Double(tiled) >= 0.5 * Double(grid.count), "\(tiled) of \(grid.count) grid points on a tile")
        let onTrack = try MapPageTests.pixels(r.png, Self.projected()).dropFirst()
        let hits = onTrack.filter(MapPageTests.isTrack).count
        #expect(
            Double(hits) >= 0.7 * Double(onTrack.count),
            "\(hits) of \(onTrack.count) points on the track, over the tiles")
    }

    @Test func downThePageIsTheSVGPageQuietly() throws {
        let leaflet = try #require(MapPage.Leaflet.load())
        let page = try MapLabelsTests.crowdedPage(tiles: .url(Self.tiles), leaflet: leaflet)
        defer { try? FileManager.default.removeItem(atPath: page) }
        let r = try Self.render(page, server: false, name: "down")
        #expect(r.dom.contains("data-tiles=\"failed\"") && !r.dom.contains("lmap\" class=\"on"), "the map stays hidden")
        #expect(Self.console(r.err).isEmpty, "\(Self.console(r.err))")
        let grid = try Self.grid(r.png)
        #expect(!grid.contains(where: Self.magenta))
        let background = [246, 244, 238]
        let drawn = grid.filter { $0 != background && $0 != [255, 255, 255] }.count
        #expect(drawn >= 20, "\(drawn) grid points drawn on")
        let colours = Set(
            try MapPageTests.pixels(r.png, Self.projected()).dropFirst().compactMap { rgb in
                MapPageTests.palette.firstIndex { c in zip(c, rgb).map { abs($0 - $1) }.max()! <= 40 }
            })
        #expect(colours.count >= 2, "the speed colours seen: \(colours)")
    }

    @Test func withNoTilesThePageFetchesNothing() throws {
        let page = try MapLabelsTests.crowdedPage(tiles: .none, leaflet: MapPage.Leaflet.load())
        defer { try? FileManager.default.removeItem(atPath: page) }
        let r = try Self.render(page, server: true, name: "none")
        #expect(Self.network(r.requested).isEmpty, "\(Self.network(r.requested))")
        #expect(r.served.isEmpty && !r.dom.contains("id=\"lmap\""))
        #expect(Self.console(r.err).isEmpty, "\(Self.console(r.err))")
    }
}
