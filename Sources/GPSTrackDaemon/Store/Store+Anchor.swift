import GPSTrackCore
import GPSTrackProtocol

/// The anchor watch's state in the state database: one row, the text of
/// `AnchorWatch.State.encoded`, replaced at every change and deleted when the anchor is raised
/// (SQLite's own transaction per statement, WAL with synchronous=FULL: a power cut finds the
/// row as it was last written, whole).
extension Store {
    /// Writes the anchor's state (nil: the anchor is up); false when it could not be written
    /// (the caller tries again at its next change or step).
    @discardableResult
    public func saveAnchor(_ state: String?) -> Bool {
        guard let db else { return false }
        do throws(SQLiteDatabase.Failure) {
            if let state {
                try db.query("INSERT OR REPLACE INTO anchor (id, state) VALUES (1, ?)", [.text(state)])
            } else {
                try db.query("DELETE FROM anchor")
            }
            return true
        } catch {
            return false
        }
    }

    /// The stored anchor state, nil without one (or without a readable database).
    public func loadAnchor() -> String? {
        guard let db else { return nil }
        return (try? db.query("SELECT state FROM anchor WHERE id = 1"))?.first?.first?.string
    }
}
