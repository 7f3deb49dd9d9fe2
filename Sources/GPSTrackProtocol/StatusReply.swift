import GPSTrackJSON

/// The `status` reply: the daemon encodes it, gpstrackctl decodes it, so a field renamed on one
/// side fails to compile on the other. Property names are the wire's keys in camel case, in the
/// wire's order; times are ISO 8601 strings (`Timestamp`), distances metres, speeds m/s.
public struct StatusReply: Codable, Sendable, Equatable {
    public var ok = true
    public var gpsd = GPSDStatus()
    /// Every receiver gpsd reported, in the order first seen.
    public var receivers: [ReceiverStatus] = []
    /// The last accepted fix; null without one, or while the fix is lost.
    public var fix: FixStatus?
    /// The manual trip counter.
    public var trip = ManualTrip()
    /// Present with `trip_mode = auto` only, as are `currentTrip` and `guard`.
    @Omitted public var motion: MotionStatus?
    /// With `trip_mode = auto`: the open trip, or null between trips.
    @Omitted public var currentTrip: AutoTrip??
    @Omitted public var `guard`: GuardStatus?
    public var fences: [FenceReport] = []
    public var counters = Counters()
    public var storage = StorageStatus()
    /// The pedometer's figures; null without a pedometer.
    public var steps: PedometerStatus?
    /// The MQTT publisher; null when it is off.
    public var mqtt: MQTTStatus?
    /// The last event's sequence number.
    public var seq = 0
    public var version = ""
    public var uptimeS = 0.0
    /// What the tracker journaled since the start, by `GPSTRACK_EVENT` name.
    public var eventsTotal = NamedCounts()
    /// With `trip_mode = auto`: automatic trips ended (kept across restarts with a store).
    @Omitted public var tripsTotal: Int?
    /// The followed receiver's last SKY report; null before one (or with gpsd lost).
    public var sky: SkyStatus?
    /// System time minus GPS time at the last clock check, seconds; null before the first.
    public var clockOffsetS: Double?
    /// The distance traveled on the current local day; null before the first accepted fix.
    public var today: DayStatus?
    /// The lifetime odometer: the settled distance of every trip, across resets and restarts,
    /// metres; it never goes down.
    public var odometerM = 0.0
    /// Every uplink's queue and server (`uplinks`); absent with none configured.
    @Omitted public var uplinks: UplinksStatus?
    /// The anchor watch; absent while the anchor is up.
    @Omitted public var anchor: AnchorStatus?
    /// The box's inputs; absent with none configured.
    @Omitted public var inputs: InputsStatus?
    /// Home Assistant's discovery; absent when it is off.
    @Omitted public var ha: HAStatus?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case ok, gpsd, receivers, fix, trip, motion
        case currentTrip = "current_trip"
        case `guard`, fences, counters, storage, steps, mqtt, seq, version
        case uptimeS = "uptime_s"
        case eventsTotal = "events_total"
        case tripsTotal = "trips_total"
        case sky
        case clockOffsetS = "clock_offset_s"
        case today
        case odometerM = "odometer_m"
        case uplinks, anchor, inputs, ha
    }

    public struct GPSDStatus: Codable, Sendable, Equatable {
        public var connected = false
        public var device: String?
        /// `host:port`.
        public var address = ""
        /// Fixes and malformed lines the gpsd stream dropped (present once the source runs).
        @Omitted public var droppedFixes: Int?
        @Omitted public var droppedMalformed: Int?
        /// Connections to gpsd made again after one was lost, since the start.
        public var reconnects = 0
        public init() {}
        enum CodingKeys: String, CodingKey {
            case connected, device, address
            case droppedFixes = "dropped_fixes"
            case droppedMalformed = "dropped_malformed"
            case reconnects
        }
    }

    public struct FixStatus: Codable, Sendable, Equatable {
        /// 2 or 3 (gpsd's mode).
        public var mode = 0
        public var time: String?
        public var lat = 0.0
        public var lon = 0.0
        /// Horizontal error estimate, metres (2 decimals).
        public var eph: Double?
        public var speed: Double?
        /// Course over ground, degrees.
        public var track: Double?
        /// "north-east", or "unknown" when too slow to tell.
        public var courseText = ""
        /// Seconds since the fix was received.
        public var ageS: Double?
        public init() {}
        enum CodingKeys: String, CodingKey {
            case mode, time, lat, lon, eph, speed, track
            case courseText = "course_text"
            case ageS = "age_s"
        }
    }

    /// Satellites and dilutions of precision from gpsd's SKY: null where gpsd gave none.
    public struct SkyStatus: Codable, Sendable, Equatable {
        public var device: String?
        public var satellitesUsed: Int?
        public var satellitesSeen: Int?
        public var hdop: Double?
        public var vdop: Double?
        public var pdop: Double?
        public init() {}
        enum CodingKeys: String, CodingKey {
            case device
            case satellitesUsed = "satellites_used"
            case satellitesSeen = "satellites_seen"
            case hdop, vdop, pdop
        }
    }

    /// The day of the last accepted fix (the system's time zone) and what the trip counter
    /// added on its fixes since its midnight or the daemon's start.
    public struct DayStatus: Codable, Sendable, Equatable {
        /// YYYY-MM-DD.
        public var date = ""
        public var traveledM = 0.0
        public init() {}
        enum CodingKeys: String, CodingKey {
            case date
            case traveledM = "traveled_m"
        }
    }

    public struct MotionStatus: Codable, Sendable, Equatable {
        /// unknown, moving or stopped.
        public var state = ""
        public var since: String?
        /// Movements too short to be trips (inside the stop they happened in), and their
        /// distance: traveled distance all the same.
        @Omitted public var shortMoves: Int?
        @Omitted public var movedM: Double?
        public init(state: String, since: String?) {
            self.state = state
            self.since = since
        }
        enum CodingKeys: String, CodingKey {
            case state, since
            case shortMoves = "short_moves"
            case movedM = "moved_m"
        }
    }

    public struct Counters: Codable, Sendable, Equatable {
        public var fixesTotal = 0
        public var fixesAccepted = 0
        public var fixesDelivered = 0
        /// Rejected fixes by reason.
        public var fixesRejected = NamedCounts()
        public init() {}
        enum CodingKeys: String, CodingKey {
            case fixesTotal = "fixes_total"
            case fixesAccepted = "fixes_accepted"
            case fixesDelivered = "fixes_delivered"
            case fixesRejected = "fixes_rejected"
        }
    }

    public struct StorageStatus: Codable, Sendable, Equatable {
        /// off, ok or degraded.
        public var state = "off"
        public var reason: String?
        public var path: String?
        /// Events and track points given up beyond a degraded spell's bounds (with a store only).
        @Omitted public var droppedEvents: Int?
        @Omitted public var droppedPoints: Int?
        /// Track points and MQTT location messages deleted to make room on a full disk, since
        /// the start (with a store only).
        @Omitted public var thinnedPoints: Int?
        @Omitted public var thinnedLocations: Int?
        /// Events and track points waiting in memory for a write (with a store only).
        @Omitted public var waitingEvents: Int?
        @Omitted public var waitingPoints: Int?
        public init() {}
        enum CodingKeys: String, CodingKey {
            case state, reason, path
            case droppedEvents = "dropped_events"
            case droppedPoints = "dropped_points"
            case thinnedPoints = "thinned_points"
            case thinnedLocations = "thinned_locations"
            case waitingEvents = "waiting_events"
            case waitingPoints = "waiting_points"
        }
    }

    public struct MQTTStatus: Codable, Sendable, Equatable {
        public var connected = false
        /// Messages waiting to be sent.
        public var outbox = 0
        /// ok or degraded (the outbox table cannot be written), with the reason.
        public var outboxState = "ok"
        public var outboxReason: String?
        /// `host:port`.
        public var broker = ""
        public var topic = ""
        /// Seconds the oldest waiting message has waited; null with none waiting.
        public var oldestAgeS: Double?
        /// When the broker last acknowledged a message; null before the first.
        public var lastSuccess: String?
        /// Why TLS, asked for, is not set up (the client does not connect); absent when it is.
        @Omitted public var tlsError: String?
        public init() {}
        enum CodingKeys: String, CodingKey {
            case connected, outbox
            case outboxState = "outbox_state"
            case outboxReason = "outbox_reason"
            case broker, topic
            case oldestAgeS = "oldest_age_s"
            case lastSuccess = "last_success"
            case tlsError = "tls_error"
        }
    }
}
