/// A geofence as the fences file defines it.
public struct Fence: Sendable {
    /// The geometry: a geodesic circle, or polygons (each an outer ring and its holes).
    public enum Shape: Sendable {
        case circle(center: Coordinate, radiusM: Double)
        /// Each polygon is a list of closed rings, the first the outer boundary, the rest holes.
        case polygons([[[Coordinate]]])
        /// A corridor: within `widthM / 2` of any of the lines (each at least 2 positions).
        case corridor(lines: [[Coordinate]], widthM: Double)

        /// `circle`, `polygon` or `corridor`.
        public var kind: String {
            switch self {
            case .circle: "circle"
            case .polygons: "polygon"
            case .corridor: "corridor"
            }
        }
    }

    /// The kinds of transition a fence reports.
    public enum Notify: String, Sendable, CaseIterable {
        case enter, exit, dwell
    }

    /// Position in the file's `features` array.
    public var index: Int
    public var id: String
    public var name: String?
    public var shape: Shape
    /// Emit `dwell` after staying inside this long, seconds.
    public var dwellS: Double?
    /// Which transitions are reported (all by default).
    public var notify: Set<Notify>
    /// Overspeed: the speed limit inside this fence, km/h (`properties.speed_limit_kmh`).
    public var speedLimitKmh: Double?

    public init(
        index: Int, id: String, name: String? = nil, shape: Shape, dwellS: Double? = nil,
        notify: Set<Notify> = Set(Notify.allCases), speedLimitKmh: Double? = nil
    ) {
        self.speedLimitKmh = speedLimitKmh
        self.index = index
        self.id = id
        self.name = name
        self.shape = shape
        self.dwellS = dwellS
        self.notify = notify
    }
}

/// A fences file that cannot be used, naming the file, the feature and the reason.
public struct FenceError: Error, Sendable, CustomStringConvertible {
    public var file: String
    /// The feature's index in `features`, when the fault lies in one feature.
    public var featureIndex: Int?
    public var featureID: String?
    public var reason: String

    public init(file: String, featureIndex: Int? = nil, featureID: String? = nil, reason: String) {
        self.file = file
        self.featureIndex = featureIndex
        self.featureID = featureID
        self.reason = reason
    }

    public var description: String {
        var place = file
        if let featureIndex {
            place += ": feature \(featureIndex)"
            if let featureID { place += " (id \"\(featureID)\")" }
        }
        return "\(place): \(reason)"
    }
}
