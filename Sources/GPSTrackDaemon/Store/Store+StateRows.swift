import GPSTrackCore
import GPSTrackProtocol

/// The one-row tables of state text: the anchor watch's (`AnchorWatch.State.encoded`, deleted
/// when the anchor is raised) and the inputs' (`InputMonitor.encodedState`). Each is replaced at
/// every change (SQLite's own transaction per statement, WAL with synchronous=FULL: a power cut
/// finds the row as it was last written, whole).
extension Store {
    /// A table of one row of state text.
    enum StateRow: String {
        case anchor, inputs
    }

    /// Writes the row (nil: deletes it); false when it could not be written (the caller tries
    /// again at its next change or step).
    func saveStateRow(_ table: StateRow, _ state: String?) -> Bool {
        guard let db else { return false }
        do throws(SQLiteDatabase.Failure) {
            if let state {
                try db.query("INSERT OR REPLACE INTO \(table.rawValue) (id, state) VALUES (1, ?)", [.text(state)])
            } else {
                try db.query("DELETE FROM \(table.rawValue)")
            }
            return true
        } catch {
            return false
        }
    }

    /// The row's text, nil without one (or without a readable database).
    func loadStateRow(_ table: StateRow) -> String? {
        guard let db else { return nil }
        return (try? db.query("SELECT state FROM \(table.rawValue) WHERE id = 1"))?.first?.first?.string
    }

    /// Writes the anchor's state (nil: the anchor is up); false when it could not be written.
    @discardableResult
    public func saveAnchor(_ state: String?) -> Bool { saveStateRow(.anchor, state) }

    /// The stored anchor state, nil without one.
    public func loadAnchor() -> String? { loadStateRow(.anchor) }

    /// Writes the inputs' state; false when it could not be written (the caller tries again).
    @discardableResult
    public func saveInputs(_ state: String) -> Bool { saveStateRow(.inputs, state) }

    /// The stored inputs' state, nil without one.
    public func loadInputs() -> String? { loadStateRow(.inputs) }
}
