import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Automatic trips and stops, odometer runs ended, and retention's pruning.
extension Store {
    /// Trips ended, stops begun or left, and the detector's state: in the events' transaction,
    /// so a restart finds them exactly as the events that told of them.
    func writeMotion(_ db: SQLiteDatabase, _ m: MotionRows) throws(SQLiteDatabase.Failure) {
        func text(_ names: [String]) -> SQLiteDatabase.Value { .text(names.joined(separator: "\u{1F}")) }
        for f in m.trips {
            try db.query(
                """
                INSERT OR REPLACE INTO auto_trips (id, start, end, from_lat, from_lon, from_fences, to_lat, to_lon, to_fences,
                  traveled_m, straight_line_m, moving_s, max_speed_mps, engine_s)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .int(Int64(f.id)), .real(f.start), .real(f.end), .real(f.from.latitude), .real(f.from.longitude),
                    text(f.fromFences), .real(f.to.latitude), .real(f.to.longitude), text(f.toFences),
                    .real(f.traveledM), .real(f.straightLineM), .real(f.movingS), .real(f.maxSpeedMps),
                    f.engineS.map { .real($0) } ?? .null,
                ])
        }
        for (stop, names) in m.stops {
            try db.query(
                """
                INSERT INTO stops (arrival, departure, lat, lon, fences, after_trip) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(arrival) DO UPDATE SET departure = excluded.departure, lat = excluded.lat, lon = excluded.lon,
                  fences = excluded.fences
                """,
                [
                    .real(stop.arrival), stop.departure.map { .real($0) } ?? .null, .real(stop.at.latitude),
                    .real(stop.at.longitude), text(names), stop.afterTrip.map { .int(Int64($0)) } ?? .null,
                ])
        }
        try db.query("INSERT OR REPLACE INTO motion (id, state) VALUES (1, ?)", [.text(m.state)])
    }

    func insertTrip(_ db: SQLiteDatabase, _ trip: Trip) throws(SQLiteDatabase.Failure) -> Int64 {
        try db.query("INSERT INTO trips (state) VALUES (?)", [.text(trip.state.rawValue)])
        return try db.query("SELECT last_insert_rowid()").first?.first?.int ?? 0
    }

    /// Ends the current trip (a new one begins with the next commit).
    public func endTrip(at time: Double?) {
        guard let db, let id = tripID else {
            tripID = nil
            return
        }
        _ = try? db.query("UPDATE trips SET ended_at = ? WHERE id = ?", [time.map { .real($0) } ?? .real(0), .int(id)])
        tripID = nil
    }

    /// Rows deleted per pruning step: one step is one small transaction (a few ms), so the
    /// tracker, which runs one step per fix while pruning, is never held up for long.
    public static let pruneBatch = 500
    /// Free pages returned to the file system per step (4 KiB each).
    static let vacuumPages = 64

    /// One step of retention: deletes up to `pruneBatch` track points older than `time` and
    /// gives up to `vacuumPages` free pages back to the file system, in one transaction.
    /// Returns whether more remains to do. Trips, events and fence memories are never pruned.
    @discardableResult
    public func pruneStep(before time: Double) -> Bool {
        guard let db, degradedReason == nil else { return false }
        var deleted = 0
        var freePages: Int64 = 0
        do {
            try db.transaction { () throws(SQLiteDatabase.Failure) in
                try db.query(
                    "DELETE FROM points WHERE id IN (SELECT id FROM points WHERE time < ? LIMIT ?)",
                    [.real(time), .int(Int64(Self.pruneBatch))])
                deleted = db.changes
                try db.query("PRAGMA incremental_vacuum(\(Self.vacuumPages))")
                freePages = try db.query("PRAGMA freelist_count").first?.first?.int ?? 0
            }
        } catch {
            return false
        }
        return deleted == Self.pruneBatch || freePages > 0
    }

    /// The database's size in bytes (`page_count` × `page_size`, WAL included): what the file
    /// is after a checkpoint. The WAL file itself stays within the bound below (about
    /// `walSizeLimit`, more only while a reader holds a checkpoint back).
    public var databaseBytes: Int {
        guard let db, let pages = try? db.query("PRAGMA page_count").first?.first?.int,
            let size = try? db.query("PRAGMA page_size").first?.first?.int
        else { return 0 }
        return Int(pages * size)
    }

    /// The write-ahead log's bound on every connection to the file (issue 30): a checkpoint at
    /// this many pages, and the log cut back to this many bytes when it starts over.
    public static var walAutocheckpointPages: Int { SQLiteDatabase.walPages }
    public static var walSizeLimit: Int { SQLiteDatabase.journalSizeLimit }

    /// Sets another bound on the store's connection (the bench compares it with SQLite's
    /// defaults: 1,000 pages, limit -1).
    public func boundWAL(pages: Int, limit: Int) {
        try? db?.boundWAL(pages: pages, limit: limit)
    }
}
