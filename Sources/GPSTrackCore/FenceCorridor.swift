import CGEOS

#if canImport(Glibc)
import Glibc
#endif

/// Corridors: centre lines in a frame of their own (as polygons are), prepared by GEOS, and one
/// index envelope per line segment so that a long winding route is a candidate only near it.
extension FenceIndex {
    func addCorridor(_ lines: [[Coordinate]], halfWidth: Double, fence: Fence, file: String) throws(FenceError) {
        func fail(_ reason: String) -> FenceError {
            FenceError(file: file, featureIndex: fence.index, featureID: fence.id, reason: reason)
        }
        let ctx = try geos(for: fence, file: file)
        let all = lines.flatMap { $0 }
        let lat0 = (all.map(\.latitude).min()! + all.map(\.latitude).max()!) / 2
        let frame = Frame(lon0: all[0].longitude, k: max(cos(lat0 * .pi / 180), 0.01))
        var parts: [OpaquePointer?] = []
        for line in lines {
            guard let seq = dl_GEOSCoordSeq_create_r(ctx, UInt32(line.count), 2) else { break }
            for (j, c) in line.enumerated() {
                let (x, y) = frame.forward(c)
                dl_GEOSCoordSeq_setXY_r(ctx, seq, UInt32(j), x, y)
            }
            guard let g = dl_GEOSGeom_createLineString_r(ctx, seq) else { break }
            parts.append(g)
            for (a, b) in zip(line, line.dropFirst()) { insertSegmentBox(a, b, padM: halfWidth, fence.index) }
        }
        guard parts.count == lines.count,
            let multi = dl_GEOSGeom_createCollection_r(
                ctx, Int32(GEOS_MULTILINESTRING.rawValue), &parts, UInt32(parts.count))
        else {
            for case let g? in parts { dl_GEOSGeom_destroy_r(ctx, g) }
            throw fail("GEOS could not build the corridor")
        }
        owned.append(multi)
        guard let p = dl_GEOSPrepare_r(ctx, multi) else { throw fail("GEOS could not prepare the corridor") }
        prepared.append(p)
        corridorData[fence.index] = CorridorFence(frame: frame, lines: p, halfWidth: halfWidth)
    }

    /// Inserts the envelope of segment `a`-`b` widened by `padM` metres, split at the antimeridian.
    func insertSegmentBox(_ a: Coordinate, _ b: Coordinate, padM: Double, _ index: Int) {
        for box in Self.segmentBoxes(a, b, padM: padM) { insert(box, index) }
    }

    /// Longitude/latitude boxes covering the segment `a`-`b` (the shorter way round) widened by
    /// `padM` metres.
    static func segmentBoxes(_ a: Coordinate, _ b: Coordinate, padM: Double) -> [(Double, Double, Double, Double)] {
        var dl = b.longitude - a.longitude
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        let lo = min(a.longitude, a.longitude + dl)
        let hi = max(a.longitude, a.longitude + dl)
        let dlat = padM / 110_574 * 1.01 + 1e-7
        let lat0 = max(-90, min(a.latitude, b.latitude) - dlat)
        let lat1 = min(90, max(a.latitude, b.latitude) + dlat)
        let cosLat = cos(min(89.999, max(abs(lat0), abs(lat1))) * .pi / 180)
        let dlon = padM / (111_320 * cosLat) * 1.01 + 1e-7
        let x0 = lo - dlon
        let x1 = hi + dlon
        if lat0 <= -90 || lat1 >= 90 || x1 - x0 >= 360 { return [(-180, lat0, 180, lat1)] }
        if x0 < -180 { return [(x0 + 360, lat0, 180, lat1), (-180, lat0, x1, lat1)] }
        if x1 > 180 { return [(x0, lat0, 180, lat1), (-180, lat0, x1 - 360, lat1)] }
        return [(x0, lat0, x1, lat1)]
    }
}
