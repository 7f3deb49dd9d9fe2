import GPSTrackJSON

/// `gpstrackctl anchor …` on the wire: `{"cmd":"anchor"}` asks for the status,
/// `{"cmd":"anchor","action":"drop","radius_m":40}` drops it (or `raise`, `ack`).
public enum AnchorCommand: Sendable, Equatable {
    case status
    /// At the boat's averaged position, or `distanceM` ahead of it along `bearing`; the radius
    /// given, or from `rodeM` in `depthM` of water.
    case drop(Drop)
    case raise
    case ack

    public struct Drop: Sendable, Equatable {
        public var radiusM: Double?
        public var bearing: Double?
        public var distanceM: Double?
        public var rodeM: Double?
        public var depthM: Double?

        public init(
            radiusM: Double? = nil, bearing: Double? = nil, distanceM: Double? = nil, rodeM: Double? = nil,
            depthM: Double? = nil
        ) {
            self.radiusM = radiusM
            self.bearing = bearing
            self.distanceM = distanceM
            self.rodeM = rodeM
            self.depthM = depthM
        }
    }

    /// The fields an `anchor` request may have beside `cmd`.
    static let fields: Set<String> = ["action", "radius_m", "bearing", "distance_m", "rode_m", "depth_m"]

    /// Writes the command's fields after the request's `cmd`.
    func encode(into c: inout KeyedEncodingContainer<JSONKey>) throws {
        // The status is the request without an `action`.
        if self != .status { try c.encode(verb.rawValue, forKey: "action") }
        switch self {
        case .status, .raise, .ack: break
        case .drop(let d):
            let figures: [(JSONKey, Double?)] = [
                ("radius_m", d.radiusM), ("bearing", d.bearing), ("distance_m", d.distanceM), ("rode_m", d.rodeM),
                ("depth_m", d.depthM),
            ]
            for (key, v) in figures { if let v { try c.encode(v, forKey: key) } }
        }
    }

    /// Reads an `anchor` request's fields (checked against `fields` already); every figure is
    /// checked here, so the daemon only ever sees a drop it can carry out or refuse by state.
    static func parse(_ o: [String: JSONValue]) -> Result<ControlRequest, ControlError> {
        guard let action = o["action"] else {
            if o.count > 1 { return .failure(.init("anchor drop's fields need \"action\": \"drop\"")) }
            return .success(.anchor(.status))
        }
        func number(_ key: String, _ range: ClosedRange<Double>) -> Result<Double?, ControlError> {
            guard let v = o[key] else { return .success(nil) }
            guard let n = v.number, n.isFinite, range.contains(n) else {
                return .failure(
                    .init(
                        "\"\(key)\" must be a number from \(Int(clamping: range.lowerBound)) to \(Int(clamping: range.upperBound))"
                    ))
            }
            return .success(n)
        }
        let verb = action.string.flatMap(CommandName.AnchorVerb.init(rawValue:))
        switch verb {
        case .raise, .ack:
            guard o.count == 2 else { return .failure(.init("anchor \(action.string!) takes no fields")) }
            return .success(.anchor(verb == .raise ? .raise : .ack))
        case .drop:
            var d = Drop()
            // A radius of 5 m to 10 km; a rode of up to 1 km; the anchor at most 1 km ahead.
            let checks: [(String, ClosedRange<Double>, WritableKeyPath<Drop, Double?>)] = [
                ("radius_m", 5...10_000, \.radiusM), ("bearing", -360...360, \.bearing),
                ("distance_m", 0...1000, \.distanceM), ("rode_m", 0.1...1000, \.rodeM), ("depth_m", 0...500, \.depthM),
            ]
            for (key, range, path) in checks {
                switch number(key, range) {
                case .failure(let e): return .failure(e)
                case .success(let v): d[keyPath: path] = v
                }
            }
            if (d.bearing == nil) != (d.distanceM == nil) {
                return .failure(.init("anchor drop: \"bearing\" and \"distance_m\" go together"))
            }
            if (d.rodeM == nil) != (d.depthM == nil) {
                return .failure(.init("anchor drop: \"rode_m\" and \"depth_m\" go together"))
            }
            if d.radiusM == nil, d.rodeM == nil {
                return .failure(.init("anchor drop needs \"radius_m\", or \"rode_m\" and \"depth_m\""))
            }
            return .success(.anchor(.drop(d)))
        case .status, nil:
            // No action is the status; `"action":"status"` is not a request.
            return .failure(.init("\"action\" must be \"drop\", \"raise\" or \"ack\""))
        }
    }

    /// The verb: the socket's `action`, the broker's `anchor` member.
    public var verb: CommandName.AnchorVerb {
        switch self {
        case .status: .status
        case .drop: .drop
        case .raise: .raise
        case .ack: .ack
        }
    }
}

/// `anchor` (and `anchor drop|raise|ack`): the watch afterwards; null while the anchor is up.
public struct AnchorReply: Codable, Sendable, Equatable {
    public var ok = true
    public var anchor: StatusReply.AnchorStatus?
    public init(anchor: StatusReply.AnchorStatus?) { self.anchor = anchor }
}

extension StatusReply {
    /// The anchor watch (`status`'s `anchor`, present while the anchor is down).
    public struct AnchorStatus: Codable, Sendable, Equatable {
        /// The anchor.
        public var lat = 0.0
        public var lon = 0.0
        public var radiusM = 0.0
        /// When it was dropped (fix time).
        public var since = ""
        /// The boat's distance from the anchor and bearing from it at the last fix; null before one.
        public var distanceM: Double?
        public var bearing: Double?
        /// The greatest distance so far, and when; null before a fix.
        public var maxDistanceM = 0.0
        public var maxAt: String?
        /// `ok`, `warning`, `alarm` (unacknowledged) or `acknowledged`.
        public var alarm = "ok"
        /// The latched alarms: since when, and whether acknowledged; null when none was raised.
        public var drag: LatchedAlarm?
        public var noPosition: LatchedAlarm?
        /// Points in the anchor track.
        public var trackPoints = 0

        public init() {}

        enum CodingKeys: String, CodingKey {
            case lat, lon
            case radiusM = "radius_m"
            case since
            case distanceM = "distance_m"
            case bearing
            case maxDistanceM = "max_distance_m"
            case maxAt = "max_at"
            case alarm, drag
            case noPosition = "no_position"
            case trackPoints = "track_points"
        }
    }

    /// One latched alarm.
    public struct LatchedAlarm: Codable, Sendable, Equatable {
        public var raised: String
        public var repeats: Int
        public var acknowledged: Bool
        public init(raised: String, repeats: Int, acknowledged: Bool) {
            self.raised = raised
            self.repeats = repeats
            self.acknowledged = acknowledged
        }
    }
}
