import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The last line of `gpstrackd replay`, `{"summary":{…}}`, in the order gpstrackd(8) lists
/// its fields. Figures are rounded here; the encoder writes what it is given.
struct ReplaySummary: Encodable {
    struct Figures: Encodable {
        var traveledM: Double
        var straightLineM: Double
        var fixesTotal: Int
        var fixesAccepted: Int
        var fixesDelivered: Int
        var fixesRejected: NamedCounts
        var tpvTotal: Int
        var linesMalformed: Int
        /// With `trip_mode = auto` only.
        @Omitted var trips: Int?
        var start: EventJSON.TimedPoint?
        var end: EventJSON.TimedPoint?
        var course: String
        /// With fences only.
        @Omitted var events: FenceCounts?

        enum CodingKeys: String, CodingKey {
            case traveledM = "traveled_m"
            case straightLineM = "straight_line_m"
            case fixesTotal = "fixes_total"
            case fixesAccepted = "fixes_accepted"
            case fixesDelivered = "fixes_delivered"
            case fixesRejected = "fixes_rejected"
            case tpvTotal = "tpv_total"
            case linesMalformed = "lines_malformed"
            case trips, start, end, course, events
        }
    }

    /// The fence events counted, always all three.
    struct FenceCounts: Codable, Sendable {
        var enter: Int
        var exit: Int
        var dwell: Int
    }

    var summary: Figures

    init(_ session: TrackingSession, tpvCount: Int, malformed: Int) {
        let tracker = session.tracker
        let trip = tracker.trip
        let counters = tracker.counters
        let auto = tracker.config.tripMode == .auto
        // The straight line's own two places (gpstrackd(8)): `straight_line_m` is the geodesic
        // between the `start` and `end` printed.
        let arrival = auto ? tracker.trips.currentStop?.arrival : nil
        let end = EventJSON.point(trip.end, time: arrival ?? trip.lastDeliveredTime)
        let last = trip.lastFix
        let counts = session.fenceEventCounts
        summary = Figures(
            traveledM: trip.traveledM.rounded(decimals: 2), straightLineM: trip.straightLineM.rounded(decimals: 2),
            fixesTotal: counters.total, fixesAccepted: counters.accepted, fixesDelivered: counters.delivered,
            fixesRejected: NamedCounts(Dictionary(uniqueKeysWithValues: counters.rejected.map { ($0.rawValue, $1) })),
            tpvTotal: tpvCount, linesMalformed: malformed, trips: auto ? tracker.trips.tripCount : nil,
            start: EventJSON.point(trip.start, time: trip.startedAt), end: end,
            course: CourseText(
                track: last?.track ?? .nan, speed: last?.speed ?? .nan, minimumSpeed: tracker.config.minCourseSpeedMps
            ).text,
            events: session.geofences == nil
                ? nil : FenceCounts(enter: counts["enter"] ?? 0, exit: counts["exit"] ?? 0, dwell: counts["dwell"] ?? 0)
        )
    }
}

/// The last line of `gpstrackd replay-accel`, `{"summary":{…}}`, as gpstrackd(8) gives it.
struct AccelSummary: Encodable {
    struct Figures: Encodable {
        var steps: Int
        /// Null without a walk.
        var cadenceSpm: Double?
        var durationS: Double
        var walkingS: Double
        var samples: Int
        var linesMalformed: Int

        enum CodingKeys: String, CodingKey {
            case steps
            case cadenceSpm = "cadence_spm"
            case durationS = "duration_s"
            case walkingS = "walking_s"
            case samples
            case linesMalformed = "lines_malformed"
        }
    }

    var summary: Figures
}
