import GPSTrackCore
import GPSTrackProtocol

/// The rows the store takes and gives back.
extension Store {
    /// One event row to write.
    public struct EventRow: Sendable {
        public var seq: UInt64
        public var time: Double?
        public var event: String
        public var fence: String?
        public var json: String

        public init(seq: UInt64, time: Double?, event: String, fence: String?, json: String) {
            (self.seq, self.time, self.event, self.fence, self.json) = (seq, time, event, fence, json)
        }
    }

    /// One delivered track point.
    public struct PointRow: Sendable {
        public var time: Double
        public var latitude: Double
        public var longitude: Double
        /// Above mean sea level (`Fix.altitude`), and above the ellipsoid; NaN when unknown.
        public var altitude: Double
        public var altitudeHAE: Double
        public var eph: Double
        public var mode: Int
        /// The fix's HDOP (NaN when unknown) and satellites used (nil when unknown).
        public var hdop: Double
        public var satellites: Int?

        public init(
            time: Double, latitude: Double, longitude: Double, altitude: Double, eph: Double, mode: Int,
            hdop: Double = .nan, satellites: Int? = nil, altitudeHAE: Double = .nan
        ) {
            (self.time, self.latitude, self.longitude, self.altitude, self.eph, self.mode) = (
                time, latitude, longitude, altitude, eph, mode
            )
            (self.hdop, self.satellites, self.altitudeHAE) = (hdop, satellites, altitudeHAE)
        }
    }

    /// What the store holds of the past, to carry on from.
    public struct Restored: Sendable {
        public var trip: Trip?
        public var seq: UInt64
        public var fences: [String: FenceMemory]
        /// The trip detector's state (`TripDetector.encodedState()`), if stored.
        public var motion: String? = nil
        /// The fix counters of the runs before, nil when none were stored.
        public var counters: FixCounters? = nil
    }

    /// Automatic trips and stops to write with a commit (`trip_mode = auto`).
    public struct MotionRows: Sendable {
        /// The trip detector's state.
        public var state: String
        /// Trips that ended.
        public var trips: [TripFigures]
        /// Stops begun or left, with the names of the fences at their place (by arrival).
        public var stops: [(StopFigures, [String])]

        public init(state: String, trips: [TripFigures], stops: [(StopFigures, [String])]) {
            self.state = state
            self.trips = trips
            self.stops = stops
        }
    }
}

/// The fix counters as rows of the `counters` table.
extension Store {
    /// Counters from their rows: `total`, `accepted`, `delivered`, `odometer_mm` and `rejected.<reason>`.
    static func counters(from rows: [[SQLiteDatabase.Value]]) -> FixCounters? {
        guard !rows.isEmpty else { return nil }
        var values: [String: Int] = [:]
        // The rows come within `RowBounds` (a count below 1e15), so incrementing one never traps.
        for row in rows {
            if let name = row[0].string, let v = row[1].int.flatMap({ Int(checking: $0) }) { values[name] = v }
        }
        var rejected: [RejectReason: Int] = [:]
        for reason in RejectReason.allCases {
            if let n = values["rejected." + reason.rawValue] { rejected[reason] = n }
        }
        return FixCounters(
            total: values["total"] ?? 0, accepted: values["accepted"] ?? 0,
            delivered: values["delivered"] ?? 0, rejected: rejected,
            odometerM: Double(values["odometer_mm"] ?? 0) / 1000)
    }

    static func rows(of counters: FixCounters) -> [(String, Int)] {
        [
            ("total", counters.total), ("accepted", counters.accepted), ("delivered", counters.delivered),
            // Whole millimetres: the counters are integers (`RowBounds.count`).
            ("odometer_mm", Int(checking: min(counters.odometerM * 1000, 1e15)) ?? 0),
        ]
            + counters.rejected.map { ("rejected." + $0.key.rawValue, $0.value) }
    }
}
