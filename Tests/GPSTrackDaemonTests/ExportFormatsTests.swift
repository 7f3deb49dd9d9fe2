import Foundation
import GPSTrackCore
import GPSTrackProtocol
import GPSTrackSim
import Testing

/// `gpstrackctl export --format` of a seeded day (two trips, stops, fence events), read back by
/// readers that share no code with the writers: GDAL's ogrinfo (GeoJSON, KML), xmllint against
/// the GPX 1.1 schema and gpsbabel (GPX), Python's csv module (CSV).
@Suite(
    .serialized, .needsLiveParts,
    .needs(
        .tool("/usr/bin/ogrinfo", package: "gdal-bin"),
        .tool("/usr/bin/gpsbabel", package: "gpsbabel"),
        .tool("/usr/bin/xmllint", package: "libxml2-utils")))
struct ExportFormatsTests {
    /// The published GPX 1.1 schema (scripts/deps.sh test puts it there).
    static let gpxSchema = "Tests/schemas/gpx-1.1.xsd"

    /// One feature as ogrinfo prints it: its fields and its geometry's WKT.
    struct OGRFeature {
        var layer: String
        var fields: [String: String] = [:]
        var wkt = ""
        var type: String { String(wkt.prefix { $0 != " " && $0 != "(" }) }
        /// The WKT's positions as coordinates (x is longitude).
        var coordinates: [Coordinate] {
            let inner = wkt.drop { $0 != "(" }.filter { $0 != "(" && $0 != ")" }
            return inner.split(separator: ",").compactMap { pair in
                let n = pair.split(separator: " ").compactMap { Double($0) }
                return n.count >= 2 ? Coordinate(latitude: n[1], longitude: n[0]) : nil
            }
        }
    }

    /// A time's digits to the second, however a reader prints it.
    static func digits(_ s: String?) -> String { String((s ?? "").filter(\.isNumber).prefix(14)) }

    /// `ogrinfo -ro -al FILE`, parsed: every feature of every layer.
    static func ogr(_ path: String) throws -> [OGRFeature] {
        let r = try ExportDay.tool("/usr/bin/ogrinfo", ["-ro", "-al", "-q", path])
        try #require(r.status == 0, "ogrinfo: \(r.err)")
        var out: [OGRFeature] = []
        for line in r.out.split(separator: "\n").map(String.init) {
            if line.hasPrefix("OGRFeature(") {
                out.append(OGRFeature(layer: String(line.dropFirst(11).prefix { $0 != ")" })))
            } else if line.hasPrefix("  "), !out.isEmpty {
                let t = line.dropFirst(2)
                if let eq = t.range(of: ") = "), let open = t.range(of: " (") {
                    out[out.count - 1].fields[String(t[..<open.lowerBound])] = String(t[eq.upperBound...])
                } else if t.first?.isUppercase == true {
                    out[out.count - 1].wkt = String(t)
                }
            }
        }
        return out
    }

