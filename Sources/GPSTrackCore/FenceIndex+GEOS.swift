import CGEOS

#if canImport(Glibc)
import Glibc
#endif

/// Polygons, and GEOS loaded on the first fence that needs it.
extension FenceIndex {
    /// The GEOS context, loading libgeos_c and making the context on first use; a fence that
    /// needs GEOS where it cannot be loaded refuses the file, naming the fence and the package.
    func geos(for fence: Fence, file: String) throws(FenceError) -> GEOSContextHandle_t {
        if let ctx { return ctx }
        var error = [CChar](repeating: 0, count: 512)
        guard gpstrack_geos_load(&error, error.count) == 0, let made = dl_GEOS_init_r() else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw FenceError(
                file: file, featureIndex: fence.index, featureID: fence.id,
                reason: "this fence needs GEOS but libgeos_c cannot be loaded (\(reason)): "
                    + "install the package libgeos-c1v5")
        }
        ctx = made
        return made
    }

    func addPolygons(_ polygons: [[[Coordinate]]], fence: Fence, file: String) throws(FenceError) {
        func fail(_ reason: String) -> FenceError {
            FenceError(file: file, featureIndex: fence.index, featureID: fence.id, reason: reason)
        }
        let small = polygons.count == 1 && polygons[0].reduce(0, { $0 + $1.count }) <= Self.smallPolygonVertices
        // Validity, with GEOS's reason, on the coordinates as given, unless our own check
        // proves the small polygon valid.
        if !small || !PolygonCheck.provesValid(polygons[0]) {
            let ctx = try geos(for: fence, file: file)
            for (n, rings) in polygons.enumerated() {
                guard let g = makePolygon(ctx, rings, transform: { ($0.longitude, $0.latitude) }) else {
                    throw fail("GEOS could not build polygon \(n)")
                }
                defer { dl_GEOSGeom_destroy_r(ctx, g) }
                if dl_GEOSisValid_r(ctx, g) != 1 {
                    var reason = "invalid polygon"
                    if let r = dl_GEOSisValidReason_r(ctx, g) {
                        reason = String(cString: r)
                        dl_GEOSFree_r(ctx, r)
                    }
                    throw fail("invalid polygon\(polygons.count > 1 ? " \(n)" : ""): \(reason)")
                }
            }
        }
        for rings in polygons {
            let lons = rings[0].map(\.longitude)
            let lats = rings[0].map(\.latitude)
            insert((lons.min()!, lats.min()!, lons.max()!, lats.max()!), fence.index)
        }
        let outer = polygons[0][0]
        let lat0 = (outer.map(\.latitude).min()! + outer.map(\.latitude).max()!) / 2
        let frame = Frame(lon0: outer[0].longitude, k: max(cos(lat0 * .pi / 180), 0.01))
        if small {
            // Valid (checked above), so crossing parity and the nearest edge are all it takes.
            let rings = polygons[0].map { $0.map(frame.forward) }
            // A frame unit is a degree of latitude (110,574 m or more) or 1/k degree of longitude
            // (111,319 m × cos φ / k or more): at least this, up to half a degree beyond the fence.
            let band = min(89.9, outer.map { abs($0.latitude) }.max()! + 0.5)
            let unitM = 110_000 * min(1, cos(band * .pi / 180) / frame.k)
            polygonData[fence.index] = PolygonFence(
                frame: frame, area: nil, boundary: nil, rings: rings, unitM: unitM, bandLatitude: band)
            return
        }
        let ctx = try geos(for: fence, file: file)
        var parts: [OpaquePointer?] = polygons.map { makePolygon(ctx, $0, transform: frame.forward) }
        guard parts.allSatisfy({ $0 != nil }),
            let multi = dl_GEOSGeom_createCollection_r(
                ctx, Int32(GEOS_MULTIPOLYGON.rawValue), &parts, UInt32(parts.count))
        else {
            throw fail("GEOS could not build the fence")
        }
        defer { dl_GEOSGeom_destroy_r(ctx, multi) }
        guard let area = dl_GEOSUnaryUnion_r(ctx, multi), let boundary = dl_GEOSBoundary_r(ctx, area) else {
            throw fail("GEOS could not join the fence's polygons")
        }
        owned += [area, boundary]
        guard let pa = dl_GEOSPrepare_r(ctx, area), let pb = dl_GEOSPrepare_r(ctx, boundary) else {
            throw fail("GEOS could not prepare the fence")
        }
        prepared += [pa, pb]
        polygonData[fence.index] = PolygonFence(frame: frame, area: pa, boundary: pb, rings: nil)
    }

    func makePolygon(
        _ ctx: GEOSContextHandle_t, _ rings: [[Coordinate]], transform: (Coordinate) -> (Double, Double)
    ) -> OpaquePointer? {
        var made: [OpaquePointer] = []
        for ring in rings {
            guard let seq = dl_GEOSCoordSeq_create_r(ctx, UInt32(ring.count), 2) else { break }
            for (j, c) in ring.enumerated() {
                let (x, y) = transform(c)
                dl_GEOSCoordSeq_setXY_r(ctx, seq, UInt32(j), x, y)
            }
            guard let r = dl_GEOSGeom_createLinearRing_r(ctx, seq) else { break }
            made.append(r)
        }
        guard made.count == rings.count else {
            for g in made { dl_GEOSGeom_destroy_r(ctx, g) }
            return nil
        }
        var holes: [OpaquePointer?] = made.dropFirst().map { $0 }
        return dl_GEOSGeom_createPolygon_r(ctx, made[0], &holes, UInt32(holes.count))
    }
}
