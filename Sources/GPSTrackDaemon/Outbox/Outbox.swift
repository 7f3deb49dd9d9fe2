import GPSTrackCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One uplink's durable queue, the one outbox every uplink sends from (MQTT, Traccar, OwnTracks
/// over HTTP, the webhook): every message is written to the `uplink_outbox` table of the state
/// database (its `uplink` column names the queue) before anyone may send it, and deleted only
/// when the receiver confirmed it (a PUBACK, a 2xx). Oldest first; what the table cannot take (a
/// full disk) waits in memory, after the table's rows. Beyond `limit` the oldest thinnable rows
/// go (`OutboxKind.thinnable`: positions); what else a backlog holds never does. With `maxAgeS`,
/// positions whose fix is older than that behind the newest fix queued go too (see `expire`).
/// A transport takes messages with `next` (they are in flight until `remove` or `release`).
final class Outbox: Sendable {
    /// A message waiting: its row id (negative while it waits in memory), kind and payload;
    /// MQTT's topic and QoS (nil and 1 for HTTP).
    struct Message: Equatable, Sendable {
        var id: Int64
        var kind: OutboxKind
        var payload: String
        var queued: Double
        /// The time of the fix it tells of; nil for what tells of none (waypoints).
        var fixTime: Double? = nil
        var topic: String? = nil
        var qos: Int32 = 1
        /// The HTTP form the message was queued in, where its uplink has two (Traccar's); nil
        /// for the other uplinks' messages.
        var form: Form? = nil
    }

    /// How an HTTP payload goes: as a JSON body or as a URL's query string. Kept with the row,
    /// so that a message goes as it was queued whatever the configuration says today.
    enum Form: String, Sendable { case json, query }

    let uplink: String
    let limit: Int
    let maxAgeS: Double?
    struct State {
        var unsaved: [Message] = []
        var nextUnsavedID: Int64 = -1
        /// Rows confirmed whose deletion failed: never sent again.
        var delivered: Set<Int64> = []
        /// The messages a transport is sending, kept from the limit's drops and not handed again.
        var inflight: Set<Int64> = []
        var dropped = 0
        /// Positions dropped for their age (`maxAgeS`).
        var expired = 0
        /// Why the table refused the last write, while messages wait in memory for it.
        var failure: String?
    }
    /// The state database, whose `uplink_outbox` table holds the queue.
    let file: StateDatabase
    let state = Mutex(State())

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

    /// A degraded spell's start or end, for the outlet to tell (MQTT's journal entries).
    enum Spell: Equatable {
        case unchanged
        case degraded(String)
        case recovered(String)
    }

    /// Queues a message telling of the fix at `fixTime`; says whether a degraded spell began or
    /// ended (the table refused it and it waits in memory, or the memory emptied into the table).
    /// `bounded` false: a message every connection sends anew (MQTT's waypoints), for which no
    /// position makes room. `form`: the HTTP form of the payload, kept with it.
    @discardableResult
    func store(
        _ kind: OutboxKind, payload: String, fixTime: Double? = nil, topic: String? = nil, qos: Int32 = 1,
        form: Form? = nil, queued: Double = Double(time(nil)), bounded: Bool = true
    ) -> Spell {
        state.withLock { s -> Spell in
            let db = file.connection
            let was = s.failure
            flush(db, &s)
            if let maxAgeS, let fixTime { expire(db, &s, before: fixTime - maxAgeS) }
            let message = Message(
                id: s.nextUnsavedID, kind: kind, payload: payload, queued: queued, fixTime: fixTime, topic: topic,
                qos: qos, form: form)
            if s.unsaved.isEmpty {
                do throws(SQLiteDatabase.Failure) {
                    guard let db else { throw SQLiteDatabase.Failure(code: 14, message: "no state database") }
                    try insertRow(db, message)
                    s.failure = nil
                } catch {
                    s.failure = error.message
                    s.unsaved.append(message)
                    s.nextUnsavedID -= 1
                }
            } else {
                s.unsaved.append(message)
                s.nextUnsavedID -= 1
            }
            if bounded { trim(db, &s) }
            switch (was, s.failure) {
            case (nil, let now?): return .degraded(now)
            case (let then?, nil): return .recovered(then)
            default: return .unchanged
            }
        }
    }