    @Test func geoJSONReadsInOGRWithTheDaemonsFigures() throws {
        let day = try ExportDay.shared()
        let daemon = try day.daemon()
        let r = try ExportDay.export(daemon, "geojson", ["--day", day.dayText], file: "day.geojson")
        try #require(r.status == 0, "\(r.stderr)")
        let features = try Self.ogr(r.path)
        let trips = features.filter { $0.fields["kind"] == "trip" }
        let stops = features.filter { $0.fields["kind"] == "stop" }
        let events = features.filter { !["trip", "stop"].contains($0.fields["kind"] ?? "") }
        try #require(
            day.trips.count == 2 && day.trips.allSatisfy { $0["state"] as? String == "ended" },
            "the seeded day makes two ended trips: \(day.trips)")
        #expect(trips.count == 2 && trips.allSatisfy { $0.type == "LINESTRING" })
        #expect(stops.count == day.stops.count && stops.count >= 1 && stops.allSatisfy { $0.type == "POINT" })
        #expect(
            events.count >= 3 && events.allSatisfy { $0.type == "POINT" && $0.fields["time"] != nil },
            "exit home, enter and exit the shop at least: \(events.map(\.fields))")
        #expect(events.contains { $0.fields["kind"] == "enter" && $0.fields["fence"] == "shop" })
        for (t, d) in zip(trips, day.trips) {
            #expect(t.fields["id"] == "\(d["id"] as? Int ?? -1)")
            // GDAL reads the times as dates (its own parser) and prints them its way.
            #expect(
                Self.digits(t.fields["start"]) == Self.digits(d["started_at"] as? String)
                    && Self.digits(t.fields["end"]) == Self.digits(d["ended_at"] as? String),
                "start \(t.fields["start"] ?? "none"), trips says \(d["started_at"] ?? "none")")
            for (field, key) in [
                ("distance_m", "traveled_m"), ("duration_s", "duration_s"), ("moving_s", "moving_s"),
                ("max_speed_mps", "max_speed_mps"), ("avg_speed_mps", "avg_speed_mps"),
            ] {
                let exported = Double(t.fields[field] ?? "") ?? .nan
                let told = d[key] as? Double ?? .infinity
                #expect(
                    abs(exported - told) < 0.005, "trip \(d["id"] ?? "?") \(field): \(exported), trips says \(told)")
            }
            // The line is the trip's track: GeodSolve's length of it is the odometer's distance
            // (which LiveTripTests checks against the truth) within the jitter it filters out.
            let length = try GeodSolveTruth.lengths([t.coordinates])[0]
            let traveled = d["traveled_m"] as? Double ?? 0
            #expect(
                t.coordinates.count > 20 && abs(length / traveled - 1) < 0.05, "line \(length) m, trip \(traveled) m")
        }
        #expect(stops.first?.fields["fences"] == "Shop", "the first stop is at the shop: \(stops.first?.fields ?? [:])")
        #expect(daemon.stop() == 0)
    }

    /// `--fences`: the day's two circles as Polygons whose points GeodSolve finds at their
    /// radius from their centres (in the fences file); none without the flag.
    @Test func geoJSONWithFencesHasThemAsPolygonsOnTheirCircles() throws {
        let day = try ExportDay.shared()
        let daemon = try day.daemon()
        let r = try ExportDay.export(daemon, "geojson", ["--day", day.dayText, "--fences"], file: "fences.geojson")
        try #require(r.status == 0, "\(r.stderr)")
        let fences = try Self.ogr(r.path).filter { $0.fields["kind"] == "fence" }
        let file = try #require(
            ExecutableRunner.json(try String(contentsOfFile: day.fences, encoding: .utf8))?["features"]
                as? [[String: Any]])
        #expect(fences.map { $0.fields["id"] ?? "" } == ["home", "shop"], "\(fences.map(\.fields))")
        for (f, given) in zip(fences, file) {
            let properties = given["properties"] as? [String: Any] ?? [:]
            let centre = (given["geometry"] as? [String: Any])?["coordinates"] as? [Double] ?? []
            let radius = try #require(properties["radius"] as? Double)
            #expect(
                f.type == "POLYGON" && f.fields["shape"] == "circle"
                    && f.fields["name"] == properties["name"] as? String)
            #expect(Double(f.fields["radius_m"] ?? "") == radius)
            let ring = f.coordinates
            #expect(ring.count == 73 && ring.first == ring.last, "a closed ring of 72 points: \(ring.count)")
            // GeodSolve's inverse problem, one line a point: "azi1 azi2 s12".
            let input = ring.prefix(72).map {
                [centre[1], centre[0], $0.latitude, $0.longitude].map(GeodSolveTruth.field).joined(separator: " ")
            }
            let out = try GeodSolveTruth.run(["-i"], input: input.joined(separator: "\n") + "\n")
            let distances = out.split(separator: "\n").compactMap {
                $0.split(separator: " ").last.flatMap { Double($0) }
            }
            #expect(distances.count == 72)
            for d in distances {
                #expect(abs(d / radius - 1) < 0.001, "a point \(d) m from the centre of a \(radius) m circle")
            }
        }
        let plain = try ExportDay.export(daemon, "geojson", ["--day", day.dayText], file: "nofences.geojson")
        #expect(try Self.ogr(plain.path).allSatisfy { $0.fields["kind"] != "fence" }, "fences only when asked")
        #expect(daemon.stop() == 0)
    }

    @Test func kmlReadsInOGRAsTripsStopsAndEvents() throws {
        let day = try ExportDay.shared()
        let daemon = try day.daemon()
        let r = try ExportDay.export(daemon, "kml", ["--day", day.dayText], file: "day.kml")
        try #require(r.status == 0, "\(r.stderr)")
        let features = try Self.ogr(r.path)
        let trips = features.filter { $0.layer == "Trips" }
        let stops = features.filter { $0.layer == "Stops" }
        #expect(trips.count == 2 && trips.allSatisfy { $0.type == "LINESTRING" && $0.coordinates.count > 20 })
        #expect(stops.count == day.stops.count && stops.allSatisfy { $0.type == "POINT" })
        #expect(features.filter { $0.layer == "Events" }.count >= 3)
        for (t, d) in zip(trips, day.trips) {
            #expect(t.fields["Name"] == "Trip \(d["id"] as? Int ?? -1)")
            let exported = Double(t.fields["distance_m"] ?? "") ?? .nan
            let told = d["traveled_m"] as? Double ?? .infinity
            #expect(abs(exported - told) < 0.005, "KML distance \(exported), trips says \(told)")
            // The TimeSpan, as GDAL reads it (its own date parser).
            #expect(
                Self.digits(t.fields["begin"]) == Self.digits(d["started_at"] as? String)
                    && Self.digits(t.fields["end"]) == Self.digits(d["ended_at"] as? String),
                "TimeSpan \(t.fields["begin"] ?? "none")...\(t.fields["end"] ?? "none"), trip \(d["started_at"] ?? "?")"
            )
        }
        #expect(daemon.stop() == 0)
    }

    @Test func gpxIsValidGPX11AndGPSBabelReadsItsPointsAndWaypoints() throws {
        try #require(
            FileManager.default.fileExists(atPath: Self.gpxSchema),
            "\(Self.gpxSchema): the GPX 1.1 schema, in the repository")
        let day = try ExportDay.shared()
        let daemon = try day.daemon()
        let r = try ExportDay.export(daemon, "gpx", ["--day", day.dayText], file: "day.gpx")
        try #require(r.status == 0, "\(r.stderr)")
        let valid = try ExportDay.tool("/usr/bin/xmllint", ["--noout", "--schema", Self.gpxSchema, r.path])
        #expect(valid.status == 0, "xmllint --schema: \(valid.err)")
        let tracks = try ExportDay.tool(
            "/usr/bin/gpsbabel", ["-t", "-i", "gpx", "-f", r.path, "-o", "unicsv", "-F", "-"])
        let waypoints = try ExportDay.tool(
            "/usr/bin/gpsbabel", ["-w", "-i", "gpx", "-f", r.path, "-o", "unicsv", "-F", "-"])
        #expect(tracks.status == 0 && waypoints.status == 0)
        // unicsv ends its lines with CRLF: one Character in Swift, hence isNewline.
        let points = tracks.out.split(whereSeparator: \.isNewline).count - 1
        let wpts = waypoints.out.split(whereSeparator: \.isNewline).count - 1
        let csv = try ExportDay.export(daemon, "csv", ["--day", day.dayText], file: "day.csv")
        #expect(
            points > 100 && points == csv.stdout.split(separator: "\r\n").count - 1,
            "gpsbabel read \(points) track points")
        let events = try #require(
            try SocketClient(path: daemon.socketPath).request(#"{"cmd":"events"}"#)?["events"] as? [[String: Any]])
        #expect(wpts == day.stops.count + events.filter { $0["lat"] != nil }.count, "\(wpts) waypoints")
        // Segments break where the track was not recorded for over 120 s; Python counts the gaps.
        let gaps = try ExportDay.tool(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sys, xml.etree.ElementTree as E, datetime as D
                ns = {'g': 'http://www.topografix.com/GPX/1/1', 'x': 'urn:x-gpstrackd:gpx:1'}
                root = E.parse(sys.argv[1]).getroot()
                t = lambda p: D.datetime.fromisoformat(p.find('g:time', ns).text.replace('Z', '+00:00')).timestamp()
                pts = [p for s in root.iter('{%s}trkseg' % ns['g']) for p in s.findall('g:trkpt', ns)]
                print(sum(1 for a, b in zip(pts, pts[1:]) if t(b) - t(a) > 120), len(root.findall('.//g:trkseg', ns)))
                for a, b in list(zip(pts, pts[1:]))[200:205]:
                    s = b.find('g:extensions/x:speed', ns)
                    print(a.get('lat'), a.get('lon'), b.get('lat'), b.get('lon'), t(b) - t(a), s.text if s is not None else 'none')
                """, r.path,
            ])
        let lines = gaps.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(gaps.status == 0 && lines.count == 6, "\(gaps.err)")
        #expect(Int(lines[0][0]).map { $0 + 1 } == Int(lines[0][1]), "gaps over 120 s and segments: \(lines[0])")
        try Self.expectQuality(gpx: r.path, day: day)
        // The speed extension: GeodSolve's distance over the time between the points.
        for l in lines.dropFirst() {
            let n = l.prefix(5).compactMap(Double.init)
            let d = try GeodSolveTruth.distance(
                Coordinate(latitude: n[0], longitude: n[1]), Coordinate(latitude: n[2], longitude: n[3]))
            let speed = try #require(Double(l[5]), "a point within a segment has a speed: \(l)")
            #expect(abs(speed - d / n[4]) < 0.01, "speed \(speed), GeodSolve \(d) m in \(n[4]) s")
        }
        #expect(daemon.stop() == 0)
    }

    /// Every track point's `sat` and `hdop` (read by Python's XML parser; their place in the
    /// schema's order is xmllint's to check) are what the feed gave gpsd for that second.
    static func expectQuality(gpx path: String, day: ExportDay) throws {
        let read = try ExportDay.tool(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sys, xml.etree.ElementTree as E, datetime as D
                ns = {'g': 'http://www.topografix.com/GPX/1/1'}
                for p in E.parse(sys.argv[1]).getroot().iter('{%s}trkpt' % ns['g']):
                    t = D.datetime.fromisoformat(p.find('g:time', ns).text.replace('Z', '+00:00')).timestamp()
                    s, h = p.find('g:sat', ns), p.find('g:hdop', ns)
                    print(int(t // 1), s.text if s is not None else '-', h.text if h is not None else '-')
                """, path,
            ])
        try #require(read.status == 0, "\(read.err)")
        var checked = 0
        var neighbours = 0
        var wrong: [String] = []
        var firstEpochs = 0
        var unknownSat = 0
        let rows = read.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        for row in rows where row.count == 3 {
            guard let t = Int(row[0]), let q = day.quality[t] else { continue }
            let m = FixQuality.match(Double(row[2]), Int(row[1]), at: t, in: day.quality)
            if m == .wrong { wrong.append("point at \(t): \(row), the feed gave \(q)") }
            if m == .neighbour { neighbours += 1 }
            if m == .firstEpoch { firstEpochs += 1 }
            if m == .satUnknown { unknownSat += 1 }
            checked += 1
        }
        #expect(
            checked > 100 && checked >= rows.count - 5, "\(checked) of \(rows.count) points with the feed's quality")
        #expect(neighbours <= max(1, checked / 20), "\(neighbours) of \(checked) with a neighbouring second's SKY")
        // gpsd's SKY about the feed's start and its gaps, now and then: at most 1%, each shown.
        #expect(wrong.count <= max(1, checked / 100), "unlike the feed: \(wrong)")
        #expect(unknownSat <= max(1, checked / 20), "\(unknownSat) without a count (gpsd's uSat 0 after a gap)")
        #expect(firstEpochs <= 1, "\(firstEpochs) of the first 3 s unlike the feed (gpsd's first SKY)")
    }

    @Test func csvReadsInPythonsCSVModule() throws {
        let day = try ExportDay.shared()
        let daemon = try day.daemon()
        let r = try ExportDay.export(daemon, "csv", ["--trip", "1"], file: "trip1.csv")
        try #require(r.status == 0, "\(r.stderr)")
        let read = try ExportDay.tool(
            "/usr/bin/python3",
            [
                "-c",
                """
                import csv, sys
                with open(sys.argv[1], newline='') as f: rows = list(csv.reader(f, strict=True))
                print(','.join(rows[0])); print(len(rows) - 1, len({len(r) for r in rows}))
                print(sum(1 for r in rows[1:] if r[8] == '1'), min(r[0] for r in rows[1:]), max(r[0] for r in rows[1:]))
                for r in rows[1:]: print(r[0], r[10], r[11])
                """, r.path,
            ])
        try #require(read.status == 0, "\(read.err)")
        let lines = read.out.split(separator: "\n").map(String.init)
        #expect(lines[0] == "time,lat,lon,alt_m,eph_m,mode,speed_mps,course_deg,trip,segment,hdop,sat")
        let counts = lines[1].split(separator: " ").compactMap { Int($0) }
        #expect(counts[0] > 50 && counts[1] == 1, "rows and distinct field counts: \(lines[1])")
        let span = lines[2].split(separator: " ").map(String.init)
        #expect(Int(span[0]) == counts[0], "every row of trip 1 says trip 1")
        let trip = try #require(day.trips.first)
        #expect(
            span[1] >= trip["started_at"] as? String ?? "~" && span[2] <= trip["ended_at"] as? String ?? "",
            "rows \(span[1])...\(span[2]) within the trip")
        #expect(r.stdout.contains("\r\n"), "RFC 4180 line ends")
        // The hdop and sat columns: what the feed gave gpsd for each row's second.
        var checked = 0
        var neighbours = 0
        var wrong: [String] = []
        var firstEpochs = 0
        var unknownSat = 0
        for row in lines.dropFirst(3).map({
            $0.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        }) {
            guard row.count == 3, let t = Timestamp.parse(row[0]), let q = day.quality[Int(t.rounded(.down))] else {
                continue
            }
            let m = FixQuality.match(Double(row[1]), Int(row[2]), at: Int(t.rounded(.down)), in: day.quality)
            if m == .wrong { wrong.append("row \(row), the feed gave \(q)") }
            if m == .neighbour { neighbours += 1 }
            if m == .firstEpoch { firstEpochs += 1 }
            if m == .satUnknown { unknownSat += 1 }
            checked += 1
        }
        #expect(checked >= counts[0] - 5, "\(checked) of \(counts[0]) rows with the feed's quality")
        #expect(neighbours <= max(1, checked / 20), "\(neighbours) of \(checked) with a neighbouring second's SKY")
        // gpsd's SKY about the feed's start and its gaps, now and then: at most 1%, each shown.
        #expect(wrong.count <= max(1, checked / 100), "unlike the feed: \(wrong)")
        #expect(unknownSat <= max(1, checked / 20), "\(unknownSat) without a count (gpsd's uSat 0 after a gap)")
        #expect(firstEpochs <= 1, "\(firstEpochs) of the first 3 s unlike the feed (gpsd's first SKY)")
        #expect(daemon.stop() == 0)
    }

    @Test func nothingToExportIsExit66AndBadUsage64() throws {
        let day = try ExportDay.shared()
        let daemon = try day.daemon()
        let unknown = try ExportDay.export(daemon, "geojson", ["--trip", "99"], file: "none.geojson")
        #expect(unknown.status == 66 && unknown.stderr.contains("no trip 99") && unknown.stdout.isEmpty, "\(unknown)")
        let empty = try ExportDay.export(daemon, "gpx", ["--since", "2030-01-01T00:00:00Z"], file: "none.gpx")
        #expect(empty.status == 66 && empty.stderr.contains("no stored track points"), "\(empty)")
        let noDay = try ExportDay.export(daemon, "html", ["--day", "2001-01-01"], file: "none.html")
        #expect(noDay.status == 66)
        // `--day today` and `yesterday`: gpstrackctl's local date (TZ), from its midnight as
        // Foundation's calendar has it; nothing stored then (the seeded day is 2026-03-14).
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for (zone, name) in [("UTC", "today"), ("Pacific/Auckland", "today"), ("America/Los_Angeles", "yesterday")] {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try #require(TimeZone(identifier: zone))
            func since() -> String {
                let midnight = calendar.startOfDay(for: Date())
                return iso.string(
                    from: name == "today" ? midnight : calendar.date(byAdding: .day, value: -1, to: midnight)!)
            }
            let before = since()
            let r = try ExecutableRunner.run(
                [
                    "TZ=\(zone)", ControlSocketTests.ctl, "--socket", daemon.socketPath, "export", "--format", "html",
                    "--day", name,
                ],
                executable: "/usr/bin/env")
            // Either side of a midnight that passed while it ran.
            #expect(
                r.status == 66 && (r.stderr.contains("since \(before)") || r.stderr.contains("since \(since())")),
                "\(zone) \(name): \(r.status) \(r.stderr)")
        }
        for args in [
            ["--format", "shp"], ["--format", "csv", "--trip", "1", "--day", "2026-01-01"],
            ["--format", "csv", "--day", "2026-02-30"], ["--format", "csv", "--day", "tomorrow"],
            ["--gpx", "--format", "gpx"], [],
            ["--format", "kml", "--fences"], ["--gpx", "--fences"],
        ] {
            let r = try ControlSocketTests.run(["--socket", daemon.socketPath, "export"] + args)
            #expect(r.status == 64, "export \(args): \(r.status) \(r.stderr)")
        }
        // The earlier form still answers with the track points.
        let gpx = try ControlSocketTests.run(["--socket", daemon.socketPath, "export", "--gpx", "--trip", "1"])
        #expect(gpx.status == 0 && gpx.stdout.components(separatedBy: "<trkpt ").count > 50)
        #expect(daemon.stop() == 0)
    }

    /// Small pages, followed by their cursors, give every point once, with the same speeds as
    /// one big page: the point before a page is the cursor's row.
    @Test func pagesCoverEveryPointOnce() throws {
        let day = try ExportDay.shared()
        let daemon = try day.daemon()
        func pages(_ limit: Int) throws -> [[String: Any]] {
            var after: Int?
            var points: [[String: Any]] = []
            repeat {
                let cursor = after.map { #","after":\#($0)"# } ?? ""
                let reply = try #require(
                    try SocketClient(path: daemon.socketPath)
                        .request(#"{"cmd":"export_page","limit":\#(limit)\#(cursor)}"#))
                points += try #require(reply["points"] as? [[String: Any]], "\(reply)")
                after = reply["after"] as? Int
            } while after != nil
            return points
        }
        let small = try pages(97)
        let big = try pages(100_000)
        #expect(
            big.count > 200 && small.count == big.count, "\(small.count) points in pages of 97, \(big.count) in one")
        #expect(Set(small.compactMap { $0["id"] as? Int }).count == small.count)
        #expect(
            zip(small, big).allSatisfy {
                ($0["id"] as? Int) == ($1["id"] as? Int) && ($0["speed_mps"] as? Double) == ($1["speed_mps"] as? Double)
            })
        #expect(daemon.stop() == 0)
    }
}
