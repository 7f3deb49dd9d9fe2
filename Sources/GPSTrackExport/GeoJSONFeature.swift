import GPSTrackJSON

/// GeoJSON's objects (RFC 7946) as values the one writer encodes: a feature, its geometry,
/// a position as `[lon, lat]` with 7 decimals (about a centimetre) in fixed form.
struct GeoJSONFeature<Properties: Encodable>: Encodable {
    enum ID: Codable, Sendable {
        case number(Int)
        case text(String)

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Int.self) { self = .number(n) } else { self = .text(try c.decode(String.self)) }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .number(let n): try c.encode(n)
            case .text(let s): try c.encode(s)
            }
        }
    }

    var type = "Feature"
    @Omitted var id: ID? = nil
    var properties: Properties
    /// nil: `null` (a fence without a shape to draw).
    var geometry: GeoJSONGeometry?

    enum CodingKeys: String, CodingKey {
        case type, id, properties, geometry
    }
}

/// `[lon, lat]`.
struct GeoJSONPosition: Encodable {
    var lat: Double
    var lon: Double

    init(_ lat: Double, _ lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// From a fence's `[lon, lat]`.
    init(_ p: [Double]) { self.init(p[1], p[0]) }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(FixedDecimal(lon, places: 7))
        try c.encode(FixedDecimal(lat, places: 7))
    }
}

enum GeoJSONGeometry: Encodable {
    case point(GeoJSONPosition)
    case lineString([GeoJSONPosition])
    case multiLineString([[GeoJSONPosition]])
    case polygon([[GeoJSONPosition]])
    case multiPolygon([[[GeoJSONPosition]]])

    private enum CodingKeys: String, CodingKey {
        case type, coordinates
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .point(let p):
            try c.encode("Point", forKey: .type)
            try c.encode(p, forKey: .coordinates)
        case .lineString(let line):
            try c.encode("LineString", forKey: .type)
            try c.encode(line, forKey: .coordinates)
        case .multiLineString(let lines):
            try c.encode("MultiLineString", forKey: .type)
            try c.encode(lines, forKey: .coordinates)
        case .polygon(let rings):
            try c.encode("Polygon", forKey: .type)
            try c.encode(rings, forKey: .coordinates)
        case .multiPolygon(let polygons):
            try c.encode("MultiPolygon", forKey: .type)
            try c.encode(polygons, forKey: .coordinates)
        }
    }
}

/// `{"type":"FeatureCollection","features":[...]}`, its features written one by one.
struct GeoJSONCollection: Encodable {
    var type = "FeatureCollection"
    var features: [Int] = []
}
