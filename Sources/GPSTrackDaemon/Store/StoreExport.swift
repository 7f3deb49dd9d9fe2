import GPSTrackCore
import GPSTrackProtocol

/// The queries of `export_page`: the points of a scope a page at a time, and their bounds.
extension Store {
    /// Which points an export reads: one odometer run, or a time range (ends optional).
    public struct PointFilter: Sendable {
        public var run: Int64?
        public var since: Double?
        public var until: Double?
        public init(run: Int64?, since: Double?, until: Double?) {
            self.run = run
            self.since = since
            self.until = until
        }

        fileprivate var sql: (String, [SQLiteDatabase.Value]) {
            var sql = ""
            var values: [SQLiteDatabase.Value] = []
            if let run {
                sql += " AND trip_id = ?"
                values.append(.int(run))
            }
            if let since {
                sql += " AND time >= ?"
                values.append(.real(since))
            }
            if let until {
                sql += " AND time <= ?"
                values.append(.real(until))
            }
            return (sql, values)
        }
    }

    /// A stored point with its odometer run and row id (the page cursor).
    public struct ExportRow: Sendable {
        public var id: Int64
        public var run: Int64
        public var point: PointRow
    }

    /// The points' count, time span and extent; nil when none matches.
    public func exportBounds(_ filter: PointFilter) -> ExportBounds? {
        let (sql, values) = filter.sql
        guard
            let r = try? db?.query(
                """
                SELECT COUNT(*), MIN(time), MAX(time), MIN(lat), MAX(lat), MIN(lon), MAX(lon), MIN(alt), MAX(alt)
                FROM points WHERE \(RowBounds.valid("points"))\(sql)
                """, values
            ).first, let n = r[0].int, n > 0
        else { return nil }
        return ExportBounds(
            points: Int(checking: n) ?? 0, first: r[1].double ?? 0, last: r[2].double ?? 0,
            minLat: r[3].double ?? 0, maxLat: r[4].double ?? 0, minLon: r[5].double ?? 0,
            maxLon: r[6].double ?? 0, minAlt: r[7].double, maxAlt: r[8].double)
    }

    /// Up to `limit` points in time order, from the point `from` on (that point included, so
    /// that the caller has the one before the page's first), else from the first.
    public func exportRows(_ filter: PointFilter, from: Int64?, limit: Int) -> [ExportRow] {
        var (sql, values) = filter.sql
        if let from {
            // By (time, id): the time index seeks to the cursor, whatever the range's size.
            guard let t = (try? db?.query("SELECT time FROM points WHERE id = ?", [.int(from)]))?.first?.first?.double
            else {
                return []
            }
            sql += " AND time >= ? AND (time > ? OR id >= ?)"
            values += [.real(t), .real(t), .int(from)]
        }
        let rows =
            (try? db?.query(
                """
                SELECT id, trip_id, time, lat, lon, alt, eph, mode, hdop, sats FROM points WHERE \(RowBounds.valid("points"))\(sql)
                ORDER BY time, id LIMIT \(limit)
                """, values)) ?? []
        return rows.map { r in
            ExportRow(
                id: r[0].int ?? 0, run: r[1].int ?? 0,
                point: PointRow(
                    time: r[2].double ?? 0, latitude: r[3].double ?? 0, longitude: r[4].double ?? 0,
                    altitude: r[5].double ?? .nan, eph: r[6].double ?? .nan, mode: Int(checking: r[7].int ?? 0) ?? 0,
                    hdop: r[8].double ?? .nan, satellites: r[9].int.flatMap { Int(checking: $0) }))
        }
    }
}
