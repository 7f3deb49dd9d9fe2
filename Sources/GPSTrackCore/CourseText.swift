/// A course over ground as text: degrees, a 16-point compass name, and quadrant-bearing
/// notation (`N35°E`, `S10°W`, plain `E` at exactly 90°).
public struct CourseText: Sendable, Equatable {
    /// The course in whole degrees, 0..<360; nil when unknown.
    public let degrees: Int?
    /// A 16-point compass name (`N`, `NNE`, ... `NNW`), or `unknown`.
    public let compass: String
    /// Quadrant bearing (`N35°E`), or `unknown`.
    public let quadrant: String

    private static let points = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
        "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
    ]

    /// Text for a course in degrees. The course is `unknown` when it is not finite, or when
    /// `speed` is known and below `minimumSpeed` (a standing receiver's course is noise).
    public init(track: Double, speed: Double = .nan, minimumSpeed: Double = 0.5) {
        guard track.isFinite, !(speed.isFinite && speed < minimumSpeed) else {
            degrees = nil
            compass = "unknown"
            quadrant = "unknown"
            return
        }
        var normalized = track.truncatingRemainder(dividingBy: 360)
        if normalized < 0 { normalized += 360 }
        let whole = Int(clamping: normalized) % 360
        degrees = whole
        compass = Self.points[Int(clamping: normalized / 22.5) % 16]
        switch whole {
        case 0: quadrant = "N"
        case 90: quadrant = "E"
        case 180: quadrant = "S"
        case 270: quadrant = "W"
        case 1..<90: quadrant = "N\(whole)°E"
        case 91..<180: quadrant = "S\(180 - whole)°E"
        case 181..<270: quadrant = "S\(whole - 180)°W"
        default: quadrant = "N\(360 - whole)°W"
        }
    }

    /// One line for people: `35° NE (N35°E)` or `unknown`.
    public var text: String {
        guard let degrees else { return "unknown" }
        return "\(degrees)° \(compass) (\(quadrant))"
    }
}
