import CGEOS

#if canImport(Glibc)
import Glibc
#endif

/// The fences, ready to query: circles by geodesic distance (GeographicLib), small polygons by a
/// scan of their edges, large polygons and corridors through GEOS prepared geometries, all behind
/// an R-tree of our own (`BoxTree`) so that the work per fix grows far slower than the number of
/// fences. GEOS is loaded (dlopen) only when a fence needs it: see `usesGEOS`.
///
/// Polygons live in a frame of their own (longitude relative to the fence's first vertex,
/// wrapped, and scaled by the cosine of its latitude), so that parts split at the antimeridian
/// join again and GEOS's nearest boundary point is the nearest in metres, near enough; the
/// distance itself is then a geodesic.
///
/// Not thread-safe (one GEOS context, if any): owned by one tracker at a time.
// @unchecked: immutable after init but for its GEOS context, used by one tracker at a time.
public final class FenceIndex: @unchecked Sendable {
    public let fences: [Fence]
    /// Per fence, what the per-fix work needs, without the arrays of a `Fence` (copying those
    /// costs reference counting on every fix).
    enum Geometry {
        case circle(Coordinate, Double)
        case polygon
        case corridor(Double)
    }
    let geometry: [Geometry]
    /// Per fence: `notify` as bits (1 enter, 2 exit, 4 dwell) and `dwell_s`.
    let notifyBits: [UInt8]
    let dwellS: [Double?]
    /// The GEOS context, made when the first fence that needs GEOS is built; nil without one.
    var ctx: GEOSContextHandle_t?
    var tree = BoxTree([])
    var boxes: [(BoxTree.Box, Int)] = []  // while building
    var owned: [OpaquePointer] = []  // geometries to destroy
    var prepared: [OpaquePointer] = []  // prepared geometries to destroy
    var polygonData: [PolygonFence?]
    var corridorData: [CorridorFence?]

    struct PolygonFence {
        var frame: Frame
        var area: OpaquePointer?  // prepared area (large or multi-part fences)
        var boundary: OpaquePointer?  // prepared boundary (large or multi-part fences)
        /// A single polygon of at most `smallPolygonVertices`: its rings in the frame, for a
        /// plain scan that costs less than the calls into GEOS.
        var rings: [[(Double, Double)]]?
        /// Metres a frame unit is at least, for points up to `bandLatitude` (absolute, degrees):
        /// turns the scan's nearest distance into a bound on the distance in metres.
        var unitM = 0.0
        var bandLatitude = 0.0
    }

    /// Polygons with more vertices than this go through GEOS's indexed prepared geometries (and
    /// GEOS's validity check).
    static let smallPolygonVertices = 64

    struct CorridorFence {
        var frame: Frame
        var lines: OpaquePointer  // prepared centre lines
        var halfWidth: Double
    }

    struct Frame {
        var lon0: Double
        var k: Double
        func forward(_ c: Coordinate) -> (Double, Double) {
            var dl = c.longitude - lon0
            if dl >= 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            return (dl * k, c.latitude)
        }
        func inverse(_ x: Double, _ y: Double) -> Coordinate {
            var lon = lon0 + x / k
            if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            return Coordinate(latitude: y, longitude: lon)
        }
    }

    /// Builds the index; a polygon GEOS finds invalid refuses the whole file, as does a fence that
    /// needs GEOS where it cannot be loaded.
    public init(fences: [Fence], file: String) throws(FenceError) {
        self.fences = fences
        geometry = fences.map { f in
            switch f.shape {
            case .circle(let c, let r): .circle(c, r)
            case .polygons: .polygon
            case .corridor(_, let w): .corridor(w)
            }
        }
        notifyBits = fences.map { f in
            (f.notify.contains(.enter) ? 1 : 0) | (f.notify.contains(.exit) ? 2 : 0)
                | (f.notify.contains(.dwell) ? 4 : 0)
        }
        dwellS = fences.map(\.dwellS)
        polygonData = Array(repeating: nil, count: fences.count)
        corridorData = Array(repeating: nil, count: fences.count)
        for fence in fences {
            switch fence.shape {
            case .circle(let center, let radius):
                for box in Self.boxes(around: center, radiusM: radius) { insert(box, fence.index) }
            case .polygons(let polygons):
                try addPolygons(polygons, fence: fence, file: file)
            case .corridor(let lines, let width):
                try addCorridor(lines, halfWidth: width / 2, fence: fence, file: file)
            }
        }
        tree = BoxTree(boxes)
        boxes = []
    }

