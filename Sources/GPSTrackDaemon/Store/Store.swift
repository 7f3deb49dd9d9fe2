import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's durable state in SQLite (`<state_dir>/gpstrackd.db`, WAL, synchronous=FULL):
/// the current and finished trips, their delivered track points, every event with its sequence
/// number, and each fence's memory. A database that cannot be opened or written leaves the
/// store *degraded*: tracking goes on in memory and writes are tried again later; a corrupt
/// file is moved aside, never deleted.
public final class Store {
    public let path: String
    /// The state database's one connection, shared with the step log and the outboxes.
    let file: StateDatabase
    let journal: Journal
    /// The connection; nil while the file cannot be opened.
    var db: SQLiteDatabase? { file.opened }
    /// nil when healthy, else why not.
    public internal(set) var degradedReason: String?
    var tripID: Int64?
    var pendingEvents: [EventRow] = []
    var pendingFences: [String: FenceMemory] = [:]
    var pendingMotion: MotionRows?
    var pendingPoints: [PointRow] = []
    /// The fix counters as of the latest commit (written with the next successful one).
    var pendingCounters: FixCounters?
    var lastAttempt = -Double.infinity
    var degradedSince = 0.0
    /// Seconds between write attempts in a degraded spell.
    static let retryInterval = 1.0
    /// What may wait in memory in a degraded spell; beyond, the oldest go.
    public static let maxWaitingEvents = 100_000
    public static let maxWaitingPoints = 100_000
    /// Events and track points that waited beyond those bounds in a degraded spell and were
    /// dropped, since the start (shown in `status`).
    public private(set) var droppedEvents = 0
    public private(set) var droppedPoints = 0
    /// Track points waiting in memory for the next successful write.
    public var waitingPoints: Int { pendingPoints.count }
    /// Events waiting in memory for the next successful write.
    public var waitingEvents: Int { pendingEvents.count }
    /// Track points and MQTT location messages deleted to make room on a full disk, since the
    /// start (shown in `status`), and in the current spell (named in its journal entries).
    public internal(set) var thinnedPoints = 0
    public internal(set) var thinnedLocations = 0
    var spellThinned = Thinned()
    /// Whether the current degraded spell is one of a full disk: it ends only once the
    /// reserve file could be made again (the space is back, not only the room made).
    var spellFull = false
    /// Bytes of the reserve file still in place (it is given up a page at a time).
    var reserveLeft = 0
    /// Whether the damaged rows were named (once a run, at the first open).
    var damageNamed = false

    public convenience init(directory: String, journal: Journal) {
        self.init(file: StateDatabase(path: directory + "/gpstrackd.db"), journal: journal)
    }

    /// The store on the daemon's one state database (the step log and the outboxes share it).
    public init(file: StateDatabase, journal: Journal) {
        self.file = file
        path = file.path
        self.journal = journal
        open()
        reserveLeft = makeReserve() ? Self.reserveBytes : 0
    }

    /// Opens (or creates, or after corruption recreates) the database; on failure the store is
    /// degraded. Opening is not recovering: a full disk still opens, so a degraded spell ends
    /// only when the waiting writes are committed.
    func open() {
        if access(pathDirectory, F_OK) != 0 { _ = mkdir(pathDirectory, 0o750) }
        do {
            let database = try file.open()
            if !damageNamed {
                damageNamed = true
                nameDamage(database)
            }
            loadTripID()
        } catch let failure {
            file.close()
            if failure.isCorrupt {
                moveAside()
                return open()
            }
            degrade("cannot open the state database \(path): \(failure.message)")
        }
    }

    var pathDirectory: String { String(path[..<path.lastIndex(of: "/")!]) }

    func moveAside() {
        file.close()
        let aside = path + ".corrupt-\(time(nil))"
        rename(path, aside)
        unlink(path + "-wal")
        unlink(path + "-shm")
        journal.log(
            LogEntry(
                event: .storageCorrupt, priority: .err,
                message: "State database \(path) is damaged; moved aside to \(aside) and started anew",
                fields: [(.movedTo, aside)]))
    }

    /// Starts a degraded spell (one journal entry for the whole spell) or notes its new reason.
    func degrade(_ reason: String) {
        if degradedReason == nil {
            degradedSince = MonotonicClock.now()
            journal.log(
                LogEntry(
                    event: .storageDegraded, priority: .err,
                    message: "Storage degraded, tracking goes on in memory: \(reason)",
                    fields: [(.reason, reason), (.path, path)]))
        }
        degradedReason = reason
    }

