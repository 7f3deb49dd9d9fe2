import GPSTrackJSON

/// Reads a GeoJSON (RFC 7946) `FeatureCollection` of fences: `Point` features with
/// `properties.radius` (metres) are circles; `Polygon` and `MultiPolygon` features are polygons
/// with holes; `LineString` and `MultiLineString` features with `properties.width_m` (metres,
/// the full width) are corridors. A file with any invalid feature is refused whole.
public enum GeoJSONFences {
    /// A circle's largest radius, metres: a county, beyond any fence a vehicle is watched in
    /// (a radius of 1e19 trapped as OwnTracks' whole `rad`). gpstrackd-fences(5) says so.
    public static let maxRadiusM = 100_000.0
    /// A corridor's largest full width, metres.
    public static let maxWidthM = 10_000.0
    /// The longest `dwell_s`: 30 days.
    public static let maxDwellS = 2_592_000.0
    /// The highest `speed_limit_kmh` (as `speed_limit_kmh` in the configuration).
    public static let maxSpeedLimitKmh = 2_000.0

    /// Parses and validates `bytes`, read from `file`. Polygon validity (self-intersection and
    /// the like) is checked by `FenceIndex`, with GEOS's reason. Each feature becomes a fence as
    /// soon as it is read, so a file of thousands never holds all their JSON at once; the errors
    /// are those of reading it whole: invalid JSON first, then the collection, then the first
    /// bad feature in the file's order.
    public static func parse(_ bytes: [UInt8], file: String) throws(FenceError) -> [Fence] {
        final class Collected {
            var fences: [Fence] = []
            var seen: [String: Int] = [:]
            var firstError: FenceError?
            var index = 0
        }
        var got = Collected()
        let root: JSONValue
        do {
            root = try JSONValue.parse(
                bytes, streaming: "features", begin: { got = Collected() },
                element: { feature in
                    let i = got.index
                    got.index += 1
                    guard got.firstError == nil else { return }
                    do throws(FenceError) {
                        let fence = try parseFeature(feature, index: i, file: file)
                        if let first = got.seen[fence.id] {
                            got.firstError = FenceError(
                                file: file, featureIndex: i, featureID: fence.id,
                                reason: "duplicate id (feature \(first) has it too)")
                            return
                        }
                        got.seen[fence.id] = i
                        got.fences.append(fence)
                    } catch {
                        got.firstError = error
                    }
                })
        } catch {
            throw FenceError(file: file, reason: "not valid JSON (\(error))")
        }
        guard root["type"]?.string == "FeatureCollection" else {
            throw FenceError(
                file: file, reason: "not a GeoJSON FeatureCollection (\"type\" must be \"FeatureCollection\")")
        }
        guard root["features"]?.array != nil else {
            throw FenceError(file: file, reason: "FeatureCollection without a \"features\" array")
        }
        if let error = got.firstError { throw error }
        return got.fences
    }

