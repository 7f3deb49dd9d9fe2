/// The inputs' state in the state database (`InputMonitor.encodedState`): one row, replaced at
/// every change (SQLite's own transaction per statement: a power cut finds it as last written).
extension Store {
    /// Writes the inputs' state; false when it could not be written (the caller tries again).
    @discardableResult
    public func saveInputs(_ state: String) -> Bool {
        guard let db else { return false }
        do throws(SQLiteDatabase.Failure) {
            try db.query("INSERT OR REPLACE INTO inputs (id, state) VALUES (1, ?)", [.text(state)])
            return true
        } catch {
            return false
        }
    }

    /// The stored inputs' state, nil without one (or without a readable database).
    public func loadInputs() -> String? {
        guard let db else { return nil }
        return (try? db.query("SELECT state FROM inputs WHERE id = 1"))?.first?.first?.string
    }
}
