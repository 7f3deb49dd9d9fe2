import GPSTrackJSON

extension EventLine {
    /// `guard_ack`: the parked guard's latched breach acknowledged.
    public struct GuardAck: Codable, Sendable, Equatable {
        public var time: String
        public init(time: String) { self.time = time }
    }

    /// `guard_no_position`: no accepted fix for `silent_s` seconds while the parked guard is
    /// armed; `repeat` 0 when raised, then 1, 2... until acknowledged.
    public struct GuardNoPosition: Codable, Sendable, Equatable {
        public var time: String
        public var silentS: Double
        public var `repeat`: Int
        enum CodingKeys: String, CodingKey {
            case time
            case silentS = "silent_s"
            case `repeat`
        }
        public init(time: String, silentS: Double, repeat: Int) {
            self.time = time
            self.silentS = silentS
            self.repeat = `repeat`
        }
    }

    /// The anchor watch's events (`anchor_dropped`, `anchor_warning`, `anchor_alarm`,
    /// `anchor_no_position`, `anchor_ack`, `anchor_raised`): one shape, the fields each kind has.
    /// `lat`/`lon` are the boat's position where one is known; the anchor's own are `anchor_lat`
    /// and `anchor_lon`.
    public struct AnchorChange: Codable, Sendable, Equatable {
        /// Which of the six: the line's `event`, not a field of its own.
        public var kind: Kind
        public var time: String
        @Omitted public var lat: Double?
        @Omitted public var lon: Double?
        /// `anchor_dropped`: the anchor and the radius.
        @Omitted public var anchorLat: Double?
        @Omitted public var anchorLon: Double?
        @Omitted public var radiusM: Double?
        /// `anchor_warning`, `anchor_alarm`: the boat's distance from the anchor.
        @Omitted public var distanceM: Double?
        /// `anchor_no_position`: seconds without an accepted fix.
        @Omitted public var silentS: Double?
        /// `anchor_alarm`, `anchor_no_position`: 0 when raised, then 1, 2... until acknowledged.
        @Omitted public var `repeat`: Int?
        /// `anchor_raised`: the greatest distance from the anchor while it was down.
        @Omitted public var maxDistanceM: Double?

        public init(
            kind: Kind, time: String, lat: Double? = nil, lon: Double? = nil, anchorLat: Double? = nil,
            anchorLon: Double? = nil, radiusM: Double? = nil, distanceM: Double? = nil, silentS: Double? = nil,
            repeat: Int? = nil, maxDistanceM: Double? = nil
        ) {
            self.kind = kind
            self.time = time
            self.lat = lat
            self.lon = lon
            self.anchorLat = anchorLat
            self.anchorLon = anchorLon
            self.radiusM = radiusM
            self.distanceM = distanceM
            self.silentS = silentS
            self.repeat = `repeat`
            self.maxDistanceM = maxDistanceM
        }

        enum CodingKeys: String, CodingKey {
            case time, lat, lon
            case anchorLat = "anchor_lat"
            case anchorLon = "anchor_lon"
            case radiusM = "radius_m"
            case distanceM = "distance_m"
            case silentS = "silent_s"
            case `repeat`
            case maxDistanceM = "max_distance_m"
        }

        public init(from decoder: any Decoder) throws {
            // The kind comes from the line's `event`; `readers` sets it.
            let c = try decoder.container(keyedBy: CodingKeys.self)
            kind = .dropped
            time = try c.decode(String.self, forKey: .time)
            _lat = try c.decode(Omitted<Double>.self, forKey: .lat)
            _lon = try c.decode(Omitted<Double>.self, forKey: .lon)
            _anchorLat = try c.decode(Omitted<Double>.self, forKey: .anchorLat)
            _anchorLon = try c.decode(Omitted<Double>.self, forKey: .anchorLon)
            _radiusM = try c.decode(Omitted<Double>.self, forKey: .radiusM)
            _distanceM = try c.decode(Omitted<Double>.self, forKey: .distanceM)
            _silentS = try c.decode(Omitted<Double>.self, forKey: .silentS)
            _repeat = try c.decode(Omitted<Int>.self, forKey: .repeat)
            _maxDistanceM = try c.decode(Omitted<Double>.self, forKey: .maxDistanceM)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(time, forKey: .time)
            try c.encode(_lat, forKey: .lat)
            try c.encode(_lon, forKey: .lon)
            try c.encode(_anchorLat, forKey: .anchorLat)
            try c.encode(_anchorLon, forKey: .anchorLon)
            try c.encode(_radiusM, forKey: .radiusM)
            try c.encode(_distanceM, forKey: .distanceM)
            try c.encode(_silentS, forKey: .silentS)
            try c.encode(_repeat, forKey: .repeat)
            try c.encode(_maxDistanceM, forKey: .maxDistanceM)
        }

        /// The readers of the six names, for `EventLine.Body.readers`.
        static let readers: [EventName: @Sendable (any Decoder) throws -> Body] = Dictionary(
            uniqueKeysWithValues: Kind.allCases.map { kind in
                (
                    kind.name,
                    { @Sendable decoder in
                        var a = try AnchorChange(from: decoder)
                        a.kind = kind
                        return .anchor(a)
                    }
                )
            })
    }
}