    /// Up to `count` of the oldest messages not in flight, now in flight (in order: the table's,
    /// then memory's).
    func next(_ count: Int) -> [Message] {
        state.withLock { s in
            let db = file.connection
            flush(db, &s)
            guard count > 0 else { return [] }
            let skip = s.inflight.union(s.delivered).filter { $0 > 0 }
            let not = skip.isEmpty ? "" : " AND id NOT IN (\(skip.map(String.init).joined(separator: ",")))"
            let rows =
                (try? db?.query(
                    """
                    SELECT id, kind, payload, queued, topic, qos, form FROM uplink_outbox WHERE uplink = ?\(not)
                    ORDER BY id LIMIT ?
                    """, [.text(uplink), .int(Int64(count))])) ?? []
            var out = rows.compactMap { r -> Message? in
                guard let id = r[0].int else { return nil }
                // A QoS no run writes (a damaged row's 99999999999) goes at least once.
                let qos = r[5].int.flatMap { (0...2).contains($0) ? Int32($0) : nil } ?? 1
                // A kind no run writes (a damaged row) is sent as it is and never thinned; a form
                // no run writes is none (the uplink's own then).
                return Message(
                    id: id, kind: r[1].string.flatMap(OutboxKind.init) ?? .event, payload: r[2].string ?? "",
                    queued: r[3].double ?? 0, topic: r[4].string, qos: qos,
                    form: r[6].string.flatMap(Form.init))
            }
            out += s.unsaved.filter { !s.inflight.contains($0.id) }.prefix(count - out.count)
            s.inflight.formUnion(out.map(\.id))
            return out
        }
    }

    /// The oldest message waiting, now the one in flight (a transport that sends one at a time:
    /// what it sent before and did not remove is the head again); nil with none.
    func head() -> Message? {
        state.withLock { $0.inflight = [] }
        return next(1).first
    }

    /// The receiver confirmed `message`: it goes.
    func remove(_ message: Message) { remove(id: message.id) }

    /// The receiver confirmed the message `id`: it goes.
    func remove(id: Int64) {
        state.withLock { s in
            s.inflight.remove(id)
            if id < 0 {
                s.unsaved.removeAll { $0.id == id }
                return
            }
            if (try? file.connection?.query("DELETE FROM uplink_outbox WHERE id = ?", [.int(id)])) == nil {
                s.delivered.insert(id)
            }
        }
    }

    /// The messages `ids` are no longer in flight (lost with a connection): sent again.
    func release(_ ids: some Sequence<Int64>) {
        state.withLock { $0.inflight.subtract(ids) }
    }

    /// Messages waiting and when the oldest was queued (Unix time); positions dropped for the
    /// limit and for their age; why the table cannot be written (nil when it can).
    var waiting: (count: Int, oldest: Double?, dropped: Int, expired: Int, failure: String?) {
        state.withLock { s in
            let skip =
                s.delivered.isEmpty ? "" : " AND id NOT IN (\(s.delivered.map(String.init).joined(separator: ",")))"
            let row =
                (try? file.connection?.query(
                    """
                    SELECT count(*), min(CASE WHEN \(RowBounds.valid("uplink_outbox")) THEN queued END)
                    FROM uplink_outbox WHERE uplink = ?\(skip)
                    """, [.text(uplink)]))??
                .first
            let count = Int(row?[0].int ?? 0) + s.unsaved.count
            return (count, row?[1].double ?? s.unsaved.first?.queued, s.dropped, s.expired, s.failure)
        }
    }

    /// The messages still waiting in memory for the table, by kind (named at the stop).
    var unsavedKinds: [String: Int] {
        state.withLock { s in Dictionary(grouping: s.unsaved, by: \.kind.rawValue).mapValues(\.count) }
    }

    /// Moves what waits in memory into the table, if it can (at the stop).
    func flush() -> Spell {
        state.withLock { s in
            let was = s.failure
            flush(file.connection, &s)
            if let was, s.failure == nil { return .recovered(was) }
            return .unchanged
        }
    }
}
