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

    /// Trips: id, start, end, distance (oldest first).
    public func trips() -> [TripRow] {
        let rows = (try? db?.query("""
            SELECT id, state, started_at, coalesce(ended_at, last_time), traveled_m, straight_line_m FROM trips ORDER BY id
            """)) ?? []
        return rows.map { r in
            TripRow(id: r[0].int ?? 0, state: r[1].string ?? "", startedAt: r[2].double, endedAt: r[3].double,
                    traveledM: r[4].double ?? 0, straightLineM: r[5].double ?? 0)
        }
    }

    /// Events since a time, optionally of one fence, oldest first (at most `limit`).
    public func events(since: Double?, fence: String?, limit: Int = 10_000) -> [String] {
        var sql = "SELECT json FROM events WHERE 1"
        var values: [SQLiteDatabase.Value] = []
        if let since { sql += " AND time >= ?"; values.append(.real(since)) }
        if let fence { sql += " AND fence = ?"; values.append(.text(fence)) }
        sql += " ORDER BY seq LIMIT \(limit)"
        return ((try? db?.query(sql, values)) ?? []).compactMap { $0.first?.string }
    }

    /// Track points grouped by trip, for GPX.
    public func points(trip: Int64?, since: Double?, until: Double?) -> [(Int64, [PointRow])] {
        var sql = "SELECT trip_id, time, lat, lon, alt, eph, mode FROM points WHERE 1"
        var values: [SQLiteDatabase.Value] = []
        if let trip { sql += " AND trip_id = ?"; values.append(.int(trip)) }
        if let since { sql += " AND time >= ?"; values.append(.real(since)) }
        if let until { sql += " AND time <= ?"; values.append(.real(until)) }
        sql += " ORDER BY trip_id, time"
        var out: [(Int64, [PointRow])] = []
        for row in (try? db?.query(sql, values)) ?? [] {
            let id = row[0].int ?? 0
            let p = PointRow(time: row[1].double ?? 0, latitude: row[2].double ?? 0, longitude: row[3].double ?? 0,
                             altitude: row[4].double ?? .nan, eph: row[5].double ?? .nan, mode: Int(row[6].int ?? 0))
            if out.last?.0 == id { out[out.count - 1].1.append(p) } else { out.append((id, [p])) }
        }
        return out
    }
}
