/// The outbox's housekeeping, under its lock: what waits in memory moves into the table in
/// order, and the thinnable rows go for the limit and the age limit (never one in flight).
extension Outbox {
    /// Moves what waits in memory into the table, in order (stopping at a message in flight:
    /// its confirmation names it by its memory id), and deletes the confirmed rows whose
    /// deletion failed before. A write that works ends a degraded spell once memory is empty.
    func flush(_ db: SQLiteDatabase?, _ s: inout State) {
        guard let db else { return }
        for id in s.delivered where (try? db.query("DELETE FROM uplink_outbox WHERE id = ?", [.int(id)])) != nil {
            s.delivered.remove(id)
        }
        while let m = s.unsaved.first, !s.inflight.contains(m.id) {
            do throws(SQLiteDatabase.Failure) {
                try insertRow(db, m)
            } catch {
                s.failure = error.message
                return
            }
            s.unsaved.removeFirst()
        }
        if s.unsaved.isEmpty { s.failure = nil }
    }

    func insertRow(_ db: SQLiteDatabase, _ m: Message) throws(SQLiteDatabase.Failure) {
        try db.query(
            """
            INSERT INTO uplink_outbox (uplink, kind, payload, queued, fix_time, topic, qos, form)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(uplink), .text(m.kind.rawValue), .text(m.payload), .real(m.queued),
                m.fixTime.map { .real($0) } ?? .null, m.topic.map { .text($0) } ?? .null, .int(Int64(m.qos)),
                m.form.map { .text($0.rawValue) } ?? .null,
            ])
    }

    /// Drops the thinnable rows whose fix is older than `cutoff` (never one in flight: trip
    /// ends, transitions and alarms are what a backlog is for).
    func expire(_ db: SQLiteDatabase?, _ s: inout State, before cutoff: Double) {
        if let db {
            let victims =
                ((try? db.query(
                    """
                    SELECT id FROM uplink_outbox WHERE uplink = ? AND \(OutboxKind.thinnableSQL) AND fix_time < ?
                    ORDER BY id
                    """, [.text(uplink), .real(cutoff)])) ?? [])
                .compactMap { $0.first?.int }.filter { !s.inflight.contains($0) && !s.delivered.contains($0) }
            for id in victims where (try? db.query("DELETE FROM uplink_outbox WHERE id = ?", [.int(id)])) != nil {
                s.expired += 1
            }
        }
        let before = s.unsaved.count
        s.unsaved.removeAll {
            $0.kind.thinnable && ($0.fixTime ?? .infinity) < cutoff && !s.inflight.contains($0.id)
        }
        s.expired += before - s.unsaved.count
    }

    /// Drops the oldest thinnable rows beyond the limit (never one in flight).
    func trim(_ db: SQLiteDatabase?, _ s: inout State) {
        let rows = Int(
            (try? db?.query("SELECT count(*) FROM uplink_outbox WHERE uplink = ?", [.text(uplink)]))??.first?.first?.int
                ?? 0)
        var excess = rows - s.delivered.count + s.unsaved.count - limit
        guard excess > 0 else { return }
        if let db {
            let keep = s.inflight.union(s.delivered)
            let victims =
                ((try? db.query(
                    "SELECT id FROM uplink_outbox WHERE uplink = ? AND \(OutboxKind.thinnableSQL) ORDER BY id LIMIT ?",
                    [.text(uplink), .int(Int64(excess + keep.count))])) ?? [])
                .compactMap { $0.first?.int }.filter { !keep.contains($0) }.prefix(excess)
            for id in victims where (try? db.query("DELETE FROM uplink_outbox WHERE id = ?", [.int(id)])) != nil {
                excess -= 1
                s.dropped += 1
            }
        }
        while excess > 0, let i = s.unsaved.firstIndex(where: { $0.kind.thinnable && !s.inflight.contains($0.id) }) {
            s.unsaved.remove(at: i)
            excess -= 1
            s.dropped += 1
        }
    }

    /// Deletes up to `batch` of the oldest thinnable rows of every queue in `db` (the store, to
    /// make room on a full disk; one rule with the limits'); returns how many went.
    static func thin(_ db: SQLiteDatabase, batch: Int) -> Int {
        // Held together: another thread's statement between them would be what `changes` counts.
        db.locked { () -> Int in
            guard
                (try? db.query(
                    """
                    DELETE FROM uplink_outbox WHERE id IN
                      (SELECT id FROM uplink_outbox WHERE \(OutboxKind.thinnableSQL) ORDER BY id LIMIT ?)
                    """, [.int(Int64(batch))])) != nil
            else { return 0 }
            return db.changes
        }
    }
}
