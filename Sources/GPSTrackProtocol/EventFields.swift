import GPSTrackJSON

/// The fields of each kind of tracking event, in the order the line has them. Times are ISO 8601
/// UTC fix times; figures are rounded by the daemon as the line has always had them (distances
/// to 0.1 m or 0.01 m, speeds to 0.01 m/s).
extension EventLine {
    /// `enter`, `exit`, `dwell`, `state`: a fence by its id in the fences file (never an index).
    public struct FenceChange: Codable, Sendable, Equatable {
        public var fence: String
        /// The fence's name; null without one.
        public var name: String?
        /// `state` events only: inside or unknown.
        @Omitted public var state: String?
        public var time: String
        /// Where it was decided; null when no position was known.
        public var lat: Double?
        public var lon: Double?
        /// True, and present only then, for a crossing found between two fixes.
        @Omitted public var crossed: Bool?

        public init(
            fence: String, name: String?, state: String? = nil, time: String, lat: Double?, lon: Double?,
            crossed: Bool? = nil
        ) {
            self.fence = fence
            self.name = name
            self.state = state
            self.time = time
            self.lat = lat
            self.lon = lon
            self.crossed = crossed
        }

        enum CodingKeys: String, CodingKey { case fence, name, state, time, lat, lon, crossed }
    }

    /// `fences_determined`: how many fences one determination found inside, outside, undecided.
    public struct FencesDetermined: Codable, Sendable, Equatable {
        public var inside: Int
        public var outside: Int
        public var unknown: Int
        public var time: String

        public init(inside: Int, outside: Int, unknown: Int, time: String) {
            self.inside = inside
            self.outside = outside
            self.unknown = unknown
            self.time = time
        }
    }

    /// `trip_start`: the trip's id in `trip_mode = auto`, absent with the manual counter.
    public struct TripStart: Codable, Sendable, Equatable {
        @Omitted public var trip: Int?
        public var time: String
        public var lat: Double
        public var lon: Double

        public init(trip: Int?, time: String, lat: Double, lon: Double) {
            self.trip = trip
            self.time = time
            self.lat = lat
            self.lon = lon
        }
    }

    /// `trip_end`: an automatic trip's whole figures.
    public struct TripEnd: Codable, Sendable, Equatable {
        public var trip: Int
        public var start: String
        public var end: String
        public var from: Place
        public var to: Place
        public var traveledM: Double
        public var straightLineM: Double
        public var durationS: Double
        public var movingS: Double
        public var maxSpeedMps: Double
        public var avgSpeedMps: Double
        /// Seconds of the trip the ignition was on; absent without `input_ignition`.
        @Omitted public var engineS: Double?

        public init(
            trip: Int, start: String, end: String, from: Place, to: Place, traveledM: Double, straightLineM: Double,
            durationS: Double, movingS: Double, maxSpeedMps: Double, avgSpeedMps: Double, engineS: Double? = nil
        ) {
            self.trip = trip
            self.start = start
            self.end = end
            self.from = from
            self.to = to
            self.traveledM = traveledM
            self.straightLineM = straightLineM
            self.durationS = durationS
            self.movingS = movingS
            self.maxSpeedMps = maxSpeedMps
            self.avgSpeedMps = avgSpeedMps
            self.engineS = engineS
        }

        enum CodingKeys: String, CodingKey {
            case trip, start, end, from, to
            case traveledM = "traveled_m"
            case straightLineM = "straight_line_m"
            case durationS = "duration_s"
            case movingS = "moving_s"
            case maxSpeedMps = "max_speed_mps"
            case avgSpeedMps = "avg_speed_mps"
            case engineS = "engine_s"
        }
    }

    /// `trip_stop`: the manual counter frozen; null time when no fix had one.
    public struct TripStop: Codable, Sendable, Equatable {
        public var time: String?
        public var traveledM: Double