    deinit {
        guard let ctx else { return }
        for p in prepared { dl_GEOSPreparedGeom_destroy_r(ctx, p) }
        for g in owned { dl_GEOSGeom_destroy_r(ctx, g) }
        dl_GEOS_finish_r(ctx)
    }

    /// Whether a fence needed GEOS (a corridor, a large or multi-part polygon, a polygon that
    /// `PolygonCheck` could not prove valid), so that it was loaded.
    public var usesGEOS: Bool { ctx != nil }

    /// Indices of the fences whose envelope lies within `marginM` of `point`.
    public func candidates(near point: Coordinate, marginM: Double) -> [Int] {
        var hits: [Int] = []
        candidates(near: point, marginM: marginM, into: &hits)
        return hits
    }

    /// `candidates(near:marginM:)`, appended to `hits` (the per-fix path: no arrays of boxes
    /// or hits made for a fix near no fence).
    public func candidates(near point: Coordinate, marginM: Double, into hits: inout [Int]) {
        let first = hits.count
        var boxes = 0
        Self.eachBox(around: point, radiusM: max(marginM, 0.01)) { box in
            boxes += 1
            tree.query(box, into: &hits)
        }
        dropRepeats(in: &hits, from: first, boxes: boxes)
    }

    /// Each fence once in `hits[first...]`: a fence comes twice only through two of its boxes
    /// or two query boxes, else no Set is made.
    private func dropRepeats(in hits: inout [Int], from first: Int, boxes: Int) {
        guard hits.count - first > 1, boxes > 1 || tree.repeats else { return }
        let unique = Set(hits[first...])
        hits.removeSubrange(first...)
        hits.append(contentsOf: unique)
    }

    /// Indices of the fences whose envelope meets one of `boxes` (minX, minY, maxX, maxY).
    func query(_ boxes: [(Double, Double, Double, Double)]) -> [Int] {
        var hits: [Int] = []
        for box in boxes { tree.query(box, into: &hits) }
        dropRepeats(in: &hits, from: 0, boxes: boxes.count)
        return hits
    }

    /// How deep inside its boundary a position must lie to enter fence `i` under `margin`:
    /// the margin, but at most half a circle's radius or a quarter of a corridor's width.
    public func enterMargin(fence i: Int, margin: Double) -> Double {
        switch geometry[i] {
        case .circle(_, let r): min(margin, r / 2)
        case .corridor(let width): min(margin, width / 4)
        case .polygon: margin
        }
    }

    /// Distance from `point` to the fence's boundary in metres: positive inside, negative
    /// outside (a point in a hole is outside). With `within`, a polygon's or corridor's boundary
    /// farther than that is not measured: the result is then +infinity or -infinity.
    public func signedDistance(fence i: Int, point: Coordinate, within: Double = .infinity) -> Double {
        depth(fence: i, point: point, within: within).value
    }

    /// A fence's depth at a point: `signedDistance`'s value, and a lower bound on the distance
    /// from the boundary that holds when the value is infinite (the distance itself when not).
    public struct Depth: Sendable {
        public var value: Double
        public var bound: Double
        /// No geometry to measure (GEOS failed): outside, nothing known.
        static let unknown = Depth(value: -.infinity, bound: 0)
    }

