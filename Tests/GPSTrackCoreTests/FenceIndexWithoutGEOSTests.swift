import CGEOS
import GPSTrackSim
import Testing

@testable import GPSTrackCore
@testable import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Issue 24: our own index and validity check in GEOS's place, each judged against GEOS itself
/// (loaded here for the purpose), and GEOS needed only by the fences that need it.
@Suite struct FenceIndexWithoutGEOSTests {
    /// A GEOS context of the test's own: the reference.
    final class GEOS {
        let ctx: GEOSContextHandle_t
        init() throws {
            var error = [CChar](repeating: 0, count: 256)
            try #require(gpstrack_geos_load(&error, error.count) == 0, "libgeos-c1v5 is installed (scripts/deps.sh)")
            ctx = try #require(dl_GEOS_init_r())
        }
        deinit { dl_GEOS_finish_r(ctx) }

        /// GEOS's STRtree (node capacity 10, as the index had) over `boxes`, payload = position.
        func strtreeHits(_ boxes: [BoxTree.Box], _ queries: [BoxTree.Box]) -> [[Int]] {
            final class Sink { var hits: [Int] = [] }
            let tree = dl_GEOSSTRtree_create_r(ctx, 10)
            var owned: [OpaquePointer] = []
            for (i, b) in boxes.enumerated() {
                let g = dl_GEOSGeom_createRectangle_r(ctx, b.0, b.1, b.2, b.3)!
                owned.append(g)
                dl_GEOSSTRtree_insert_r(ctx, tree, g, UnsafeMutableRawPointer(bitPattern: i + 1))
            }
            defer {
                dl_GEOSSTRtree_destroy_r(ctx, tree)
                for g in owned { dl_GEOSGeom_destroy_r(ctx, g) }
            }
            return queries.map { q in
                let sink = Sink()
                let g = dl_GEOSGeom_createRectangle_r(ctx, q.0, q.1, q.2, q.3)!
                defer { dl_GEOSGeom_destroy_r(ctx, g) }
                withExtendedLifetime(sink) {
                    dl_GEOSSTRtree_query_r(
                        ctx, tree, g,
                        { item, data in
                            Unmanaged<Sink>.fromOpaque(data!).takeUnretainedValue().hits.append(
                                Int(bitPattern: item) - 1)
                        }, Unmanaged.passUnretained(sink).toOpaque())
                }
                return sink.hits.sorted()
            }
        }

        /// GEOSisValid on the rings as given.
        func isValid(_ rings: [[(Double, Double)]]) -> Bool {
            var made: [OpaquePointer?] = []
            for ring in rings {
                let seq = dl_GEOSCoordSeq_create_r(ctx, UInt32(ring.count), 2)!
                for (j, p) in ring.enumerated() { dl_GEOSCoordSeq_setXY_r(ctx, seq, UInt32(j), p.0, p.1) }
                made.append(dl_GEOSGeom_createLinearRing_r(ctx, seq))
            }
            var holes = Array(made.dropFirst())
            guard let shell = made[0], let g = dl_GEOSGeom_createPolygon_r(ctx, shell, &holes, UInt32(holes.count))
            else { return false }
            defer { dl_GEOSGeom_destroy_r(ctx, g) }
            return dl_GEOSisValid_r(ctx, g) == 1
        }
    }

    /// A box on a coarse grid (so that many share an edge or a corner exactly), sometimes flat.
    static func box(_ rng: inout SeededRandom, span: Double) -> BoxTree.Box {
        let x = (Double.random(in: -180...180, using: &rng) * 2).rounded() / 2
        let y = (Double.random(in: -90...90, using: &rng) * 2).rounded() / 2
        let w = Double(Int.random(in: 0...Int(span * 2), using: &rng)) / 2
        let h = Double(Int.random(in: 0...Int(span * 2), using: &rng)) / 2
        return (x, y, x + w, y + h)
    }

    @Test(arguments: [1, 9, 10, 11, 101, 2500])
    func theTreeFindsWhatGEOSsSTRtreeFinds(count: Int) throws {
        let geos = try GEOS()
        var rng = SeededRandom(seed: UInt64(count))
        let boxes = (0..<count).map { _ in Self.box(&rng, span: 20) }
        let queries = (0..<400).map { _ in Self.box(&rng, span: 10) }
        let tree = BoxTree(boxes.enumerated().map { ($0.element, $0.offset) })
        let expected = geos.strtreeHits(boxes, queries)
        var found = 0
        for (q, want) in zip(queries, expected) {
            var hits: [Int] = []
            tree.query(q, into: &hits)
            #expect(hits.sorted() == want, "query \(q) over \(count) boxes")
            found += want.count
        }
        #expect(found > 0, "the queries meet some boxes")
        var none: [Int] = []
        BoxTree([]).query((-180, -90, 180, 90), into: &none)
        #expect(none.isEmpty)
    }

