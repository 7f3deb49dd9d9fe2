import Foundation
import GPSTrackCore
import GPSTrackExport
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// The map page of the seeded day (`export --format html --day`) in a real browser: headless
/// Chromium, network off (scripts/page-screenshot.sh, the command that also makes docs'
/// screenshot), renders it without a console message, its script runs, and the screenshot has
/// the track's colours where the documented projection puts the points.
@Suite(
    .serialized, .needsLiveParts,
    .needs(
        .tool("/usr/bin/chromium", package: "chromium"), .root,
        .file(MapPage.Leaflet.directory + "/leaflet.min.js", package: "libjs-leaflet")))
struct MapPageTests {
    static let script = ExecutableRunner.packageRoot.appendingPathComponent("scripts/page-screenshot.sh").path
    static let palette = ["#2c7bb6", "#00a6ca", "#4dac26", "#e6b800", "#f28e2b", "#d7191c"].map { hex in
        let v = Int(hex.dropFirst(), radix: 16)!
        return [(v >> 16) & 255, (v >> 8) & 255, v & 255]
    }

    /// RGB of the PNG's pixels at `points` (Python's zlib reads the file: no decoder of ours).
    static func pixels(_ png: String, _ points: [(Int, Int)]) throws -> [[Int]] {
        let list = points.map { "\($0.0) \($0.1)" }.joined(separator: "\n")
        let r = try ExportDay.tool(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sys, zlib, struct
                d = open(sys.argv[1], 'rb').read(); assert d[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
                i, idat = 8, b''
                while i < len(d):
                    n, t = struct.unpack('>I4s', d[i:i+8]); c = d[i+8:i+8+n]; i += 12 + n
                    if t == b'IHDR': w, h, depth, ct = struct.unpack('>IIBB', c[:10])
                    if t == b'IDAT': idat += c
                bpp = {2: 3, 6: 4}[ct]; raw = zlib.decompress(idat); stride = w * bpp; rows = []; prev = bytearray(stride)
                for y in range(h):
                    f = raw[y*(stride+1)]; line = bytearray(raw[y*(stride+1)+1:(y+1)*(stride+1)])
                    for x in range(stride):
                        a = line[x-bpp] if x >= bpp else 0; b = prev[x]; c = prev[x-bpp] if x >= bpp else 0
                        if f == 1: line[x] = (line[x] + a) & 255
                        elif f == 2: line[x] = (line[x] + b) & 255
                        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
                        elif f == 4:
                            p = a + b - c; pa, pb, pc = abs(p-a), abs(p-b), abs(p-c)
                            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                    rows.append(line); prev = line
                print(w, h)
                for s in sys.stdin.read().split('\\n'):
                    if not s: continue
                    x, y = map(int, s.split())
                    print(*(rows[y][x*bpp:x*bpp+3]) if 0 <= x < w and 0 <= y < h else (-1, -1, -1))
                """, png,
            ], stdin: Data(list.utf8))
        try #require(r.status == 0, "\(r.err)")
        return r.out.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
    }

    static func isTrack(_ rgb: [Int]) -> Bool {
        palette.contains { c in zip(c, rgb).map { abs($0 - $1) }.max()! <= 40 }
    }

    @Test func theDaysPageRendersOfflineWithTheTrackWhereItsPointsFall() throws {
        let day = try ExportDay.shared()
        let daemon = try day.daemon()
        let page = try ExportDay.export(daemon, "html", ["--day", day.dayText], file: "day.html")
        try #require(page.status == 0, "\(page.stderr)")
        let csv = try ExportDay.export(daemon, "csv", ["--day", day.dayText], file: "day-page.csv")
        // The streets' variant (issue 44): the same day over the tiles of MapTilesTests' server.
        let tiled = try ExportDay.export(
            daemon, "html", ["--day", day.dayText, "--tiles", MapTilesTests.tiles.url], file: "day-tiles.html")
        try #require(tiled.status == 0, "\(tiled.stderr)")
        #expect(daemon.stop() == 0)
        #expect(page.stdout.contains("Content-Security-Policy") && page.stdout.contains("default-src 'none'"))
        #expect(
            !page.stdout.contains("http://")
                || !page.stdout.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http://"),
            "no address to fetch from but the SVG namespace")
        #expect(
            page.stdout.components(separatedBy: "<tr><td>").count - 1 == day.trips.count + day.stops.count,
            "a row per trip and stop")

        // The page's script ran, and Chromium logged no console message (a CSP refusal, an
        // error); the same check on a page that does log one sees it.
        let dom = try ExportDay.tool("/bin/sh", [Self.script, page.path, "-"])
        #expect(
            dom.status == 0 && dom.out.contains("data-ready=\"1\""), "the script did not run: \(dom.err.suffix(2000))")
        #expect(!dom.err.contains("CONSOLE") && !dom.err.contains("Refused"), "\(dom.err.suffix(3000))")
        let bad = try ExecutableRunner.temporaryFile(
            "bad.html", contents: "<script>console.error('broken')</script><img src=\"http://192.0.2.1/x.png\">")
        let control = try ExportDay.tool("/bin/sh", [Self.script, bad, "-"])
        #expect(control.err.contains("CONSOLE"), "the console check sees a page's error: \(control.err.suffix(2000))")

        // Its labels as the browser lays them out: none over another or over a marker (issue 44).
        let labels = try MapLabelsTests.layout(page.path)
        #expect(labels.labels.count >= day.stops.count && !labels.markers.isEmpty, "\(labels)")
        let overlaps = MapLabelsTests.overlaps(labels)
        #expect(overlaps.isEmpty, "\(overlaps.count) overlaps: \(overlaps.prefix(5))")

        let png = ExecutableRunner.packageRoot.appendingPathComponent(".build/export-day.png").path
        let shot = try ExportDay.tool("/bin/sh", [Self.script, page.path, png, "1000,1500"])
        try #require(shot.status == 0, "\(shot.err.suffix(2000))")
        #expect(!shot.err.contains("CONSOLE"), "\(shot.err.suffix(2000))")

        // The projection, from the points themselves and the page's documented viewport
        // (1000 x 700 units drawn 1000 px wide, 40 units of margin), as MapProjection documents it.
        let rows = csv.stdout.split(separator: "\r\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let points = rows.compactMap { r -> Coordinate? in
            guard let lat = Double(r[1]), let lon = Double(r[2]) else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
        try #require(points.count > 100)
        let lats = points.map(\.latitude)
        let lons = points.map(\.longitude)
        let lat0 = (lats.min()! + lats.max()!) / 2
        let lon0 = (lons.min()! + lons.max()!) / 2
        let r = 6_371_008.8
        let c = cos(lat0 * .pi / 180)
        let spanX = (lons.max()! - lons.min()!) * .pi / 180 * r * c
        let spanY = (lats.max()! - lats.min()!) * .pi / 180 * r
        let k = min(920 / max(spanX, 100), 620 / max(spanY, 100))
        func pixel(_ p: Coordinate) -> (Double, Double) {
            (500 + k * r * c * (p.longitude - lon0) * .pi / 180, 350 - k * r * (p.latitude - lat0) * .pi / 180)
        }
        let projected = points.map(pixel)
        let onTrack = try Self.pixels(png, projected.map { (Int($0.0.rounded()), Int($0.1.rounded())) })
        try #require(onTrack.first == [1000, 1500], "the screenshot is the window's size: \(onTrack.first ?? [])")
        let hits = onTrack.dropFirst().filter(Self.isTrack).count
        // Markers and labels cover a few points: most must show the track's colours.
        #expect(
            Double(hits) >= 0.85 * Double(points.count), "\(hits) of \(points.count) projected points on track colours")
        // Mirrored top to bottom, where no point falls, the track is not.
        let mirrored = projected.map { ($0.0, 700 - $0.1) }.filter { m in
            projected.allSatisfy { abs($0.0 - m.0) > 12 || abs($0.1 - m.1) > 12 }
        }
        let off = try Self.pixels(png, mirrored.map { (Int($0.0.rounded()), Int($0.1.rounded())) }).dropFirst().filter(
            Self.isTrack
        ).count
        #expect(
            mirrored.count > 20 && Double(off) <= 0.05 * Double(mirrored.count),
            "\(off) of \(mirrored.count) mirrored places on track colours")

        // A phone: the map fits the 390 px width (drawn at 0.39 of its units).
        let phone = ExecutableRunner.packageRoot.appendingPathComponent(".build/export-day-phone.png").path
        #expect(try ExportDay.tool("/bin/sh", [Self.script, page.path, phone, "390,844"]).status == 0)
        let small = try Self.pixels(
            phone, projected.map { (Int(($0.0 * 0.39).rounded()), Int(($0.1 * 0.39).rounded())) })
        #expect(
            Double(small.dropFirst().filter(Self.isTrack).count) >= 0.6 * Double(points.count),
            "the track on a phone's width")

        // Over tiles: Leaflet shows them with the attribution, nothing at the console.
        let docs = ProcessInfo.processInfo.environment["GPSTRACK_DOCS_SCREENSHOT"] ?? ""
        let streets = try MapTilesTests.render(
            tiled.path, server: true, name: "day", style: docs.isEmpty ? "magenta" : "pale")
        #expect(streets.dom.contains("data-tiles=\"shown\"") && streets.dom.contains("OpenStreetMap</a> contributors"))
        #expect(MapTilesTests.console(streets.err).isEmpty, "\(MapTilesTests.console(streets.err))")
        if !docs.isEmpty {
            _ = try? FileManager.default.removeItem(atPath: docs)
            try FileManager.default.copyItem(atPath: png, toPath: docs)
            let tiles = (docs as NSString).deletingPathExtension + "-tiles.png"
            _ = try? FileManager.default.removeItem(atPath: tiles)
            try FileManager.default.copyItem(atPath: streets.png, toPath: tiles)
        }
    }
}
