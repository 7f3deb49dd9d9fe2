import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The map's projection, documented so that a reader (the tests, a user) can place a point
/// without the page: equirectangular about the centre of the points' bounds,
///   x = W/2 + k·R·cos(φ0)·(λ − λ0)·π/180,  y = H/2 − k·R·(φ − φ0)·π/180,
/// with R = 6 371 008.8 m (the mean Earth radius), W×H the plot area (`width`×`height` in the
/// SVG's user units) and k, in units a metre, the largest that fits the bounds within `pad`
/// of each edge. Over a day's few tens of kilometres it is true to a fraction of a percent.
public struct MapProjection: Sendable {
    public static let width = 1000.0
    public static let height = 700.0
    public static let pad = 40.0
    public static let radius = 6_371_008.8
    public let lat0: Double
    public let lon0: Double
    /// SVG units a metre.
    public let k: Double

    public init(_ b: ExportBounds) {
        lat0 = (b.minLat + b.maxLat) / 2
        lon0 = (b.minLon + b.maxLon) / 2
        let spanX = (b.maxLon - b.minLon) * .pi / 180 * Self.radius * cos(lat0 * .pi / 180)
        let spanY = (b.maxLat - b.minLat) * .pi / 180 * Self.radius
        // A single point (or a few centimetres) still gets a scale: 100 m across.
        k = min((Self.width - 2 * Self.pad) / max(spanX, 100), (Self.height - 2 * Self.pad) / max(spanY, 100))
    }

    public func x(_ lon: Double) -> Double {
        Self.width / 2 + k * Self.radius * cos(lat0 * .pi / 180) * (lon - lon0) * .pi / 180
    }

    public func y(_ lat: Double) -> Double { Self.height / 2 - k * Self.radius * (lat - lat0) * .pi / 180 }

    /// "x,y" to a tenth of a unit.
    func point(_ lat: Double, _ lon: Double) -> String { "\(Text.decimal(x(lon), 1)),\(Text.decimal(y(lat), 1))" }

    /// The scale bar: a round length (1, 2 or 5 × 10ⁿ m) about 150 units long, and its label.
    var scaleBar: (units: Double, label: String) {
        let target = 150 / k
        var step = 1.0
        while step * 10 <= target { step *= 10 }
        let m = [5.0, 2, 1].map { $0 * step }.first { $0 <= target } ?? step
        return (m * k, m >= 1000 ? "\(Text.decimal(m / 1000, 1)) km" : "\(Text.decimal(m, 0)) m")
    }
}

/// The track's colours by speed (km/h), from slow to fast: the legend and the pixel checks read these.
public enum SpeedPalette {
    /// The upper bounds (km/h) of all bins but the last.
    public static let bounds = [5.0, 15, 30, 50, 80]
    public static let colors = ["#2c7bb6", "#00a6ca", "#4dac26", "#e6b800", "#f28e2b", "#d7191c"]

    public static func bin(_ speedMps: Double) -> Int {
        let kmh = speedMps * 3.6
        return bounds.firstIndex { kmh < $0 } ?? bounds.count
    }

    static var labels: [String] {
        var out = ["< \(Text.decimal(bounds[0], 0))"]
        for i in 1..<bounds.count { out.append("\(Text.decimal(bounds[i - 1], 0))–\(Text.decimal(bounds[i], 0))") }
        return out + ["≥ \(Text.decimal(bounds.last!, 0))"]
    }
}

/// Times and durations as the page shows them (UTC: the page names it).
enum Clock {
    static func hm(_ iso: String) -> String {
        let c = Array(iso)
        return c.count >= 16 ? String(c[11..<16]) : iso
    }

    static func duration(_ s: Double?) -> String {
        guard let s, let m = Int(checking: s / 60) else { return "–" }
        return m >= 60 ? "\(m / 60) h \(m % 60) min" : "\(m) min"
    }
}