    /// Fences as the index boxes them (circles split at the antimeridian, polygons' envelopes):
    /// `candidates(near:)` against GEOS's STRtree over the same boxes.
    @Test func fenceCandidatesAreGEOSsSTRtreeCandidates() throws {
        let geos = try GEOS()
        var rng = SeededRandom(seed: 24)
        var fences: [Fence] = []
        var boxes: [BoxTree.Box] = []
        var owner: [Int] = []
        for i in 0..<600 {
            let c = Coordinate(
                latitude: Double.random(in: -70...70, using: &rng),
                longitude: i % 7 == 0 ? 179.99 : Double.random(in: -180..<180, using: &rng))
            if i % 2 == 0 {
                let r = Double.random(in: 50...80_000, using: &rng)
                fences.append(Fence(index: i, id: "c\(i)", shape: .circle(center: c, radiusM: r)))
                for b in FenceIndex.boxes(around: c, radiusM: r) {
                    boxes.append(b)
                    owner.append(i)
                }
            } else {
                let d = Double.random(in: 0.001...0.5, using: &rng)
                let lon = min(c.longitude, 179.0)
                let ring = [(lon, c.latitude), (lon + d, c.latitude), (lon + d, c.latitude + d), (lon, c.latitude + d)]
                    .map { Coordinate(latitude: $0.1, longitude: $0.0) }
                fences.append(Fence(index: i, id: "p\(i)", shape: .polygons([[ring + [ring[0]]]])))
                boxes.append((lon, c.latitude, lon + d, c.latitude + d))
                owner.append(i)
            }
        }
        let index = try FenceIndex(fences: fences, file: "random.geojson")
        #expect(!index.usesGEOS, "circles and squares need no GEOS")
        var met = 0
        for _ in 0..<300 {
            let p = Coordinate(
                latitude: Double.random(in: -70...70, using: &rng),
                longitude: Double.random(in: -180..<180, using: &rng))
            let margin = Double.random(in: 0...200_000, using: &rng)
            let queries = FenceIndex.boxes(around: p, radiusM: max(margin, 0.01))
            let want = Set(geos.strtreeHits(boxes, queries).flatMap { $0 }.map { owner[$0] })
            let got = index.candidates(near: p, marginM: margin)
            #expect(got.count == Set(got).count, "no fence twice")
            #expect(Set(got) == want, "near \(p) within \(margin) m")
            met += want.count
        }
        #expect(met > 0, "some points lie near fences")
    }

    /// GEOS only where a fence needs it: never for circles and small valid polygons (a hole
    /// included); for a corridor, a polygon of more than 64 vertices, two polygons in one fence,
    /// and a small one our check doubts (whose fault GEOS then names, as before).
    @Test func geosIsUsedOnlyByTheFencesThatNeedIt() throws {
        let base = Coordinate(latitude: 47.5, longitude: 8.5)
        func ring(_ n: Int, _ size: Double, dx: Double = 0) -> [Coordinate] {
            let r = (0..<n).map { k in
                let a = 2 * Double.pi * Double(k) / Double(n)
                return Coordinate(
                    latitude: base.latitude + size * sin(a), longitude: base.longitude + dx + size * cos(a))
            }
            return r + [r[0]]
        }
        let circle = Fence(index: 0, id: "c", shape: .circle(center: base, radiusM: 300))
        let small = Fence(index: 1, id: "p", shape: .polygons([[ring(64 - 8, 0.01), ring(6, 0.001).reversed()]]))
        let plain = try FenceIndex(fences: [circle, small], file: "small.geojson")
        #expect(!plain.usesGEOS)
        #expect(plain.signedDistance(fence: 1, point: base) < 0, "the hole's centre is outside")
        #expect(plain.signedDistance(fence: 1, point: Coordinate(latitude: 47.5, longitude: 8.505)) > 100)

        let large = Fence(index: 1, id: "big", shape: .polygons([[ring(65, 0.01)]]))
        let two = Fence(index: 1, id: "two", shape: .polygons([[ring(8, 0.01)], [ring(8, 0.01, dx: 0.05)]]))
        let route = Fence(
            index: 1, id: "r",
            shape: .corridor(lines: [[base, Coordinate(latitude: 47.6, longitude: 8.6)]], widthM: 50))
        for fence in [large, two, route] {
            let index = try FenceIndex(fences: [circle, fence], file: "needs.geojson")
            #expect(index.usesGEOS, "\(fence.id) needs GEOS")
        }
        // A corner of 180 degrees: valid to GEOS, doubtful to us; GEOS's verdict then stands.
        var straight = ring(8, 0.01)
        straight.insert(
            Coordinate(
                latitude: (straight[0].latitude + straight[1].latitude) / 2,
                longitude: (straight[0].longitude + straight[1].longitude) / 2), at: 1)
        let doubted = try FenceIndex(
            fences: [circle, Fence(index: 1, id: "s", shape: .polygons([[straight]]))], file: "s.geojson")
        #expect(doubted.usesGEOS)
        let bowTie = [(0.0, 0.0), (1, 1), (1, 0), (0, 1), (0, 0)].map { Coordinate(latitude: $0.1, longitude: $0.0) }
        do throws(FenceError) {
            _ = try FenceIndex(fences: [Fence(index: 0, id: "x", shape: .polygons([[bowTie]]))], file: "x.geojson")
            Issue.record("a bow tie accepted")
        } catch {
            #expect(
                error.description.hasPrefix("x.geojson: feature 0 (id \"x\"): invalid polygon: Self-intersection"),
                "\(error)")
        }
    }
}