    /// `signedDistance` with the bound it learned on the way (see `Depth`), so that a caller
    /// following a moving point can tell when the boundary may have come within reach again.
    public func depth(fence i: Int, point: Coordinate, within: Double = .infinity) -> Depth {
        switch geometry[i] {
        case .circle(let center, let radius):
            // A boundary certainly farther than `within` needs no geodesic.
            if within.isFinite, let (lo, hi) = Geodesic.closeBounds(center, point) {
                if radius - hi > within { return Depth(value: .infinity, bound: radius - hi) }
                if lo - radius > within { return Depth(value: -.infinity, bound: lo - radius) }
            }
            let d = radius - Geodesic.shortDistance(center, point)
            return Depth(value: d, bound: abs(d))
        case .corridor:
            guard let c = corridorData[i], let ctx else { return .unknown }
            let (x, y) = c.frame.forward(point)
            guard let pt = dl_GEOSGeom_createPointFromXY_r(ctx, x, y) else { return .unknown }
            defer { dl_GEOSGeom_destroy_r(ctx, pt) }
            // Frame units are about a degree of latitude: 110 574 m or more.
            if within.isFinite, dl_GEOSPreparedDistanceWithin_r(ctx, c.lines, pt, (c.halfWidth + within) / 110_000) == 0
            {
                return Depth(value: -.infinity, bound: within)
            }
            guard let seq = dl_GEOSPreparedNearestPoints_r(ctx, c.lines, pt) else {
                return .unknown
            }
            defer { dl_GEOSCoordSeq_destroy_r(ctx, seq) }
            var bx = 0.0
            var by = 0.0
            dl_GEOSCoordSeq_getXY_r(ctx, seq, 0, &bx, &by)
            // The nearest point in the frame is not certainly the nearest: no bound.
            return Depth(value: c.halfWidth - Geodesic.shortDistance(point, c.frame.inverse(bx, by)), bound: 0)
        case .polygon:
            guard let p = polygonData[i] else { return .unknown }
            let (x, y) = p.frame.forward(point)
            if let rings = p.rings {
                let unitM = abs(point.latitude) <= p.bandLatitude ? p.unitM : 0
                return Self.scan(rings, x, y, point: point, frame: p.frame, within: within, unitM: unitM)
            }
            guard let area = p.area, let boundary = p.boundary, let ctx else {
                return .unknown
            }
            guard let pt = dl_GEOSGeom_createPointFromXY_r(ctx, x, y) else { return .unknown }
            defer { dl_GEOSGeom_destroy_r(ctx, pt) }
            let inside = dl_GEOSPreparedContains_r(ctx, area, pt) == 1
            // Frame units are about a degree of latitude: 110 574 m or more.
            if within.isFinite, dl_GEOSPreparedDistanceWithin_r(ctx, boundary, pt, within / 110_000) == 0 {
                return Depth(value: inside ? .infinity : -.infinity, bound: within)
            }
            guard let seq = dl_GEOSPreparedNearestPoints_r(ctx, boundary, pt) else {
                return .unknown
            }
            defer { dl_GEOSCoordSeq_destroy_r(ctx, seq) }
            var bx = 0.0
            var by = 0.0
            dl_GEOSCoordSeq_getXY_r(ctx, seq, 0, &bx, &by)
            let d = Geodesic.shortDistance(point, p.frame.inverse(bx, by))
            return Depth(value: inside ? d : -d, bound: 0)
        }
    }

    func insert(_ box: (Double, Double, Double, Double), _ index: Int) { boxes.append((box, index)) }

    /// Longitude/latitude boxes (minX, minY, maxX, maxY) covering `radiusM` around `c`, split at
    /// the antimeridian.
    public static func boxes(around c: Coordinate, radiusM: Double) -> [(Double, Double, Double, Double)] {
        var boxes: [(Double, Double, Double, Double)] = []
        eachBox(around: c, radiusM: radiusM) { boxes.append($0) }
        return boxes
    }

    /// `boxes(around:radiusM:)`, handed to `body` one by one (one, or two across the
    /// antimeridian) instead of in an array.
    @inline(__always)
    static func eachBox(
        around c: Coordinate, radiusM: Double, _ body: ((Double, Double, Double, Double)) -> Void
    ) {
        let dlat = radiusM / 110_574 * 1.01 + 1e-7
        let lat0 = max(-90, c.latitude - dlat)
        let lat1 = min(90, c.latitude + dlat)
        let cosLat = cos(min(89.999, max(abs(lat0), abs(lat1))) * .pi / 180)
        let dlon = radiusM / (111_320 * cosLat) * 1.01 + 1e-7
        if lat0 <= -90 || lat1 >= 90 || dlon >= 180 { return body((-180, lat0, 180, lat1)) }
        let lo = c.longitude - dlon
        let hi = c.longitude + dlon
        if lo < -180 {
            body((lo + 360, lat0, 180, lat1))
            body((-180, lat0, hi, lat1))
        } else if hi > 180 {
            body((lo, lat0, 180, lat1))
            body((-180, lat0, hi - 360, lat1))
        } else {
            body((lo, lat0, hi, lat1))
        }
    }
}
