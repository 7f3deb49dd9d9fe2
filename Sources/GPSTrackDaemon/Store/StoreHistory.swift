import GPSTrackCore
import GPSTrackProtocol

/// The history the control socket reads: trips, events and track points.
extension Store {
    /// A trip in the history.
    public struct TripRow: Sendable {
        public var id: Int64
        public var state: String
        public var startedAt: Double?
        public var endedAt: Double?
        public var traveledM: Double
        public var straightLineM: Double
    }

    /// Trips: id, start, end, distance (oldest first). A trip ended before any fix has no end
    /// time (its `ended_at` of 0 only marks it ended), never 1970.
    public func trips() -> [TripRow] {
        let rows =
            (try? db?.query(
                """
                SELECT id, state, started_at,
                  CASE WHEN started_at IS NULL THEN NULL WHEN ended_at IS NULL OR ended_at = 0 THEN last_time ELSE ended_at END,
                  traveled_m, straight_line_m FROM trips WHERE \(RowBounds.valid("trips")) ORDER BY id
                """)) ?? []
        return rows.map { r in
            TripRow(
                id: r[0].int ?? 0, state: r[1].string ?? "", startedAt: r[2].double, endedAt: r[3].double,
                traveledM: r[4].double ?? 0, straightLineM: r[5].double ?? 0)
        }
    }

    /// Automatic trips ended, oldest first.
    public func autoTrips() -> [TripFigures] {
        let rows =
            (try? db?.query(
                """
                SELECT id, start, end, from_lat, from_lon, from_fences, to_lat, to_lon, to_fences, traveled_m, straight_line_m,
                  moving_s, max_speed_mps, engine_s FROM auto_trips WHERE \(RowBounds.valid("auto_trips")) ORDER BY id
                """)) ?? []
        return rows.map { r in
            func names(_ v: SQLiteDatabase.Value) -> [String] {
                (v.string ?? "").split(separator: "\u{1F}").map(String.init)
            }
            var f = TripFigures(
                id: Int(checking: r[0].int ?? 0) ?? 0, start: r[1].double ?? 0, end: r[2].double ?? 0,
                from: Coordinate(latitude: r[3].double ?? .nan, longitude: r[4].double ?? .nan),
                to: Coordinate(latitude: r[6].double ?? .nan, longitude: r[7].double ?? .nan),
                traveledM: r[9].double ?? 0, straightLineM: r[10].double ?? 0, movingS: r[11].double ?? 0,
                maxSpeedMps: r[12].double ?? 0)
            f.fromFences = names(r[5])
            f.toFences = names(r[8])
            f.engineS = r[13].double
            return f
        }
    }

    /// Stops, oldest first, with the names of the fences at their place.
    public func stops() -> [(StopFigures, [String])] {
        let rows =
            (try? db?.query(
                """
                SELECT arrival, departure, lat, lon, fences, after_trip FROM stops
                WHERE \(RowBounds.valid("stops")) ORDER BY arrival
                """)) ?? []
        return rows.map { r in
            (
                StopFigures(
                    arrival: r[0].double ?? 0, departure: r[1].double,
                    at: Coordinate(latitude: r[2].double ?? .nan, longitude: r[3].double ?? .nan),
                    afterTrip: r[5].int.flatMap { Int(checking: $0) }),
                (r[4].string ?? "").split(separator: "\u{1F}").map(String.init)
            )
        }
    }

    /// Events since a time, optionally of one fence, oldest first (at most `limit`).
    public func events(since: Double?, fence: String?, limit: Int = 10_000) -> [String] {
        var sql = "SELECT json FROM events WHERE 1"
        var values: [SQLiteDatabase.Value] = []
        if let since {
            sql += " AND time >= ?"
            values.append(.real(since))
        }
        if let fence {
            sql += " AND fence = ?"
            values.append(.text(fence))
        }
        sql += " ORDER BY seq LIMIT \(limit)"
        return ((try? db?.query(sql, values)) ?? []).compactMap { $0.first?.string }
    }

    /// Track points grouped by trip, for GPX.
    public func points(trip: Int64?, since: Double?, until: Double?) -> [(Int64, [PointRow])] {
        var sql = "SELECT trip_id, time, lat, lon, alt, eph, mode FROM points WHERE \(RowBounds.valid("points"))"
        var values: [SQLiteDatabase.Value] = []
        if let trip {
            sql += " AND trip_id = ?"
            values.append(.int(trip))
        }
        if let since {
            sql += " AND time >= ?"
            values.append(.real(since))
        }
        if let until {
            sql += " AND time <= ?"
            values.append(.real(until))
        }
        sql += " ORDER BY trip_id, time"
        var out: [(Int64, [PointRow])] = []
        for row in (try? db?.query(sql, values)) ?? [] {
            let id = row[0].int ?? 0
            let p = PointRow(
                time: row[1].double ?? 0, latitude: row[2].double ?? 0, longitude: row[3].double ?? 0,
                altitude: row[4].double ?? .nan, eph: row[5].double ?? .nan, mode: Int(checking: row[6].int ?? 0) ?? 0)
            if out.last?.0 == id { out[out.count - 1].1.append(p) } else { out.append((id, [p])) }
        }
        return out
    }
}
