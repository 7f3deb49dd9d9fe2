import Foundation
import GPSTrackSim
import Testing

@testable import GPSTrackCore
@testable import GPSTrackProtocol

@Suite struct GeoJSONFencesTests {
    static func collection(_ features: String) -> String {
        #"{"type":"FeatureCollection","features":[\#(features)]}"#
    }

    static let good =
        #"{"type":"Feature","id":"a","properties":{"radius":50},"geometry":{"type":"Point","coordinates":[8.5,47.3]}}"#

    func load(_ text: String) throws(FenceError) -> FenceIndex {
        let fences = try GeoJSONFences.parse(Array(text.utf8), file: "f.geojson")
        return try FenceIndex(fences: fences, file: "f.geojson")
    }

    @Test func speedLimitsAreReadAndChecked() throws {
        let idx = try load(
            Self.collection(
                #"{"type":"Feature","id":"z","properties":{"radius":50,"speed_limit_kmh":30},"geometry":{"type":"Point","coordinates":[8.5,47.3]}}"#
            ))
        #expect(idx.fences[0].speedLimitKmh == 30)
        #expect(try load(Self.collection(Self.good)).fences[0].speedLimitKmh == nil)
        #expect {
            _ = try load(
                Self.collection(
                    #"{"type":"Feature","id":"z","properties":{"radius":50,"speed_limit_kmh":"fast"},"geometry":{"type":"Point","coordinates":[8.5,47.3]}}"#
                ))
        } throws: {
            ($0 as? FenceError)?.description.contains(
                "feature 0 (id \"z\"): speed_limit_kmh must be a number of km/h above 0") == true
        }
    }

    @Test func readsCirclesPolygonsAndProperties() throws {
        let text = Self.collection(
            Self.good + "," + #"""
                {"type":"Feature","properties":{"id":"b","name":"Bee","dwell_s":30,"notify":["exit"]},
                 "geometry":{"type":"Polygon","coordinates":[[[8,47],[8.1,47],[8.1,47.1],[8,47.1],[8,47]]]}},
                {"type":"Feature","id":7,"properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[9,47],[9.1,47],[9.1,47.1],[9,47]]]]}}
                """#)
        let idx = try load(text)
        #expect(idx.fences.map(\.id) == ["a", "b", "7"])
        #expect(idx.fences[1].name == "Bee" && idx.fences[1].dwellS == 30 && idx.fences[1].notify == [.exit])
        #expect(idx.fences[0].notify == Set(Fence.Notify.allCases))
        guard case .circle(let c, let r) = idx.fences[0].shape else {
            Issue.record("circle")
            return
        }
        #expect(c == Coordinate(latitude: 47.3, longitude: 8.5) && r == 50)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var text: String
        var place: String
        var reason: String
        var testDescription: String { "\(place) \(reason)" }
    }

    static let badCases: [Bad] = [(String, String, String)]([
        ("{not json", "f.geojson: not valid JSON", ""),
        (#"{"type":"Feature"}"#, "not a GeoJSON FeatureCollection", ""),
        (
            collection(
                #"{"type":"Feature","id":"r","geometry":{"type":"Polygon","coordinates":[[[8,47],[8.1,47],[8,47]]]}}"#),
            "feature 0 (id \"r\")", "has 3 positions; a linear ring needs at least 4"
        ),
        (
            collection(
                #"{"type":"Feature","id":"o","geometry":{"type":"Polygon","coordinates":[[[8,47],[8.1,47],[8.1,47.1],[8,47.1]]]}}"#
            ),
            "feature 0 (id \"o\")", "not closed"
        ),
        (
            collection(
                #"{"type":"Feature","id":"bow","geometry":{"type":"Polygon","coordinates":[[[8,47],[8.1,47.1],[8.1,47],[8,47.1],[8,47]]]}}"#
            ),
            "feature 0 (id \"bow\")", "Self-intersection"
        ),
        (
            collection(
                #"{"type":"Feature","id":"c","properties":{},"geometry":{"type":"Point","coordinates":[8,47]}}"#),
            "feature 0 (id \"c\")", "needs properties.radius"
        ),
        (
            collection(
                #"{"type":"Feature","id":"c","properties":{"radius":0},"geometry":{"type":"Point","coordinates":[8,47]}}"#
            ),
            "(id \"c\")", "radius must be"
        ),
        (
            collection(
                #"{"type":"Feature","id":"c","properties":{"radius":-5},"geometry":{"type":"Point","coordinates":[8,47]}}"#
            ),
            "(id \"c\")", "radius must be"
        ),
        (
            collection(
                #"{"type":"Feature","id":"c","properties":{"radius":"big"},"geometry":{"type":"Point","coordinates":[8,47]}}"#
            ),
            "(id \"c\")", "radius must be"
        ),
        // Physical bounds (gpstrackd-fences(5)): a radius of 1e19 trapped as OwnTracks' whole `rad`.
        (
            collection(
                #"{"type":"Feature","id":"c","properties":{"radius":1e19},"geometry":{"type":"Point","coordinates":[8,47]}}"#
            ),
            "(id \"c\")", "radius must be a number of metres above 0, at most 100000"
        ),
        (
            collection(
                #"{"type":"Feature","id":"c","properties":{"radius":100000.5},"geometry":{"type":"Point","coordinates":[8,47]}}"#
            ),
            "(id \"c\")", "at most 100000"
        ),
        (
            collection(
                #"{"type":"Feature","id":"w","properties":{"width_m":1e300},"geometry":{"type":"LineString","coordinates":[[8,47],[8.1,47]]}}"#
            ),
            "(id \"w\")", "width_m must be a number of metres above 0, at most 10000"
        ),
        (
            collection(
                #"{"type":"Feature","id":"d","properties":{"radius":50,"dwell_s":1e300},"geometry":{"type":"Point","coordinates":[8,47]}}"#
            ),
            "(id \"d\")", "dwell_s must be a number of seconds above 0, at most 2592000"
        ),
        (
            collection(
                #"{"type":"Feature","id":"s","properties":{"radius":50,"speed_limit_kmh":1e300},"geometry":{"type":"Point","coordinates":[8,47]}}"#
            ),
            "(id \"s\")", "speed_limit_kmh must be a number of km/h above 0, at most 2000"
        ),
        (
            collection(
                #"{"type":"Feature","id":"c","properties":{"radius":1e999},"geometry":{"type":"Point","coordinates":[8,47]}}"#
            ),
            "f.geojson: not valid JSON", ""
        ),
        (
            collection(
                #"{"type":"Feature","id":"x","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[200,47]}}"#
            ),
            "(id \"x\")", "coordinates out of range"
        ),
        (
            collection(
                #"{"type":"Feature","id":"y","geometry":{"type":"Polygon","coordinates":[[[8,47],[8.1,95],[8.1,47.1],[8,47]]]}}"#
            ),
            "(id \"y\")", "coordinates out of range"
        ),
        (collection(good + "," + good), "feature 1 (id \"a\")", "duplicate id"),
        (
            collection(
                #"{"type":"Feature","id":"am","geometry":{"type":"Polygon","coordinates":[[[179,-17],[-179,-17],[-179,-16],[179,-16],[179,-17]]]}}"#
            ),
            "(id \"am\")", "antimeridian"
        ),
        (
            collection(
                #"{"type":"Feature","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[8,47]}}"#),
            "feature 0", "no id"
        ),
        // A LineString is a corridor now (issue 11): without width_m it is refused for that.
        (
            collection(#"{"type":"Feature","id":"l","geometry":{"type":"LineString","coordinates":[[8,47],[9,47]]}}"#),
            "(id \"l\")", "needs properties.width_m"
        ),
        (
            collection(
                #"{"type":"Feature","id":"g","geometry":{"type":"GeometryCollection","geometries":[],"coordinates":[]}}"#
            ),
            "(id \"g\")", "GeometryCollection is not a fence"
        ),
        (
            collection(
                #"{"type":"Feature","id":"w0","properties":{"width_m":0},"geometry":{"type":"LineString","coordinates":[[8,47],[9,47]]}}"#
            ),
            "(id \"w0\")", "width_m must be"
        ),
        (
            collection(
                #"{"type":"Feature","id":"wn","properties":{"width_m":-50},"geometry":{"type":"LineString","coordinates":[[8,47],[9,47]]}}"#
            ),
            "(id \"wn\")", "width_m must be"
        ),
        (
            collection(
                #"{"type":"Feature","id":"ws","properties":{"width_m":"50"},"geometry":{"type":"LineString","coordinates":[[8,47],[9,47]]}}"#
            ),
            "(id \"ws\")", "width_m must be"
        ),
        (
            collection(
                #"{"type":"Feature","id":"wnull","properties":{"width_m":null},"geometry":{"type":"LineString","coordinates":[[8,47],[9,47]]}}"#
            ),
            "(id \"wnull\")", "width_m must be"
        ),
        (
            collection(
                #"{"type":"Feature","id":"winf","properties":{"width_m":1e999},"geometry":{"type":"LineString","coordinates":[[8,47],[9,47]]}}"#
            ),
            "f.geojson: not valid JSON", ""
        ),
        (
            collection(
                #"{"type":"Feature","id":"l1","properties":{"width_m":50},"geometry":{"type":"LineString","coordinates":[[8,47]]}}"#
            ),
            "(id \"l1\")", "line 0 has 1 position; a line needs at least 2"
        ),
        (
            collection(
                #"{"type":"Feature","id":"l0","properties":{"width_m":50},"geometry":{"type":"LineString","coordinates":[]}}"#
            ),
            "(id \"l0\")", "line 0 has 0 positions"
        ),
        (
            collection(
                #"{"type":"Feature","id":"m1","properties":{"width_m":50},"geometry":{"type":"MultiLineString","coordinates":[[[8,47],[9,47]],[[8,46]]]}}"#
            ),
            "(id \"m1\")", "line 1 has 1 position"
        ),
        (
            collection(
                #"{"type":"Feature","id":"m0","properties":{"width_m":50},"geometry":{"type":"MultiLineString","coordinates":[]}}"#
            ),
            "(id \"m0\")", "MultiLineString needs at least one line"
        ),
        (
            collection(
                #"{"type":"Feature","id":"lr","properties":{"width_m":50},"geometry":{"type":"LineString","coordinates":[[8,47],[8,91]]}}"#
            ),
            "(id \"lr\")", "coordinates out of range"
        ),
        (
            collection(
                #"{"type":"Feature","id":"lx","properties":{"width_m":50},"geometry":{"type":"LineString","coordinates":[[8,47],[-181,47]]}}"#
            ),
            "(id \"lx\")", "coordinates out of range"
        ),
        (
            collection(
                #"{"type":"Feature","id":"lp","properties":{"width_m":50},"geometry":{"type":"LineString","coordinates":[[8,47],[9]]}}"#
            ),
            "(id \"lp\")", "a position must be [longitude, latitude]"
        ),
        (
            collection(
                #"{"type":"Feature","id":"ln","properties":{"width_m":50},"geometry":{"type":"LineString","coordinates":[[8,47],"x"]}}"#
            ),
            "(id \"ln\")", "a position must be"
        ),
        (
            collection(
                #"{"type":"Feature","id":"lam","properties":{"width_m":50},"geometry":{"type":"LineString","coordinates":[[179,-17],[-179,-17]]}}"#
            ),
            "(id \"lam\")", "antimeridian"
        ),
        (
            collection(
                #"{"type":"Feature","id":"n","properties":{"radius":5,"notify":["arrive"]},"geometry":{"type":"Point","coordinates":[8,47]}}"#
            ),
            "(id \"n\")", "notify must be"
        ),
        (String(repeating: "[", count: 100_000), "f.geojson: not valid JSON", ""),
        // Features become fences as they are read; the errors stay those of the whole file: bad
        // JSON after a bad feature, a collection whose "type" comes after its features and is
        // wrong, and of two "features" members the last one.
        (#"{"type":"FeatureCollection","features":[{"type":"Feature"}],"x":}"#, "f.geojson: not valid JSON", ""),
        (#"{"features":[{"type":"Feature"}],"type":"Feature"}"#, "not a GeoJSON FeatureCollection", ""),
        (#"{"type":"FeatureCollection","features":[\#(good)],"features":{}}"#, "without a \"features\" array", ""),
        (
            #"{"type":"FeatureCollection","features":[\#(good)],"features":[{"type":"Feature","id":"q"}]}"#,
            "feature 0 (id \"q\")", "no geometry"
        ),
        (
            collection(
                #"{"type":"Feature","id":"e1"},{"type":"Feature","id":"e2","properties":{"radius":-1},"geometry":{"type":"Point","coordinates":[8,47]}}"#
            ),
            "feature 0 (id \"e1\")", "no geometry"
        ),
    ]).map { Bad(text: $0.0, place: $0.1, reason: $0.2) }

    @Test(arguments: badCases)
    func refusesBadFilesNamingFeatureAndReason(_ bad: Bad) {
        #expect {
            _ = try load(bad.text)
        } throws: { error in
            let d = String(describing: error)
            return d.hasPrefix("f.geojson") && d.contains(bad.place) && (bad.reason.isEmpty || d.contains(bad.reason))
        }
    }

    /// Features are read one at a time; "type" may come after "features"; of two "features"
    /// members the last counts, as a JSON reader takes the last of duplicate names.
    @Test func featuresAreReadInAnyMemberOrder() throws {
        let other = Self.good.replacingOccurrences(of: #""id":"a""#, with: #""id":"b""#)
        let after = try load(#"{"features":[\#(Self.good),\#(other)],"type":"FeatureCollection"}"#)
        #expect(after.fences.map(\.id) == ["a", "b"])
        let twice = try load(#"{"type":"FeatureCollection","features":[\#(Self.good)],"features":[\#(other)]}"#)
        #expect(twice.fences.map(\.id) == ["b"] && twice.fences[0].index == 0)
    }

    /// 10,000 fences over a 20 km square: every point's inside set from the index equals a
    /// brute-force check (GeodSolve's geodesic distance for circles, ray casting for polygons).
    /// The points are placed by GeodSolve too: nothing of the reference is the project's own.
    @Test(
        .enabled(
            if: GeodSolveTruth.path != nil, "needs GeodSolve (geographiclib-tools); scripts/deps.sh test installs it"))
    func tenThousandFencesAgainstBruteForce() throws {
        var rng = SeededRandom(seed: 99)
        let origin = Coordinate(latitude: 47.3, longitude: 8.4)
        let offsets = (0..<150).map { _ in (rng.uniform(0...20_000), rng.uniform(0...20_000)) }
        let east = try GeodSolveDirect.solve(offsets.map { .init(from: origin, azimuth: 90, distance: $0.0) })
        let points = try GeodSolveDirect.solve(
            zip(east, offsets).map { .init(from: $0.0.point, azimuth: 0, distance: $0.1.1) }
        ).map(\.point)
        let fences = FenceGenerator.fences(count: 10_000, origin: origin, sideM: 20_000, seed: 99)
        let idx = try FenceIndex(fences: fences, file: "many")
        func rayCast(_ ring: [Coordinate], _ p: Coordinate) -> Bool {
            var inside = false
            for (a, b) in zip(ring, ring.dropFirst()) where (a.latitude > p.latitude) != (b.latitude > p.latitude) {
                let x =
                    a.longitude + (p.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
                if p.longitude < x { inside.toggle() }
            }
            return inside
        }
        // Circles near enough to matter, by plain spherical trigonometry with a wide margin (over
        // 20 km it errs by well under 1 %), then measured by GeodSolve in one batch.
        func roughlyM(_ a: Coordinate, _ b: Coordinate) -> Double {
            let k = Double.pi / 180
            let x = (b.longitude - a.longitude) * k * cos((a.latitude + b.latitude) / 2 * k)
            return (x * x + pow((b.latitude - a.latitude) * k, 2)).squareRoot() * 6_371_000
        }
        var near: [(point: Int, fence: Int, radius: Double)] = []
        for (k, p) in points.enumerated() {
            for f in fences {
                if case .circle(let c, let r) = f.shape, roughlyM(c, p) < r * 1.02 + 10 { near.append((k, f.index, r)) }
            }
        }
        let measured = try GeodSolveTruth.lengths(
            near.map { n -> [Coordinate] in
                guard case .circle(let c, _) = fences[n.fence].shape else { return [] }
                return [c, points[n.point]]
            })
        var insideCircles = Array(repeating: Set<Int>(), count: points.count)
        for (n, d) in zip(near, measured) where d < n.radius { insideCircles[n.point].insert(n.fence) }
        var checked = 0
        for (k, p) in points.enumerated() {
            var expected = insideCircles[k]
            for f in fences {
                switch f.shape {
                case .circle: break
                case .polygons(let polys): if rayCast(polys[0][0], p) { expected.insert(f.index) }
                case .corridor: Issue.record("the generator makes no corridors")
                }
            }
            // Points within a centimetre of a boundary could go either way: leave them out.
            let found = Set(idx.candidates(near: p, marginM: 1).filter { idx.signedDistance(fence: $0, point: p) > 0 })
            let near = Set(
                idx.candidates(near: p, marginM: 1).filter { abs(idx.signedDistance(fence: $0, point: p)) < 0.01 })
            #expect(found.subtracting(near) == expected.subtracting(near))
            checked += expected.count
        }
        #expect(checked > 30, "the points must fall inside fences often enough to mean something")
    }
}
