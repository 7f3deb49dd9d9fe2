import GPSTrackCore
import GPSTrackProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Room on a full disk (issue 30), within the database file: deleted rows' pages stay in it
/// (`auto_vacuum=INCREMENTAL` gives them back only when retention asks) and take new rows
/// without the file growing, and a reserve file beside it gives the first room.
extension Store {
    /// The reserve file's size: room for a few commits' log pages and the checkpoint after.
    static let reserveBytes = 32 * 1024
    /// What the reserve gives up at a time.
    static let reservePage = 4096
    /// Track points deleted per thinning step (one small transaction).
    static let thinBatch = 200
    /// Thinning steps one write may take to keep room for track points (events take all they need).
    static let maxPointSteps = 20
    /// Track within this much fix time before the newest waiting point never gives way to more track.
    static let keptTrackS = 86_400.0

    /// `<state_dir>/gpstrackd.reserve`, given up the first time the disk is full.
    var reservePath: String { pathDirectory + "/gpstrackd.reserve" }

    /// The ways of making room for events, in the order tried.
    enum Room: Equatable {
        case asIs, checkpoint, reserve, thinOldTrack, thinTrack, thinLocations
    }

    /// Free pages a full disk's spell keeps in the file for the next events (thinning older
    /// track for them), beyond what waiting track points take.
    static let freePagesKept = 8

    /// Makes room for events the next way after `step` and returns the way taken, or nil
    /// when none is left: a checkpoint, the reserve, track older than a day before the newest
    /// waiting point, any track (not with `oldTrackOnly`), the MQTT outbox's locations.
    func makeRoom(_ db: SQLiteDatabase, after step: Room, oldTrackOnly: Bool = false) -> Room? {
        var step = step
        while true {
            switch step {
            case .asIs:
                // Log pages copied back into the file: the next write starts the log over.
                checkpoint(db)
                return .checkpoint
            case .checkpoint, .reserve:
                step = .thinOldTrack
                if releaseReservePage(db) { return .reserve }
            case .thinOldTrack:
                step = .thinOldTrack
                let newest =
                    pendingPoints.last?.time ?? (try? db.query("SELECT max(time) FROM points"))?.first?.first?.double
                if let newest, thinning(db, before: newest - Self.keptTrackS) > 0 {
                    checkpoint(db)
                    return step
                }
                if oldTrackOnly { return nil }
                step = .thinTrack
            case .thinTrack:
                if thinning(db, before: .greatestFiniteMagnitude) > 0 {
                    checkpoint(db)
                    return step
                }
                step = .thinLocations
            case .thinLocations:
                guard thinLocations(db) > 0 else { return nil }
                checkpoint(db)
                return step
            }
        }
    }

    /// What a spell thinned: counts and the fix times of the track points that went.
    struct Thinned {
        var points = 0
        var locations = 0
        var from: Double?
        var to: Double?

        /// "1200 track points (fix times 2026-03-12T08:00:00.000Z to …) and 3 MQTT locations".
        var text: String {
            let span =
                from.flatMap { f in to.map { " (fix times \(Timestamp.iso8601(f)) to \(Timestamp.iso8601($0)))" } }
                ?? ""
            return "\(points) track points\(span) and \(locations) MQTT locations"
        }

        var fields: [(JournalField, String)] {
            points + locations == 0 ? [] : [(.thinnedPoints, String(points)), (.thinnedLocations, String(locations))]
        }
    }

    /// Thins until `pages` pages are free in the file (at most `maxPointSteps` steps): track
    /// older by a day than the newest first, then (`anyTrack`) any track, then MQTT locations.
    func keepFree(_ db: SQLiteDatabase, pages: Int, anyTrack: Bool) {
        var step = Room.thinOldTrack
        for _ in 0..<Self.maxPointSteps where freePages(db) < pages {
            guard let next = makeRoom(db, after: step, oldTrackOnly: !anyTrack) else { return }
            step = next
        }
    }

    /// Pages free inside the database file (`PRAGMA freelist_count`).
    func freePages(_ db: SQLiteDatabase) -> Int {
        Int((try? db.query("PRAGMA freelist_count"))?.first?.first?.int ?? 0)
    }

    /// Gives up a page of the reserve (a page at a time: what is left serves the next time)
    /// and lets a checkpoint use it; false when none is left.
    func releaseReservePage(_ db: SQLiteDatabase) -> Bool {
        guard reserveLeft > 0 else { return false }
        reserveLeft -= Self.reservePage
        if reserveLeft > 0 { truncate(reservePath, off_t(reserveLeft)) } else { unlink(reservePath) }
        checkpoint(db)
        return true
    }

    /// `thinPoints`, with reserve pages given up while the deletion itself finds no room.
    func thinning(_ db: SQLiteDatabase, before: Double) -> Int {
        var deleted = thinPoints(db, before: before)
        while deleted == nil, releaseReservePage(db) { deleted = thinPoints(db, before: before) }
        return deleted ?? 0
    }

    /// Copies the log's pages into the database file (as far as no reader holds them), so that
    /// the next write starts the log over in the space it has.
    func checkpoint(_ db: SQLiteDatabase) {
        _ = try? db.query("PRAGMA wal_checkpoint(PASSIVE)")
    }

