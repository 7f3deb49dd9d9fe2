import Foundation
import GPSTrackExport
import GPSTrackProtocol
import Testing

/// The fences of `export --format geojson --fences` of every shape, read back by GDAL's
/// ogrinfo: a polygon given clockwise and open comes out closed and counter-clockwise (its hole
/// clockwise), several polygons as a MultiPolygon, a corridor as its lines.
@Suite(.needs(.tool("/usr/bin/ogrinfo", package: "gdal-bin")))
struct GeoJSONFencesTests {
    static func export(_ fences: [ExportFence]) throws -> String {
        var text = ""
        let bounds = ExportBounds(
            points: 2, first: 1_773_475_200, last: 1_773_475_260, minLat: 47.37, maxLat: 47.38, minLon: 8.54,
            maxLon: 8.55, minAlt: nil, maxAlt: nil)
        var w = ExportFormat.geojson.writer(title: "t", fences: true) { text += $0 }
        w.begin(ExportContext(trips: [], stops: [], events: [], fences: fences, bounds: bounds))
        for (i, t) in [1_773_475_200.0, 1_773_475_260].enumerated() {
            w.point(
                ExportPoint(
                    id: i + 1, time: t, lat: 47.37 + Double(i) * 0.01, lon: 8.54, alt: nil, eph: nil, mode: 3,
                    speedMps: nil, courseDeg: nil, segment: i == 0))
        }
        w.finish()
        return try ExecutableRunner.temporaryFile("fences-\(getpid()).geojson", contents: text)
    }

    /// Twice the signed area of a ring of the WKT's (x lon, y lat): positive counter-clockwise.
    static func signedArea(_ ring: [[Double]]) -> Double {
        zip(ring, ring.dropFirst()).reduce(0) { $0 + $1.0[0] * $1.1[1] - $1.1[0] * $1.0[1] }
    }

    /// The rings of a POLYGON's or MULTIPOLYGON's WKT, each as [x, y] pairs.
    static func rings(_ wkt: String) -> [[[Double]]] {
        wkt.components(separatedBy: "(").compactMap { part -> [[Double]]? in
            let inner = part.prefix { $0 != ")" }
            let pairs = inner.split(separator: ",").map { $0.split(separator: " ").compactMap { Double($0) } }
            return pairs.count >= 3 && pairs.allSatisfy { $0.count >= 2 } ? pairs : nil
        }
    }

    @Test func everyShapeReadsInOGR() throws {
        // Clockwise (north-east-south-west), open; its hole counter-clockwise.
        let outer = [[8.540, 47.370], [8.541, 47.371], [8.542, 47.370], [8.541, 47.369]]
        let hole = [[8.5405, 47.3700], [8.5410, 47.3695], [8.5415, 47.3700], [8.5410, 47.3705]]
        var corridor = ExportFence(
            id: "road", name: "Road", kind: "corridor",
            rings: [[[[8.54, 47.37], [8.55, 47.38]], [[8.55, 47.38], [8.56, 47.38]]]])
        corridor.widthM = 30
        let path = try Self.export([
            ExportFence(id: "yard", name: "Yard", kind: "polygon", rings: [[outer, hole]]),
            ExportFence(
                id: "lots", name: nil, kind: "polygon", rings: [[outer], [outer.map { [$0[0] + 0.01, $0[1]] }]]),
            corridor,
        ])
        let features = try ExportFormatsTests.ogr(path).filter { $0.fields["kind"] == "fence" }
        try #require(features.count == 3, "\(features.map(\.fields))")
        let (yard, lots, road) = (features[0], features[1], features[2])
        #expect(yard.type == "POLYGON" && yard.fields["id"] == "yard" && yard.fields["shape"] == "polygon")
        let yardRings = Self.rings(yard.wkt)
        try #require(yardRings.count == 2, "\(yard.wkt)")
        #expect(yardRings.allSatisfy { $0.first == $0.last && $0.count == 5 }, "closed: \(yard.wkt)")
        #expect(
            Self.signedArea(yardRings[0]) > 0 && Self.signedArea(yardRings[1]) < 0, "outer CCW, hole CW: \(yard.wkt)")
        #expect(lots.type == "MULTIPOLYGON" && Self.rings(lots.wkt).count == 2, "\(lots.wkt)")
        #expect(road.type == "MULTILINESTRING" && road.fields["width_m"] == "30", "\(road.fields) \(road.wkt)")
        #expect(road.coordinates.count == 4)
    }
}
