import CGEOS
import GPSTrackCore
import GPSTrackSim

/// The fences' index alone, ours (`FenceIndex.candidates`, a `BoxTree`) against GEOS's STRtree
/// over the same boxes, queried as the index was before issue 24 (the hits through a Set):
/// one binary, one machine state.
enum IndexBench {
    static func run(positions: [Coordinate], origin: Coordinate, best: (() -> Void) -> Double) {
        var error = [CChar](repeating: 0, count: 256)
        guard gpstrack_geos_load(&error, error.count) == 0, let ctx = dl_GEOS_init_r() else {
            print("  (GEOS cannot be loaded: no STRtree to compare the index with)")
            return
        }
        defer { dl_GEOS_finish_r(ctx) }
        final class Sink { var hits: [Int] = [] }
        var line = "  the index alone, per query (10 m margin) over the circuit's fixes, ours / GEOS STRtree:"
        for count in [10, 1_000, 10_000] {
            let fences = FenceGenerator.fences(count: count, origin: origin, sideM: 20_000, seed: 17)
            let index = try! FenceIndex(fences: fences, file: "bench")
            let tree = dl_GEOSSTRtree_create_r(ctx, 10)
            var owned: [OpaquePointer] = []
            for f in fences {
                var boxes: [(Double, Double, Double, Double)] = []
                switch f.shape {
                case .circle(let c, let r): boxes = FenceIndex.boxes(around: c, radiusM: r)
                case .polygons(let polygons):
                    for p in polygons {
                        let lons = p[0].map(\.longitude)
                        let lats = p[0].map(\.latitude)
                        boxes.append((lons.min()!, lats.min()!, lons.max()!, lats.max()!))
                    }
                case .corridor: continue
                }
                for b in boxes {
                    let g = dl_GEOSGeom_createRectangle_r(ctx, b.0, b.1, b.2, b.3)!
                    owned.append(g)
                    dl_GEOSSTRtree_insert_r(ctx, tree, g, UnsafeMutableRawPointer(bitPattern: f.index + 1))
                }
            }
            var ours = 0
            let tOurs = best {
                ours = 0
                for p in positions { ours += index.candidates(near: p, marginM: 10).count }
            }
            let sink = Sink()
            var theirs = 0
            let tGEOS = best {
                theirs = 0
                for p in positions {
                    sink.hits = []
                    for b in FenceIndex.boxes(around: p, radiusM: 10) {
                        let q = dl_GEOSGeom_createRectangle_r(ctx, b.0, b.1, b.2, b.3)!
                        withExtendedLifetime(sink) {
                            dl_GEOSSTRtree_query_r(
                                ctx, tree, q,
                                { item, data in
                                    Unmanaged<Sink>.fromOpaque(data!).takeUnretainedValue().hits.append(
                                        Int(bitPattern: item) - 1)
                                },
                                Unmanaged.passUnretained(sink).toOpaque())
                        }
                        dl_GEOSGeom_destroy_r(ctx, q)
                    }
                    // As the index answered before: each fence once.
                    theirs += sink.hits.count > 1 ? Set(sink.hits).count : sink.hits.count
                }
            }
            dl_GEOSSTRtree_destroy_r(ctx, tree)
            for g in owned { dl_GEOSGeom_destroy_r(ctx, g) }
            let n = Double(positions.count)
            line +=
                " \(count): \(FenceBench.format1(tOurs / n * 1e9)) / \(FenceBench.format1(tGEOS / n * 1e9)) ns (\(ours) / \(theirs) hits);"
        }
        print(String(line.dropLast()))
    }
}
