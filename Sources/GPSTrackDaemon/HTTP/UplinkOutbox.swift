import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP uplink's durable queue: every message is written to the `uplink_outbox` table of
/// the state database (its `uplink` column names the queue) before anyone may send it, and
/// deleted only when the server answered 2xx. Oldest first; what the table cannot take (a full
/// disk) waits in memory, after the table's rows. Beyond `limit` the oldest locations go;
/// trip ends and alarms never do. With `maxAgeS`, locations whose fix is older than that
/// behind the newest fix queued go too (see `expire`).
final class UplinkOutbox: Sendable {
    /// A message waiting: its row id (negative while it waits in memory), kind and payload.
    struct Message: Equatable {
        var id: Int64
        var kind: String
        var payload: String
        var queued: Double
        /// The time of the fix it tells of; nil for what tells of none (waypoints).
        var fixTime: Double? = nil
    }

    let uplink: String
    let limit: Int
    let maxAgeS: Double?
    private struct State {
        var unsaved: [Message] = []
        var nextUnsavedID: Int64 = -1
        /// Rows delivered whose deletion failed: never sent again.
        var delivered: Set<Int64> = []
        /// The message the sender is sending, kept from the limit's drops.
        var inflight: Int64?
        var dropped = 0
        /// Locations dropped for their age (`maxAgeS`).
        var expired = 0
    }
    /// The state database, whose `uplink_outbox` table holds the queue.
    private let file: StateDatabase
    private let state = Mutex(State())

    /// The queue in the state database at `path` (tests; the daemon shares its one database).
    convenience init(uplink: String, databasePath: String, limit: Int, maxAgeS: Double? = nil) {
        self.init(uplink: uplink, file: StateDatabase(path: databasePath), limit: limit, maxAgeS: maxAgeS)
    }

    /// The queue in the state database `file`; in memory alone while it cannot be opened.
    init(uplink: String, file: StateDatabase, limit: Int, maxAgeS: Double? = nil) {
        self.uplink = uplink
        self.limit = limit
        self.maxAgeS = maxAgeS
        self.file = file
    }

    /// Queues a message (`kind` location, trip or alarm) telling of the fix at `fixTime`; false
    /// when it waits in memory only.
    @discardableResult
    func store(kind: String, payload: String, fixTime: Double? = nil, queued: Double = Double(time(nil))) -> Bool {
        let written = state.withLock { s -> Bool in
            let db = file.connection
            flush(db, &s)
            if let maxAgeS, let fixTime { expire(db, &s, before: fixTime - maxAgeS) }
            if s.unsaved.isEmpty, let db,
                (try? db.query(
                    "INSERT INTO uplink_outbox (uplink, kind, payload, queued, fix_time) VALUES (?, ?, ?, ?, ?)",
                    [.text(uplink), .text(kind), .text(payload), .real(queued), fixTime.map { .real($0) } ?? .null]
                )) != nil
            {
                trim(db, &s)
                return true
            }
            s.unsaved.append(
                Message(id: s.nextUnsavedID, kind: kind, payload: payload, queued: queued, fixTime: fixTime))
            s.nextUnsavedID -= 1
            trim(db, &s)
            return false
        }
        return written
    }

    /// Drops the locations whose fix is older than `cutoff` (never the one in flight, never
    /// what is no location: transitions, trip ends and alarms are what a backlog is for).
    private func expire(_ db: SQLiteDatabase?, _ s: inout State, before cutoff: Double) {
        if let db {
            let victims =
                ((try? db.query(
                    "SELECT id FROM uplink_outbox WHERE uplink = ? AND kind = 'location' AND fix_time < ? ORDER BY id",
                    [.text(uplink), .real(cutoff)])) ?? [])
                .compactMap { $0.first?.int }.filter { $0 != s.inflight && !s.delivered.contains($0) }
            for id in victims where (try? db.query("DELETE FROM uplink_outbox WHERE id = ?", [.int(id)])) != nil {
                s.expired += 1
            }
        }
        let before = s.unsaved.count
        s.unsaved.removeAll { $0.kind == "location" && ($0.fixTime ?? .infinity) < cutoff && $0.id != s.inflight }
        s.expired += before - s.unsaved.count
    }