        public init(time: String?, traveledM: Double) {
            self.time = time
            self.traveledM = traveledM
        }

        enum CodingKeys: String, CodingKey {
            case time
            case traveledM = "traveled_m"
        }
    }

    /// `guard_armed`: the parked guard's centre and radius.
    public struct GuardArmed: Codable, Sendable, Equatable {
        public var time: String
        public var lat: Double
        public var lon: Double
        public var radiusM: Double

        public init(time: String, lat: Double, lon: Double, radiusM: Double) {
            self.time = time
            self.lat = lat
            self.lon = lon
            self.radiusM = radiusM
        }

        enum CodingKeys: String, CodingKey {
            case time, lat, lon
            case radiusM = "radius_m"
        }
    }

    /// `guard_breach`: a fix this far from where the vehicle was parked; a repeat's position,
    /// distance and speed are where the vehicle is when it is said again.
    public struct GuardBreach: Codable, Sendable, Equatable {
        public var time: String
        public var lat: Double
        public var lon: Double
        public var distanceM: Double
        /// The fix's speed over ground (absent when the receiver gave none).
        @Omitted public var speedMps: Double?
        /// The parked place (no fences: `fences` is always empty).
        public var parked: Place
        /// A latched breach said again: 1, 2... until `guard ack` (absent on the breach itself).
        @Omitted public var `repeat`: Int?

        public init(
            time: String, lat: Double, lon: Double, distanceM: Double, speedMps: Double? = nil, parked: Place,
            repeat: Int? = nil
        ) {
            self.time = time
            self.lat = lat
            self.lon = lon
            self.distanceM = distanceM
            self.speedMps = speedMps
            self.parked = parked
            self.repeat = `repeat`
        }

        enum CodingKeys: String, CodingKey {
            case time, lat, lon
            case distanceM = "distance_m"
            case speedMps = "speed_mps"
            case parked, `repeat`
        }
    }

    /// `overspeed_start`: time is when the excess began.
    public struct OverspeedStart: Codable, Sendable, Equatable {
        public var time: String
        public var lat: Double
        public var lon: Double
        public var limitKmh: Double
        public var speedMps: Double

        public init(time: String, lat: Double, lon: Double, limitKmh: Double, speedMps: Double) {
            self.time = time
            self.lat = lat
            self.lon = lon
            self.limitKmh = limitKmh
            self.speedMps = speedMps
        }

        enum CodingKeys: String, CodingKey {
            case time, lat, lon
            case limitKmh = "limit_kmh"
            case speedMps = "speed_mps"
        }
    }

    /// `overspeed_end`: the excess over, with its top speed, length and distance.
    public struct OverspeedEnd: Codable, Sendable, Equatable {
        public var time: String
        public var lat: Double
        public var lon: Double
        public var limitKmh: Double
        public var maxSpeedMps: Double
        public var durationS: Double
        public var distanceM: Double

        public init(
            time: String, lat: Double, lon: Double, limitKmh: Double, maxSpeedMps: Double, durationS: Double,
            distanceM: Double
        ) {
            self.time = time
            self.lat = lat
            self.lon = lon
            self.limitKmh = limitKmh
            self.maxSpeedMps = maxSpeedMps
            self.durationS = durationS
            self.distanceM = distanceM
        }

        enum CodingKeys: String, CodingKey {
            case time, lat, lon
            case limitKmh = "limit_kmh"
            case maxSpeedMps = "max_speed_mps"
            case durationS = "duration_s"
            case distanceM = "distance_m"
        }
    }

    /// `discontinuity`: the reference moved; `counted` tells whether the hop counted as travel.
    public struct Discontinuity: Codable, Sendable, Equatable {
        public var time: String
        public var lat: Double
        public var lon: Double
        public var counted: Bool

        public init(time: String, lat: Double, lon: Double, counted: Bool) {
            self.time = time
            self.lat = lat
            self.lon = lon
            self.counted = counted
        }
    }
}