    static func parseFeature(_ f: JSONValue, index i: Int, file: String) throws(FenceError) -> Fence {
        let properties = f["properties"]
        var id: String?
        switch f["id"] ?? properties?["id"] {
        case .string(let s)?: id = s
        case .number(let n)? where n.isFinite && n == n.rounded() && abs(n) < 1e15: id = String(Int64(clamping: n))
        default: id = nil
        }
        func fail(_ reason: String) -> FenceError {
            FenceError(file: file, featureIndex: i, featureID: id, reason: reason)
        }
        guard f["type"]?.string == "Feature" else { throw fail("not a Feature") }
        guard let fenceID = id, !fenceID.isEmpty else { throw fail("no id (Feature.id or properties.id)") }
        guard let geometry = f["geometry"], let type = geometry["type"]?.string else { throw fail("no geometry") }
        guard let coords = geometry["coordinates"] else { throw fail("geometry without coordinates") }

        let shape: Fence.Shape
        switch type {
        case "Point":
            let center = try position(coords, fail)
            guard let radius = properties?["radius"] else {
                throw fail("a Point fence needs properties.radius (metres)")
            }
            guard let r = radius.number, r.isFinite, r > 0, r <= maxRadiusM else {
                throw fail("radius must be a number of metres above 0, at most \(Int(clamping: maxRadiusM))")
            }
            shape = .circle(center: center, radiusM: r)
        case "Polygon":
            shape = .polygons([try polygon(coords, fail)])
        case "MultiPolygon":
            guard let parts = coords.array, !parts.isEmpty else {
                throw fail("MultiPolygon needs at least one polygon")
            }
            var polygons: [[[Coordinate]]] = []
            for part in parts { polygons.append(try polygon(part, fail)) }
            shape = .polygons(polygons)
        case "LineString", "MultiLineString":
            var lines: [[Coordinate]] = []
            if type == "LineString" {
                lines = [try line(coords, 0, fail)]
            } else {
                guard let parts = coords.array, !parts.isEmpty else {
                    throw fail("MultiLineString needs at least one line")
                }
                for (n, part) in parts.enumerated() { lines.append(try line(part, n, fail)) }
            }
            guard let width = properties?["width_m"] else {
                throw fail("a \(type) fence (corridor) needs properties.width_m (metres)")
            }
            guard let w = width.number, w.isFinite, w > 0, w <= maxWidthM else {
                throw fail("width_m must be a number of metres above 0, at most \(Int(clamping: maxWidthM))")
            }
            shape = .corridor(lines: lines, widthM: w)
        default:
            throw fail(
                "geometry type \(type) is not a fence (use Point with radius, Polygon, MultiPolygon, "
                    + "or LineString or MultiLineString with width_m)")
        }

        var dwell: Double?
        if let d = properties?["dwell_s"], d != .null {
            guard let v = d.number, v.isFinite, v > 0, v <= maxDwellS else {
                throw fail("dwell_s must be a number of seconds above 0, at most \(Int(clamping: maxDwellS))")
            }
            dwell = v
        }
        var notify = Set(Fence.Notify.allCases)
        if let n = properties?["notify"], n != .null {
            guard let list = n.array else { throw fail("notify must be a list of \"enter\", \"exit\", \"dwell\"") }
            notify = []
            for item in list {
                guard let s = item.string, let kind = Fence.Notify(rawValue: s) else {
                    throw fail("notify must be a list of \"enter\", \"exit\", \"dwell\"")
                }
                notify.insert(kind)
            }
        }
        var name: String?
        if let n = properties?["name"], n != .null {
            guard let s = n.string else { throw fail("name must be a string") }
            name = s
        }
        var limit: Double?
        if let l = properties?["speed_limit_kmh"], l != .null {
            guard let v = l.number, v.isFinite, v > 0, v <= maxSpeedLimitKmh else {
                throw fail(
                    "speed_limit_kmh must be a number of km/h above 0, at most \(Int(clamping: maxSpeedLimitKmh))")
            }
            limit = v
        }
        return Fence(
            index: i, id: fenceID, name: name, shape: shape, dwellS: dwell, notify: notify, speedLimitKmh: limit)
    }

    static func position(_ v: JSONValue, _ fail: (String) -> FenceError) throws(FenceError) -> Coordinate {
        guard let a = v.array, a.count >= 2, let lon = a[0].number, let lat = a[1].number else {
            throw fail("a position must be [longitude, latitude]")
        }
        let c = Coordinate(latitude: lat, longitude: lon)
        guard c.isValid else { throw fail("coordinates out of range: [\(lon), \(lat)]") }
        return c
    }

    static func line(_ v: JSONValue, _ n: Int, _ fail: (String) -> FenceError) throws(FenceError) -> [Coordinate] {
        guard let positions = v.array else { throw fail("line \(n) is not a list of positions") }
        var out: [Coordinate] = []
        for p in positions { out.append(try position(p, fail)) }
        guard out.count >= 2 else {
            throw fail("line \(n) has \(out.count) position\(out.count == 1 ? "" : "s"); a line needs at least 2")
        }
        for (a, b) in zip(out, out.dropFirst()) where abs(b.longitude - a.longitude) > 180 {
            throw fail(
                "line \(n) has a segment spanning more than 180° of longitude (\(a.longitude) to \(b.longitude)); "
                    + "RFC 7946 §3.1.9: split a line that crosses the antimeridian into a MultiLineString")
        }
        return out
    }

    static func polygon(_ v: JSONValue, _ fail: (String) -> FenceError) throws(FenceError) -> [[Coordinate]] {
        guard let rings = v.array, !rings.isEmpty else { throw fail("a polygon needs at least one ring") }
        var out: [[Coordinate]] = []
        for (r, ringValue) in rings.enumerated() {
            guard let positions = ringValue.array else { throw fail("ring \(r) is not a list of positions") }
            var ring: [Coordinate] = []
            for p in positions { ring.append(try position(p, fail)) }
            guard ring.count >= 4 else {
                throw fail("ring \(r) has \(ring.count) positions; a linear ring needs at least 4")
            }
            guard ring.first == ring.last else {
                throw fail("ring \(r) is not closed (its first and last positions differ)")
            }
            for (a, b) in zip(ring, ring.dropFirst()) where abs(b.longitude - a.longitude) > 180 {
                throw fail(
                    "ring \(r) has an edge spanning more than 180° of longitude (\(a.longitude) to \(b.longitude)); "
                        + "RFC 7946 §3.1.9: split a fence that crosses the antimeridian into a MultiPolygon")
            }
            out.append(ring)
        }
        return out
    }
}
