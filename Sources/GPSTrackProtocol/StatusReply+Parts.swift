import GPSTrackJSON

/// A position: `{"lat":…,"lon":…}`.
public struct LatLon: Codable, Sendable, Equatable {
    public var lat: Double
    public var lon: Double
    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}

/// One end of a trip or a stop: `{"lat":…,"lon":…,"fences":["Home"]}`.
public struct Place: Codable, Sendable, Equatable {
    public var lat: Double
    public var lon: Double
    /// Names (else ids) of the fences containing it.
    public var fences: [String]
    public init(lat: Double, lon: Double, fences: [String]) {
        self.lat = lat
        self.lon = lon
        self.fences = fences
    }
}

/// The manual trip counter (`status`, `start`, `stop`, `reset`).
public struct ManualTrip: Codable, Sendable, Equatable {
    /// running or stopped.
    public var state = ""
    public var startedAt: String?
    /// The straight line's two places: `straight_line_m` is the geodesic between them.
    public var start: LatLon?
    public var end: LatLon?
    public var traveledM = 0.0
    public var straightLineM = 0.0
    public init() {}
    enum CodingKeys: String, CodingKey {
        case state
        case startedAt = "started_at"
        case start, end
        case traveledM = "traveled_m"
        case straightLineM = "straight_line_m"
    }
}

/// The parked guard (`status`, `guard`): where and since when it is armed, if it is.
public struct GuardStatus: Codable, Sendable, Equatable {
    /// off, waiting or armed.
    public var state = ""
    @Omitted public var armedAt: LatLon?
    @Omitted public var since: String??
    @Omitted public var radiusM: Double?
    /// A latched breach: `alarm` until `guard ack`, then `acknowledged`; absent without one.
    @Omitted public var alarm: String?
    public init() {}
    enum CodingKeys: String, CodingKey {
        case state
        case armedAt = "armed_at"
        case since
        case radiusM = "radius_m"
        case alarm
    }
}

/// One fence (`status`; `fences` adds its kind and last event).
public struct FenceReport: Codable, Sendable, Equatable {
    public var id = ""
    public var name: String?
    /// polygon, circle... (`fences` only).
    @Omitted public var kind: String?
    /// inside, outside or unknown.
    public var state = ""
    public var since: String?
    /// `enter`, `state:inside`... or null (`fences` only).
    @Omitted public var lastEvent: String??
    public init() {}
    enum CodingKeys: String, CodingKey {
        case id, name, kind, state, since
        case lastEvent = "last_event"
    }
}

/// The pedometer's figures now (`status`, `steps`).
public struct PedometerStatus: Codable, Sendable, Equatable {
    public var source = ""
    /// counter or accelerometer.
    public var kind = ""
    public var total = 0
    public var trip = 0
    public var cadenceSpm = 0.0
    public var distanceM = 0.0
    public var tripDistanceM = 0.0
    public var strideM = 0.0
    public var strideLearned = false
    public init() {}
    enum CodingKeys: String, CodingKey {
        case source, kind, total, trip
        case cadenceSpm = "cadence_spm"
        case distanceM = "distance_m"
        case tripDistanceM = "trip_distance_m"
        case strideM = "stride_m"
        case strideLearned = "stride_learned"
    }
}

/// Home Assistant's discovery (`status`'s `ha`): its own connection to the broker.
public struct HAStatus: Codable, Sendable, Equatable {
    public var connected = false
    /// `<prefix>/<component>/<node>/…`: the node id HA's topics carry.
    public var node = ""
    /// The entities announced.
    public var entities = 0
    /// Messages waiting in the outbox's queue `ha`.
    public var outbox = 0
    /// Times HA's birth message brought the announcements again.
    public var births = 0
    /// Messages on `<prefix>/status` or the state topic that were not HA's or gpstrackd's own
    /// (not JSON, too long, unknown): ignored, counted.
    public var badMessages = 0
    /// Announcements of entities the configuration no longer has, removed.
    public var removed = 0
    public init() {}
    enum CodingKeys: String, CodingKey {
        case connected, node, entities, outbox, births
        case badMessages = "bad_messages"
        case removed
    }
}