    /// Tries again, at most once a second of monotonic time, to write what waits in a degraded
    /// spell (the tracker calls this on every fix while degraded: a stationary box commits
    /// nothing else).
    public func retryIfDegraded(trip: Trip) {
        guard degradedReason != nil, MonotonicClock.now() - lastAttempt >= Self.retryInterval else { return }
        write(trip: trip)
    }

    func loadTripID() {
        guard let db else { return }
        tripID =
            (try? db.query(
                "SELECT id FROM trips WHERE ended_at IS NULL AND \(RowBounds.valid("trips")) ORDER BY id DESC LIMIT 1"))?
            .first?.first?.int
    }

    /// The stored trip, sequence number and fence memories to carry on from.
    public func restore() -> Restored {
        guard let db else { return Restored(trip: nil, seq: 0, fences: [:]) }
        var result = Restored(trip: nil, seq: 0, fences: [:])
        if let row = try? db.query(
            """
            SELECT state, started_at, start_lat, start_lon, traveled_m, straight_line_m, last_lat, last_lon, last_time, delivered
            FROM trips WHERE ended_at IS NULL AND \(RowBounds.valid("trips")) ORDER BY id DESC LIMIT 1
            """
        ).first {
            let start = row[2].double.flatMap { lat in row[3].double.map { Coordinate(latitude: lat, longitude: $0) } }
            let last = row[6].double.flatMap { lat in row[7].double.map { Coordinate(latitude: lat, longitude: $0) } }
            result.trip = Trip(
                state: row[0].string == "stopped" ? .stopped : .running, startedAt: row[1].double, start: start,
                traveledM: row[4].double ?? 0, straightLineM: row[5].double ?? 0,
                lastDelivered: last, lastDeliveredTime: row[8].double,
                deliveredCount: Int(checking: row[9].int ?? 0) ?? 0)
        }
        // Numbers no run reaches (a damaged file's; JSON's exact integers end at 2^53) are passed
        // over: a negative one trapped as UInt64, Int64's greatest as the next event's Int.
        let seq = (try? db.query("SELECT max(seq) FROM events WHERE seq BETWEEN 1 AND 9007199254740991"))?
            .first?.first?.int
        result.seq = seq.flatMap { UInt64(checking: $0) } ?? 0
        result.motion = (try? db.query("SELECT state FROM motion WHERE id = 1"))?.first?.first?.string
        for row
            in (try? db.query(
                "SELECT id, membership, since, entered_at, dwell_sent FROM fences WHERE \(RowBounds.valid("fences"))"))
            ?? []
        {
            guard let id = row[0].string else { continue }
            result.fences[id] = FenceMemory(
                membership: row[1].int.map { $0 != 0 }, since: row[2].double,
                enteredAt: row[3].double, dwellSent: row[4].int == 1)
        }
        result.counters = Self.counters(
            from: (try? db.query("SELECT name, value FROM counters WHERE \(RowBounds.valid("counters"))")) ?? [])
        return result
    }

    /// Writes events, the trip's figures, the fix counters, fence memories and track points in
    /// one transaction, with whatever waited from earlier failures first (in order). In a
    /// degraded spell the write is tried at most once a second unless `force` (shutdown).
    /// Returns false when nothing could be written: the rows wait in memory and the caller
    /// reports the events all the same.
    @discardableResult
    public func commit(
        events: [EventRow], trip: Trip, counters: FixCounters? = nil, fences: [String: FenceMemory],
        points: [PointRow], force: Bool = false, motion: MotionRows? = nil
    ) -> Bool {
        if let counters { pendingCounters = counters }
        pendingEvents += events
        for (k, v) in fences { pendingFences[k] = v }
        pendingPoints += points
        if let motion {
            // Trips and stops wait with the events that tell of them; the latest state wins.
            pendingMotion = Store.MotionRows(
                state: motion.state, trips: (pendingMotion?.trips ?? []) + motion.trips,
                stops: (pendingMotion?.stops ?? []) + motion.stops)
        }
        if pendingEvents.count > Self.maxWaitingEvents {
            droppedEvents += pendingEvents.count - Self.maxWaitingEvents
            pendingEvents.removeFirst(pendingEvents.count - Self.maxWaitingEvents)
        }
        if pendingPoints.count > Self.maxWaitingPoints {
            droppedPoints += pendingPoints.count - Self.maxWaitingPoints
            pendingPoints.removeFirst(pendingPoints.count - Self.maxWaitingPoints)
        }
        if degradedReason != nil, !force, MonotonicClock.now() - lastAttempt < Self.retryInterval { return false }
        return write(trip: trip)
    }
}
