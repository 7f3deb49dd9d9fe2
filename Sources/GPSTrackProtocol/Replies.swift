import GPSTrackJSON

/// The replies to the commands other than `status`, one type each, shared by the daemon (which
/// encodes them with `ReplyEncoder`) and gpstrackctl (which decodes them with `ReplyDecoder`).
/// Every successful reply starts with `"ok":true`; a failed one is an `ErrorReply`.

/// `{"ok":false,"error":"…"}`
public struct ErrorReply: Codable, Sendable, Equatable {
    public var ok = false
    public var error: String
    public init(error: String) { self.error = error }
}

/// `fences`: every fence with its kind, state and last event.
public struct FencesReply: Codable, Sendable, Equatable {
    public var ok = true
    public var fences: [FenceReport]
    public init(fences: [FenceReport]) { self.fences = fences }
}

/// `state ID`: one fence's state.
public struct StateReply: Codable, Sendable, Equatable {
    public var ok = true
    public var fence: String
    /// inside, outside or unknown.
    public var state: String
    public var since: String?
    public init(fence: String, state: String, since: String?) {
        self.fence = fence
        self.state = state
        self.since = since
    }
}

/// `start`, `stop`, `reset`: the manual trip counter afterwards.
public struct TripReply: Codable, Sendable, Equatable {
    public var ok = true
    public var trip: ManualTrip
    public init(trip: ManualTrip) { self.trip = trip }
}

/// `reload`: how many fences are loaded now.
public struct ReloadReply: Codable, Sendable, Equatable {
    public var ok = true
    public var fences: Int
    public init(fences: Int) { self.fences = fences }
}

/// `guard on|off`: the parked guard afterwards.
public struct GuardReply: Codable, Sendable, Equatable {
    public var ok = true
    public var `guard`: GuardStatus
    public init(guard: GuardStatus) { self.guard = `guard` }
}

/// `watch`: the first line; events follow, one per line.
public struct WatchReply: Codable, Sendable, Equatable {
    public var ok = true
    public var watching = true
    public init() {}
}

/// One automatic trip (`trips` with `trip_mode = auto`, `status`'s `current_trip`). An open trip
/// has no end yet: no `ended_at`, `to` or figures of the whole trip, and `duration_s` only once
/// a fix has a time.
public struct AutoTrip: Codable, Sendable, Equatable {
    public var id: Int
    /// ended or open.
    public var state: String
    public var startedAt: String
    @Omitted public var endedAt: String?
    public var from: Place
    @Omitted public var to: Place?
    public var traveledM: Double
    @Omitted public var straightLineM: Double?
    @Omitted public var durationS: Double?
    @Omitted public var movingS: Double?
    @Omitted public var maxSpeedMps: Double?
    @Omitted public var avgSpeedMps: Double?
    /// Seconds of the trip the ignition was on (ended trips, with `input_ignition`).
    @Omitted public var engineS: Double?

    public init(id: Int, state: String, startedAt: String, from: Place, traveledM: Double) {
        self.id = id
        self.state = state
        self.startedAt = startedAt
        self.from = from
        self.traveledM = traveledM
    }

    enum CodingKeys: String, CodingKey {
        case id, state
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case from, to
        case traveledM = "traveled_m"
        case straightLineM = "straight_line_m"
        case durationS = "duration_s"
        case movingS = "moving_s"
        case maxSpeedMps = "max_speed_mps"
        case avgSpeedMps = "avg_speed_mps"
        case engineS = "engine_s"
    }
}

/// `trips` with `trip_mode = auto`.
public struct AutoTripsReply: Codable, Sendable, Equatable {
    public var ok = true
    public var trips: [AutoTrip]
    public init(trips: [AutoTrip]) { self.trips = trips }
}

/// One trip of the manual counter, as the store keeps it.
public struct StoredTrip: Codable, Sendable, Equatable {
    public var id: Int
    /// running or stopped.
    public var state: String
    public var startedAt: String?
    public var endedAt: String?
    public var traveledM: Double
    public var straightLineM: Double
    public var durationS: Double?

    public init(
        id: Int, state: String, startedAt: String?, endedAt: String?, traveledM: Double, straightLineM: Double,
        durationS: Double?
    ) {
        self.id = id
        self.state = state
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.traveledM = traveledM
        self.straightLineM = straightLineM
        self.durationS = durationS
    }

    enum CodingKeys: String, CodingKey {
        case id, state
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case traveledM = "traveled_m"
        case straightLineM = "straight_line_m"
        case durationS = "duration_s"
    }
}

/// `trips` with the manual counter.
public struct StoredTripsReply: Codable, Sendable, Equatable {
    public var ok = true
    public var trips: [StoredTrip]
    public init(trips: [StoredTrip]) { self.trips = trips }
}

/// One stop: where, when, and for how long (so far, while it lasts).
public struct StopRow: Codable, Sendable, Equatable {
    public var arrival: String
    /// Null while the receiver is still there.
    public var departure: String?
    public var durationS: Double?
    public var at: Place
    /// The trip that ended here; absent for a stop before any trip.
    @Omitted public var afterTrip: Int?

    public init(arrival: String, departure: String?, durationS: Double?, at: Place, afterTrip: Int?) {
        self.arrival = arrival
        self.departure = departure
        self.durationS = durationS
        self.at = at
        self.afterTrip = afterTrip
    }

    enum CodingKeys: String, CodingKey {
        case arrival, departure
        case durationS = "duration_s"
        case at
        case afterTrip = "after_trip"
    }
}

/// `stops`.
public struct StopsReply: Codable, Sendable, Equatable {
    public var ok = true
    public var stops: [StopRow]
    public init(stops: [StopRow]) { self.stops = stops }
}

/// `events`: stored events, each as `watch` and replay have its line.
public struct EventsReply: Codable, Sendable, Equatable {
    public var ok = true
    public var events: [EventLine]
    public init(events: [EventLine]) { self.events = events }
}

/// `steps [--since TIME]`: stored steps since a time (all without one), and the figures now.
public struct StepsReply: Codable, Sendable, Equatable {
    public var ok = true
    public var since: String?
    public var steps: Int
    public var distanceM: Double
    /// Steps a minute while walking; null without walking time.
    public var cadenceSpm: Double?
    public var pedometer: PedometerStatus?

    public init(since: String?, steps: Int, distanceM: Double, cadenceSpm: Double?, pedometer: PedometerStatus?) {
        self.since = since
        self.steps = steps
        self.distanceM = distanceM
        self.cadenceSpm = cadenceSpm
        self.pedometer = pedometer
    }

    enum CodingKeys: String, CodingKey {
        case ok, since, steps
        case distanceM = "distance_m"
        case cadenceSpm = "cadence_spm"
        case pedometer
    }
}

/// `export --gpx`: the GPX document and how many points it holds.
public struct ExportReply: Codable, Sendable, Equatable {
    public var ok = true
    public var points: Int
    public var gpx: String
    public init(points: Int, gpx: String) {
        self.points = points
        self.gpx = gpx
    }
}
