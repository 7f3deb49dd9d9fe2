import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The pedometer's durable part, in the state database beside the store's tables (the one
/// connection, `StateDatabase`): the figures to carry on from (`pedometer`, one row) and
/// the steps counted, in increments with their wall-clock time (`steps`), for `steps --since`
/// and OwnTracks' `reportSteps`. A database that cannot be written keeps increments in memory
/// and is tried again at the next commit; the store reports the database's trouble.
final class StepLog {
    private let file: StateDatabase
    private var db: SQLiteDatabase? { file.connection }
    private var waiting: [(time: Double, steps: Int, distanceM: Double, walkingS: Double)] = []

    init(file: StateDatabase) {
        self.file = file
    }

    /// The stored figures, if any.
    func load() -> Pedometer.Memory? {
        guard
            let row =
                (try? db?.query(
                    """
                    SELECT total, distance_m, walking_s, trip_steps, trip_distance_m, trip_walking_s, last_counter, learned_distance_m,
                      learned_steps FROM pedometer WHERE id = 1 AND \(RowBounds.valid("pedometer"))
                    """))??.first
        else { return nil }
        var m = Pedometer.Memory()
        m.total = Int(checking: row[0].int ?? 0) ?? 0
        m.distanceM = row[1].double ?? 0
        m.walkingS = row[2].double ?? 0
        m.tripSteps = Int(checking: row[3].int ?? 0) ?? 0
        m.tripDistanceM = row[4].double ?? 0
        m.tripWalkingS = row[5].double ?? 0
        m.lastCounter = row[6].int.flatMap { Int(checking: $0) }
        m.learnedDistanceM = row[7].double ?? 0
        m.learnedSteps = Int(checking: row[8].int ?? 0) ?? 0
        return m
    }

    /// Writes the figures and an increment of steps (if any) in one transaction.
    @discardableResult
    func commit(_ m: Pedometer.Memory, steps: Int, distanceM: Double, walkingS: Double, at time: Double) -> Bool {
        if steps > 0 { waiting.append((time, steps, distanceM, walkingS)) }
        guard let db else { return false }
        do {
            try db.transaction { () throws(SQLiteDatabase.Failure) in
                for w in waiting {
                    try db.query(
                        "INSERT INTO steps (time, steps, distance_m, walking_s) VALUES (?, ?, ?, ?)",
                        [.real(w.time), .int(Int64(w.steps)), .real(w.distanceM), .real(w.walkingS)])
                }
                try db.query(
                    """
                    INSERT OR REPLACE INTO pedometer (id, total, distance_m, walking_s, trip_steps, trip_distance_m, trip_walking_s,
                      last_counter, learned_distance_m, learned_steps) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .int(Int64(m.total)), .real(m.distanceM), .real(m.walkingS), .int(Int64(m.tripSteps)),
                        .real(m.tripDistanceM),
                        .real(m.tripWalkingS), m.lastCounter.map { .int(Int64($0)) } ?? .null,
                        .real(m.learnedDistanceM),
                        .int(Int64(m.learnedSteps)),
                    ])
            }
            waiting = []
            return true
        } catch {
            return false
        }
    }

    /// Steps, walking distance and walking time counted from `since` to `until` (wall-clock
    /// seconds; either open), with what still waits to be written.
    func sum(since: Double?, until: Double?) -> (steps: Int, distanceM: Double, walkingS: Double) {
        var sql =
            "SELECT coalesce(sum(steps), 0), coalesce(sum(distance_m), 0), coalesce(sum(walking_s), 0) FROM steps WHERE "
            + RowBounds.valid("steps")
        var values: [SQLiteDatabase.Value] = []
        if let since {
            sql += " AND time >= ?"
            values.append(.real(since))
        }
        if let until {
            sql += " AND time <= ?"
            values.append(.real(until))
        }
        let row = (try? db?.query(sql, values))??.first
        var out = (Int(checking: row?[0].int ?? 0) ?? 0, row?[1].double ?? 0, row?[2].double ?? 0)
        for w in waiting where (since.map { w.time >= $0 } ?? true) && (until.map { w.time <= $0 } ?? true) {
            out.0 += w.steps
            out.1 += w.distanceM
            out.2 += w.walkingS
        }
        return out
    }
}