    /// The oldest message waiting, now in flight; nil with none.
    func head() -> Message? {
        state.withLock { s in
            let db = file.connection
            flush(db, &s)
            let skip =
                s.delivered.isEmpty ? "" : " AND id NOT IN (\(s.delivered.map(String.init).joined(separator: ",")))"
            let row =
                (try? db?.query(
                    "SELECT id, kind, payload, queued FROM uplink_outbox WHERE uplink = ?\(skip) ORDER BY id LIMIT 1",
                    [.text(uplink)]))??.first
            let m =
                row.flatMap { r in
                    r[0].int.map {
                        Message(
                            id: $0, kind: r[1].string ?? "", payload: r[2].string ?? "", queued: r[3].double ?? 0)
                    }
                }
                ?? s.unsaved.first
            s.inflight = m?.id
            return m
        }
    }

    /// The server confirmed `message`: it goes.
    func remove(_ message: Message) {
        state.withLock { s in
            let db = file.connection
            s.inflight = nil
            if message.id < 0 {
                s.unsaved.removeAll { $0.id == message.id }
                return
            }
            if db.map({ (try? $0.query("DELETE FROM uplink_outbox WHERE id = ?", [.int(message.id)])) != nil })
                != true
            {
                s.delivered.insert(message.id)
            }
        }
    }

    /// Messages waiting and when the oldest was queued (Unix time); locations dropped for the
    /// limit and for their age.
    var waiting: (count: Int, oldest: Double?, dropped: Int, expired: Int) {
        state.withLock { s in
            let db = file.connection
            let row =
                (try? db?.query(
                    """
                    SELECT count(*), min(CASE WHEN \(RowBounds.valid("uplink_outbox")) THEN queued END)
                    FROM uplink_outbox WHERE uplink = ?
                    """, [.text(uplink)]))??
                .first
            let count = Int(row?[0].int ?? 0) - s.delivered.count + s.unsaved.count
            return (count, row?[1].double ?? s.unsaved.first?.queued, s.dropped, s.expired)
        }
    }

    /// Moves what waits in memory into the table, in order, and deletes the delivered rows
    /// whose deletion failed before.
    private func flush(_ db: SQLiteDatabase?, _ s: inout State) {
        guard let db else { return }
        for id in s.delivered where (try? db.query("DELETE FROM uplink_outbox WHERE id = ?", [.int(id)])) != nil {
            s.delivered.remove(id)
        }
        while let m = s.unsaved.first, m.id != s.inflight {
            guard
                (try? db.query(
                    "INSERT INTO uplink_outbox (uplink, kind, payload, queued, fix_time) VALUES (?, ?, ?, ?, ?)",
                    [
                        .text(uplink), .text(m.kind), .text(m.payload), .real(m.queued),
                        m.fixTime.map { .real($0) } ?? .null,
                    ])) != nil
            else { return }
            s.unsaved.removeFirst()
        }
    }

    /// Drops the oldest locations beyond the limit (never the one in flight).
    private func trim(_ db: SQLiteDatabase?, _ s: inout State) {
        let rows = Int(
            (try? db?.query("SELECT count(*) FROM uplink_outbox WHERE uplink = ?", [.text(uplink)]))??.first?.first?.int
                ?? 0)
        var excess = rows - s.delivered.count + s.unsaved.count - limit
        guard excess > 0 else { return }
        if let db {
            let victims =
                ((try? db.query(
                    "SELECT id FROM uplink_outbox WHERE uplink = ? AND kind = 'location' ORDER BY id LIMIT ?",
                    [.text(uplink), .int(Int64(excess + 1 + s.delivered.count))])) ?? [])
                .compactMap { $0.first?.int }.filter { $0 != s.inflight && !s.delivered.contains($0) }.prefix(excess)
            for id in victims where (try? db.query("DELETE FROM uplink_outbox WHERE id = ?", [.int(id)])) != nil {
                excess -= 1
                s.dropped += 1
            }
        }
        while excess > 0, let i = s.unsaved.firstIndex(where: { $0.kind == "location" && $0.id != s.inflight }) {
            s.unsaved.remove(at: i)
            excess -= 1
            s.dropped += 1
        }
    }
}