    /// Deletes up to `thinBatch` of the oldest track points before `before` (fix time);
    /// returns how many went, counted, or nil when the deletion could not be written.
    func thinPoints(_ db: SQLiteDatabase, before: Double) -> Int? {
        var deleted = 0
        var span: (Double?, Double?) = (nil, nil)
        do {
            try db.transaction { () throws(SQLiteDatabase.Failure) in
                let victims = "SELECT id FROM points WHERE time < ? ORDER BY time LIMIT ?"
                let values: [SQLiteDatabase.Value] = [.real(before), .int(Int64(Self.thinBatch))]
                let row = try db.query("SELECT min(time), max(time) FROM points WHERE id IN (\(victims))", values).first
                span = (row?[0].double, row?[1].double)
                try db.query("DELETE FROM points WHERE id IN (\(victims))", values)
                deleted = db.changes
            }
        } catch {
            return nil
        }
        guard deleted > 0 else { return 0 }
        thinned(points: deleted, locations: 0, from: span.0, to: span.1)
        return deleted
    }

    /// Deletes up to `thinBatch` of the oldest positions waiting in the outbox (a table of this
    /// file; by the outbox's one rule, `OutboxKind.thinnable`); returns how many went, counted.
    func thinLocations(_ db: SQLiteDatabase) -> Int {
        let deleted = Outbox.thin(db, batch: Self.thinBatch)
        if deleted > 0 { thinned(points: 0, locations: deleted, from: nil, to: nil) }
        return deleted
    }

    /// Counts a thinning; the spell's first is logged (one entry per spell, not per row).
    func thinned(points: Int, locations: Int, from: Double?, to: Double?) {
        let first = spellThinned.points + spellThinned.locations == 0
        thinnedPoints += points
        thinnedLocations += locations
        spellThinned.points += points
        spellThinned.locations += locations
        if let from { spellThinned.from = min(spellThinned.from ?? from, from) }
        if let to { spellThinned.to = max(spellThinned.to ?? to, to) }
        guard first else { return }
        let what = points > 0 ? "the oldest track points" : "the oldest MQTT location messages"
        journal.log(
            LogEntry(
                event: .storageThinning, priority: .warning,
                message: "State database's disk full: \(what) give way so that events are stored "
                    + "(counted in status; the spell's end or the stop says how many)",
                fields: [(.reason, degradedReason ?? ""), (.path, path)]))
    }

    /// Makes the reserve file whole when there is room for what it lacks and as much as it
    /// again; returns whether it is whole.
    func makeReserve() -> Bool {
        var st = stat()
        let size = stat(reservePath, &st) == 0 ? Int(st.st_size) : 0
        guard size >= Self.reserveBytes || freeBytes() >= UInt64(2 * Self.reserveBytes - size) else { return false }
        let fd = Glibc.open(reservePath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o640)
        guard fd >= 0 else { return false }
        // Allocated, not only sized: a sparse file would give no room back.
        let rc = posix_fallocate(fd, 0, off_t(Self.reserveBytes))
        close(fd)
        if rc != 0, size == 0 { unlink(reservePath) }
        return rc == 0
    }

    /// Whether a full disk's spell may end: the reserve is whole again (made so if it went)
    /// and the disk has as much again free.
    func roomIsBack() -> Bool {
        if reserveLeft < Self.reserveBytes, makeReserve() { reserveLeft = Self.reserveBytes }
        return reserveLeft == Self.reserveBytes && freeBytes() >= UInt64(Self.reserveBytes)
    }

    /// Bytes free on the state directory's file system for this process.
    func freeBytes() -> UInt64 {
        var fs = statvfs()
        guard statvfs(pathDirectory, &fs) == 0 else { return 0 }
        return UInt64(fs.f_bavail) * UInt64(fs.f_frsize)
    }
}

/// What the stop could not write (issue 30): named, never dropped silently.
extension Store {
    /// The last entry of a stop on a full or broken disk: the events that could not be written
    /// (how many, which kinds), the track points, the MQTT messages that stayed in memory
    /// (`unsavedMessages` by kind), and what the spell thinned. Nil when there is nothing to say.
    public func stopEntry(unsavedMessages: [String: Int] = [:]) -> LogEntry? {
        let messages = unsavedMessages.values.reduce(0, +)
        guard degradedReason != nil || messages > 0 else { return nil }
        func kinds(_ counts: [String: Int]) -> String {
            counts.keys.sorted().map { "\(counts[$0]!) \($0)" }.joined(separator: ", ")
        }
        let events = Dictionary(grouping: pendingEvents, by: \.event).mapValues(\.count)
        var parts: [String] = []
        if !pendingEvents.isEmpty { parts.append("\(pendingEvents.count) events (\(kinds(events)))") }
        if !pendingPoints.isEmpty { parts.append("\(pendingPoints.count) track points") }
        if messages > 0 { parts.append("\(messages) MQTT messages (\(kinds(unsavedMessages)))") }
        let lost = parts.isEmpty ? "everything waiting was written" : "not written: " + parts.joined(separator: ", ")
        let thinned =
            spellThinned.points + spellThinned.locations > 0
            ? "; thinned in this spell to make room: \(spellThinned.text)" : ""
        let reason =
            degradedReason.map { "state database \(path) still degraded (\($0))" } ?? "MQTT outbox not writable"
        return LogEntry(
            event: .storageAtStop, priority: parts.isEmpty ? .notice : .err,
            message: "At the stop, \(reason): \(lost)\(thinned)",
            fields: [
                (.unwrittenEvents, String(pendingEvents.count)),
                (.unwrittenKinds, events.keys.sorted().map { "\($0):\(events[$0]!)" }.joined(separator: ",")),
                (.unwrittenPoints, String(pendingPoints.count)),
                (.unwrittenMessages, String(messages)), (.path, path),
            ]
                + spellThinned.fields)
    }
}
