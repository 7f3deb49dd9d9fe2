import GPSTrackJSON

/// The physical bounds of the state database's figures, one table for every reader: a row
/// with a figure outside them (a damaged card's 1e300 m trip, a counter at Int64's greatest
/// that trapped when it was incremented) is not loaded and never shown as a figure; it is left
/// in the file, and named once at start in the journal (`damaged_row`: table, row, field, the
/// value). gpstrackd(8), STATE DATABASE, Damage, gives the bounds.
enum RowBounds {
    /// One column's bound; NULL passes where the column may hold it.
    struct Field: Sendable {
        var column: String
        var range: ClosedRange<Double>
        var nullable = false
    }

    /// A table's key (what names a row) and its bounded columns.
    struct Table: Sendable {
        var name: String
        var key: String
        var fields: [Field]
    }

    /// Seconds since 1970 of the years 0000 to 9999 (what `Timestamp` writes).
    static let time = -62_167_219_200.0...253_402_300_799.0
    static let lat = -90.0...90.0
    static let lon = -180.0...180.0
    /// Ten million km: a manual trip of decades at motorway speed.
    static let metres = 0.0...1e10
    /// About 317 years of seconds.
    static let seconds = 0.0...1e10
    /// A count of fixes or steps: a thousand a second for 31,000 years, far below Int64's
    /// greatest (so that incrementing never traps) and exact in a Double.
    static let count = 0.0...1e15
    static let speed = 0.0...1_000.0

    static func f(_ column: String, _ range: ClosedRange<Double>, null: Bool = false) -> Field {
        Field(column: column, range: range, nullable: null)
    }

    static let tables: [Table] = [
        Table(
            name: "trips", key: "id",
            fields: [
                f("started_at", time, null: true), f("start_lat", lat, null: true), f("start_lon", lon, null: true),
                f("ended_at", time, null: true), f("traveled_m", metres), f("straight_line_m", metres),
                f("last_lat", lat, null: true), f("last_lon", lon, null: true), f("last_time", time, null: true),
                f("delivered", count),
            ]),
        Table(
            name: "auto_trips", key: "id",
            fields: [
                f("start", time), f("end", time), f("from_lat", lat, null: true), f("from_lon", lon, null: true),
                f("to_lat", lat, null: true), f("to_lon", lon, null: true), f("traveled_m", metres, null: true),
                f("straight_line_m", metres, null: true), f("moving_s", seconds, null: true),
                f("max_speed_mps", speed, null: true), f("engine_s", seconds, null: true),
            ]),
        Table(
            name: "stops", key: "arrival",
            fields: [
                f("arrival", time), f("departure", time, null: true), f("lat", lat, null: true),
                f("lon", lon, null: true), f("after_trip", count, null: true),
            ]),
        Table(
            name: "points", key: "id",
            fields: [f("time", time), f("lat", lat), f("lon", lon), f("eph", 0...1e7, null: true)]),
        Table(
            name: "fences", key: "id",
            fields: [f("since", time, null: true), f("entered_at", time, null: true)]),
        Table(name: "counters", key: "name", fields: [f("value", count)]),
        Table(
            name: "pedometer", key: "id",
            fields: [
                f("total", count), f("distance_m", metres), f("walking_s", seconds), f("trip_steps", count),
                f("trip_distance_m", metres), f("trip_walking_s", seconds), f("last_counter", count, null: true),
                f("learned_distance_m", metres), f("learned_steps", count),
            ]),
        Table(
            name: "steps", key: "id",
            fields: [f("time", time), f("steps", count), f("distance_m", metres), f("walking_s", seconds)]),
        Table(name: "uplink_outbox", key: "id", fields: [f("queued", time), f("fix_time", time, null: true)]),
    ]

    /// The SQL condition a row of `table` within its bounds meets (a text or blob where a
    /// number belongs fails it: SQLite orders them after every number).
    static func valid(_ table: String) -> String {
        guard let t = tables.first(where: { $0.name == table }) else { return "1" }
        return t.fields.map(condition).joined(separator: " AND ")
    }

    static func condition(_ f: Field) -> String {
        let within =
            "(typeof(\(f.column)) IN ('integer', 'real') AND \(f.column) BETWEEN \(f.range.lowerBound) AND \(f.range.upperBound))"
        return f.nullable ? "(\(f.column) IS NULL OR \(within))" : within
    }

    /// One damaged row: where, which field, and what it holds (as SQLite gives it).
    struct Damage: Equatable, Sendable {
        var table: String
        var row: String
        var field: String
        var value: String
    }

    /// Every row outside its bounds, at most `limit` named per table, and how many in all per table.
    static func scan(_ db: SQLiteDatabase, limit: Int = 20) -> (named: [Damage], counts: [String: Int]) {
        var named: [Damage] = []
        var counts: [String: Int] = [:]
        for t in tables {
            let columns = t.fields.map(\.column)
            let sql =
                "SELECT \(t.key), \(columns.joined(separator: ", ")) FROM \(t.name) WHERE NOT (\(valid(t.name)))"
            guard let rows = try? db.query(sql + " ORDER BY rowid") else { continue }
            guard !rows.isEmpty else { continue }
            counts[t.name] = rows.count
            for row in rows.prefix(limit) {
                for (i, f) in t.fields.enumerated() where !holds(row[i + 1], f) {
                    named.append(Damage(table: t.name, row: text(row[0]), field: f.column, value: text(row[i + 1])))
                    break
                }
            }
        }
        return (named, counts)
    }

    static func holds(_ v: SQLiteDatabase.Value, _ f: Field) -> Bool {
        switch v {
        case .null: f.nullable
        case .int(let i): f.range.contains(Double(i))
        case .real(let d): f.range.contains(d)
        case .text: false
        }
    }

    static func text(_ v: SQLiteDatabase.Value) -> String {
        switch v {
        case .null: "NULL"
        case .int(let i): String(i)
        case .real(let d): d == d.rounded() ? Int64(checking: d).map(String.init) ?? "\(d)" : "\(d)"
        case .text(let s): ReplyEncoder.quote(String(String.UnicodeScalarView(s.unicodeScalars.prefix(64))))
        }
    }
}

extension Store {
    /// Names each damaged row once in the journal (the first `limit` of a table, then how many
    /// more): the start's one look at the file, whose rows no reader loads.
    func nameDamage(_ db: SQLiteDatabase) {
        let (named, counts) = RowBounds.scan(db)
        for d in named {
            let bound = RowBounds.tables.first { $0.name == d.table }?.fields.first { $0.column == d.field }?.range
            journal.log(
                LogEntry(
                    event: .damagedRow, priority: .warning,
                    message:
                        "State database \(path): \(d.table) row \(d.row) has \(d.field) = \(d.value), outside "
                        + "\(bound.map { "\($0.lowerBound) to \($0.upperBound)" } ?? "its bounds"); "
                        + "not loaded, left in the file",
                    fields: [
                        (.table, d.table), (.row, d.row), (.field, d.field), (.value, d.value),
                        (.counted, String(counts[d.table] ?? 1)), (.path, path),
                    ]))
        }
        for (table, n) in counts.sorted(by: { $0.key < $1.key }) where n > named.filter({ $0.table == table }).count {
            let more = n - named.filter { $0.table == table }.count
            journal.log(
                LogEntry(
                    event: .damagedRow, priority: .warning,
                    message: "State database \(path): \(more) more damaged rows in \(table), not loaded",
                    fields: [(.table, table), (.counted, String(n)), (.path, path)]))
        }
    }
}
