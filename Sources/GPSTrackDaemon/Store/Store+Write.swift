import GPSTrackCore
import GPSTrackJSON
import GPSTrackProtocol

/// The store's writes: everything that waits in one transaction, and on a full disk what must
/// not be lost before the track points (issue 30).
extension Store {
    /// One attempt to commit everything that waits; ends a degraded spell when it succeeds (a
    /// full disk's spell only once the space is back, see `roomIsBack`). On a full disk the
    /// events, the trip, the counters, fence memories, trips and stops are committed alone, with
    /// room made for them by `makeRoom` step by step, and track points only where they leave
    /// the pages kept for events free: a point never takes the room an event needs.
    /// Returns false when the events could not be written.
    @discardableResult
    func write(trip: Trip) -> Bool {
        lastAttempt = MonotonicClock.now()
        if db == nil { open() }
        guard let db else { return false }
        // A write that takes longer than the watchdog's limit stops the pings.
        Liveness.shared.beat(.store)
        defer { Liveness.shared.idle(.store) }
        Liveness.shared.stallIfAsked(.store)
        if spellFull, roomIsBack() { spellFull = false }
        if !spellFull {
            let written = (events: pendingEvents.count, points: pendingPoints.count)
            guard let failure = transaction(db, trip: trip, points: true) else {
                wrote(points: true)
                if degradedReason != nil { recovered(written) }
                return true
            }
            guard failure.isFull else {
                // A rolled-back insert of the trip row leaves no trip: tripID is set only on success.
                if failure.isCorrupt {
                    moveAside()
                    open()
                } else {
                    degrade(failure.message)
                }
                return false
            }
            degrade(failure.message)
            spellFull = true
        }
        return writeOnAFullDisk(db, trip: trip)
    }

    /// Events before points: what must not be lost goes alone, with room made for it; then free
    /// pages are kept (from any track once half the reserve is spent, else from track older by
    /// a day), and the points go only where they fit beside them.
    func writeOnAFullDisk(_ db: SQLiteDatabase, trip: Trip) -> Bool {
        var step = Room.asIs
        while let failure = transaction(db, trip: trip, points: false) {
            guard failure.isFull, let next = makeRoom(db, after: step) else {
                if failure.isCorrupt {
                    moveAside()
                    open()
                }
                return false
            }
            step = next
        }
        wrote(points: false)
        checkpoint(db)
        // With half the reserve spent, free pages in the file become the next events' room (a
        // checkpoint that had to grow the file could not finish, nor any thinning after it):
        // some are kept, from any track, while the rest of the reserve lets the thinning run.
        if reserveLeft <= Self.reserveBytes / 2 { keepFree(db, pages: Self.freePagesKept, anyTrack: true) }
        guard !pendingPoints.isEmpty else { return true }
        // About 60 points to a page (a row and its two index entries), and the pages kept free.
        let needed = pendingPoints.count / 60 + 1 + Self.freePagesKept
        keepFree(db, pages: needed, anyTrack: false)
        if freePages(db) >= needed, transaction(db, trip: trip, points: true) == nil {
            wrote(points: true)
            checkpoint(db)
        }
        return true
    }

    /// What waits, in one transaction (the track points only with `points`); nil when committed.
    func transaction(_ db: SQLiteDatabase, trip: Trip, points: Bool) -> SQLiteDatabase.Failure? {
        var newTrip: Int64?
        do {
            try db.transaction { () throws(SQLiteDatabase.Failure) in
                let id: Int64
                if let tripID {
                    id = tripID
                } else {
                    id = try insertTrip(db, trip)
                    newTrip = id
                }
                for e in pendingEvents {
                    try db.query(
                        "INSERT OR IGNORE INTO events (seq, time, event, fence, json) VALUES (?, ?, ?, ?, ?)",
                        [
                            .int(Int64(e.seq)), e.time.map { .real($0) } ?? .null, .text(e.event),
                            e.fence.map { .text($0) } ?? .null, .text(e.json),
                        ])
                }
                for (fenceID, m) in pendingFences {
                    try db.query(
                        "INSERT OR REPLACE INTO fences (id, membership, since, entered_at, dwell_sent) VALUES (?, ?, ?, ?, ?)",
                        [
                            .text(fenceID), m.membership.map { .int($0 ? 1 : 0) } ?? .null,
                            m.since.map { .real($0) } ?? .null,
                            m.enteredAt.map { .real($0) } ?? .null, .int(m.dwellSent ? 1 : 0),
                        ])
                }
                for p in points ? pendingPoints : [] {
                    try db.query(
                        """
                        INSERT INTO points (trip_id, time, lat, lon, alt, eph, mode, hdop, sats, alt_hae)
                          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        [
                            .int(id), .real(p.time), .real(p.latitude), .real(p.longitude), .real(p.altitude),
                            .real(p.eph), .int(Int64(p.mode)), p.hdop.isFinite ? .real(p.hdop) : .null,
                            p.satellites.map { .int(Int64($0)) } ?? .null, .real(p.altitudeHAE),
                        ])
                }
                for (name, value) in pendingCounters.map(Self.rows(of:)) ?? [] {
                    try db.query(
                        "INSERT OR REPLACE INTO counters (name, value) VALUES (?, ?)",
                        [.text(name), .int(Int64(value))])
                }
                try db.query(
                    """
                    UPDATE trips SET state = ?, started_at = ?, start_lat = ?, start_lon = ?, traveled_m = ?, straight_line_m = ?,
                      last_lat = ?, last_lon = ?, last_time = ?, delivered = ? WHERE id = ?
                    """,
                    [
                        .text(trip.state.rawValue), trip.startedAt.map { .real($0) } ?? .null,
                        trip.start.map { .real($0.latitude) } ?? .null, trip.start.map { .real($0.longitude) } ?? .null,
                        .real(trip.traveledM), .real(trip.straightLineM),
                        trip.lastDelivered.map { .real($0.latitude) } ?? .null,
                        trip.lastDelivered.map { .real($0.longitude) } ?? .null,
                        trip.lastDeliveredTime.map { .real($0) } ?? .null, .int(Int64(trip.deliveredCount)), .int(id),
                    ])
                if let pendingMotion { try writeMotion(db, pendingMotion) }
            }
        } catch {
            return error
        }
        if let newTrip { tripID = newTrip }
        return nil
    }

    /// Forgets what a transaction committed.
    func wrote(points: Bool) {
        pendingEvents = []
        pendingFences = [:]
        pendingMotion = nil
        if points { pendingPoints = [] }
    }

    /// Ends a degraded spell: one notice with what was written and thinned.
    func recovered(_ written: (events: Int, points: Int)) {
        let seconds = MonotonicClock.now() - degradedSince
        let thinned =
            spellThinned.points + spellThinned.locations > 0
            ? "; \(spellThinned.points) track points and \(spellThinned.locations) MQTT locations thinned to make room"
            : ""
        journal.log(
            LogEntry(
                event: .storageRecovered, priority: .notice,
                message: "State database \(path) writable again: \(written.events) waiting events and "
                    + "\(written.points) track points written after \(Int(clamping: seconds)) s degraded\(thinned)",
                fields: [
                    (.writtenEvents, String(written.events)),
                    (.writtenPoints, String(written.points)),
                    (.degradedS, ReplyEncoder.number(seconds, decimals: 1)), (.path, path),
                ]
                    + spellThinned.fields))
        degradedReason = nil
        spellFull = false
        spellThinned = Thinned()
    }
}
