import GPSTrackJSON
import GPSTrackProtocol

/// The `properties` of the GeoJSON export's features, as gpstrackctl(1) lists them: Codable
/// values for `ReplyEncoder`, keys in their CodingKeys' order. A figure the row lacks is left out
/// (`@Omitted`) where the export always left it out, and `null` where it always wrote null.
enum GeoJSONProperties {
    /// A trip's LineString (`kind` trip, or track for the range without trips).
    struct Trip: Encodable {
        var kind: String
        var id: Int
        var state: String
        var start: String
        @Omitted var end: String?
        /// The fences at each end, joined by ", ".
        var from: String
        @Omitted var to: String?
        var distanceM: Double
        @Omitted var straightLineM: Double?
        @Omitted var durationS: Double?
        @Omitted var movingS: Double?
        @Omitted var maxSpeedMps: Double?
        @Omitted var avgSpeedMps: Double?

        init(_ t: AutoTrip) {
            kind = t.state == "track" ? "track" : "trip"
            id = t.id
            state = t.state
            start = t.startedAt
            end = t.endedAt
            from = t.from.fences.joined(separator: ", ")
            to = t.to.map { $0.fences.joined(separator: ", ") }
            distanceM = t.traveledM
            straightLineM = t.straightLineM
            durationS = t.durationS
            movingS = t.movingS
            maxSpeedMps = t.maxSpeedMps
            avgSpeedMps = t.avgSpeedMps
        }

        enum CodingKeys: String, CodingKey {
            case kind, id, state, start, end, from, to
            case distanceM = "distance_m"
            case straightLineM = "straight_line_m"
            case durationS = "duration_s"
            case movingS = "moving_s"
            case maxSpeedMps = "max_speed_mps"
            case avgSpeedMps = "avg_speed_mps"
        }
    }

    /// A stop's Point, numbered from 1 in the range; departure and duration null while parked.
    struct Stop: Encodable {
        var kind = "stop"
        var id: Int
        var arrival: String
        var departure: String?
        var durationS: Double?
        var fences: String
        @Omitted var afterTrip: Int?

        init(_ s: StopRow, number: Int) {
            id = number
            arrival = s.arrival
            departure = s.departure
            durationS = s.durationS
            fences = s.at.fences.joined(separator: ", ")
            afterTrip = s.afterTrip
        }

        enum CodingKeys: String, CodingKey {
            case kind, id, arrival, departure
            case durationS = "duration_s"
            case fences
            case afterTrip = "after_trip"
        }
    }

    /// An event's Point: its kind, fence (id and name, null for events of no fence) and time.
    struct Event: Encodable {
        var kind: String
        var fence: String?
        var name: String?
        var time: String
        @Omitted var radiusM: Double?

        init(_ e: ExportEvent) {
            kind = e.kind
            fence = e.fence
            name = e.name
            time = e.time
            radiusM = e.radiusM
        }

        enum CodingKeys: String, CodingKey {
            case kind, fence, name, time
            case radiusM = "radius_m"
        }
    }

    /// A fence (`--fences`): a circle has its radius, a corridor its width.
    struct Fence: Encodable {
        var kind = "fence"
        var id: String
        var name: String?
        var shape: String
        @Omitted var radiusM: Double?
        @Omitted var widthM: Double?

        init(_ f: ExportFence) {
            id = f.id
            name = f.name
            shape = f.kind
            radiusM = f.radiusM
            widthM = f.widthM
        }

        enum CodingKeys: String, CodingKey {
            case kind, id, name, shape
            case radiusM = "radius_m"
            case widthM = "width_m"
        }
    }
}
