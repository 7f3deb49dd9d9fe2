import GPSTrackCore

/// Schema changes after version 2, each under `PRAGMA user_version` in its own transaction:
/// an older database opens, keeps its rows, and gains the columns (NULL in the rows it had).
extension Store {
    /// Version 3: each track point's HDOP and satellites used (issue 29), NULL when unknown.
    static func addFixQuality(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
        try db.transaction { () throws(SQLiteDatabase.Failure) in
            let columns = Set(try db.query("PRAGMA table_info(points)").compactMap { $0[1].string })
            // A file whose schema an interrupted newer run left ahead of its version.
            if !columns.contains("hdop") { try db.query("ALTER TABLE points ADD COLUMN hdop REAL") }
            if !columns.contains("sats") { try db.query("ALTER TABLE points ADD COLUMN sats INTEGER") }
            try db.query("PRAGMA user_version = 3")
        }
    }
}
