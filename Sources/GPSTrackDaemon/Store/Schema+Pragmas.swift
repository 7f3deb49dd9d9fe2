extension Schema {
    /// Everything a new connection to the state database is set to, then the migrations:
    /// incremental vacuum, the write-ahead log (synchronous=FULL: a confirmed write survives a
    /// power cut) and its bound, a quick check (a damaged file is refused, for the store to
    /// move aside), the tables.
    static func prepare(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
        try enableIncrementalVacuum(db)
        try db.query("PRAGMA journal_mode=WAL")
        try db.query("PRAGMA synchronous=FULL")
        // A box's page cache: at most 512 KiB, not SQLite's 2 MiB (the store's commits touch a
        // few pages; a month's history read for an export is read once, and the kernel's page
        // cache holds the file anyway). gpstrackd(8), STORAGE.
        try db.query("PRAGMA cache_size=-\(Self.cacheKiB)")
        try db.boundWAL()
        let check = try db.query("PRAGMA quick_check")
        guard check.first?.first?.string == "ok" else {
            throw SQLiteDatabase.Failure(code: 11, message: "quick_check: \(check.first?.first?.string ?? "failed")")
        }
        try migrate(db)
    }

    /// The connection's page cache, KiB.
    static let cacheKiB = 512

    /// Pruned pages go back to the file system a few at a time (`auto_vacuum=INCREMENTAL`, see
    /// `Store.pruneStep`). A new file gets the mode before its first table; an existing file
    /// made without it is rebuilt once by `VACUUM` (it needs as much free space as the file and
    /// takes a moment per 100 MB; when it fails, for instance on a full disk, the file keeps
    /// working as before and the next start tries again).
    static func enableIncrementalVacuum(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
        guard try db.query("PRAGMA auto_vacuum").first?.first?.int != 2 else { return }
        try db.query("PRAGMA auto_vacuum=INCREMENTAL")
        if try db.query("PRAGMA page_count").first?.first?.int ?? 0 > 0 { _ = try? db.query("VACUUM") }
    }
}
